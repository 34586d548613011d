// What every generated client method returns: a promise of the data that also offers `.withResponse()`,
// resolving to the data with the response it came in (status, headers, request id, attempts).
/**
 * A thenable over one call: `await` gives the data, `.withResponse()` the data and its response.
 * Both read the same single request; nothing is sent twice.
 */
export class ApiPromise {
    result;
    [Symbol.toStringTag] = "ApiPromise";
    constructor(result) {
        this.result = result;
    }
    /** The data together with the response's status, headers and request id. */
    withResponse() {
        return this.result;
    }
    then(onfulfilled, onrejected) {
        return this.result.then((r) => r.data).then(onfulfilled, onrejected);
    }
    catch(onrejected) {
        return this.then(undefined, onrejected);
    }
    finally(onfinally) {
        return this.then().finally(onfinally);
    }
}
//# sourceMappingURL=api-promise.js.map