// What every generated client method returns: a promise of the data that also offers `.withResponse()`,
// resolving to the data with the response it came in (status, headers, request id, attempts).

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
export class ApiPromise<T> implements Promise<T> {
  readonly [Symbol.toStringTag] = "ApiPromise";

  constructor(private readonly result: Promise<WithResponse<T>>) {}

  /** The data together with the response's status, headers and request id. */
  withResponse(): Promise<WithResponse<T>> {
    return this.result;
  }

  then<A = T, B = never>(
    onfulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    // One step, not two: the data goes straight to the caller's callback.
    return this.result.then((r) => (onfulfilled ? onfulfilled(r.data) : (r.data as unknown as A)), onrejected);
  }

  catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.then(undefined, onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onfinally);
  }
}
