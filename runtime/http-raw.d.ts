export interface RawResponse {
    status: number;
    /** Lower-case names; repeated headers joined with ", ". */
    headers: Record<string, string>;
    text: string;
}
export interface RawSendInput {
    /** Absolute URL with the query. */
    url: string;
    origin: string;
    /** Path and query, as sent. */
    pathAndQuery: string;
    method: string;
    headers: Record<string, string>;
    body: string | Uint8Array | undefined;
    /** Whole exchange: connection, headers and body. */
    timeoutMs: number;
    signal?: AbortSignal;
    maxBytes: number;
}
/** Sends one request and collects the whole answer (never follows redirects, never holds more than maxBytes). */
export type RawSend = (input: RawSendInput) => Promise<RawResponse>;
/** The body is larger than maxBytes, declared or received (the caller words the error). */
export declare class BodyTooLarge extends Error {
    constructor(maxBytes: number);
}
/** The exchange's own deadline passed (the caller words the error). */
export declare class DeadlineExceeded extends Error {
    constructor(timeoutMs: number);
}
/** True when content-length announces more than `limit` bytes. */
export declare function declaresMoreThan(headers: Record<string, string>, limit: number): boolean;
/** Lower-case names, repeated headers joined with ", " (the shape TransportResponse promises). */
export declare function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string>;
