/** The response a result came in. */
export interface ResponseInfo {
    status: number;
    /** Lower-case names; repeated headers joined with ", ". */
    headers: Record<string, string>;
    /** The x-request-id header, what support asks for. */
    requestId: string | undefined;
    /** How many attempts the call took (more than 1 after retries). */
    attempts: number;
    /** The URL the call went to (with the query). */
    url: string;
}
export interface WithResponse<T> {
    data: T;
    response: ResponseInfo;
}
/**
 * A thenable over one call: `await` gives the data, `.withResponse()` the data and its response.
 * Both read the same single request; nothing is sent twice.
 */
export declare class ApiPromise<T> implements Promise<T> {
    private readonly result;
    readonly [Symbol.toStringTag] = "ApiPromise";
    constructor(result: Promise<WithResponse<T>>);
    /** The data together with the response's status, headers and request id. */
    withResponse(): Promise<WithResponse<T>>;
    then<A = T, B = never>(onfulfilled?: ((value: T) => A | PromiseLike<A>) | null, onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<A | B>;
    catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<T | B>;
    finally(onfinally?: (() => void) | null): Promise<T>;
}
