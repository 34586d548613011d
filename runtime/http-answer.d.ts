import type { TransportResponse } from "./http-transport.ts";
/**
 * The data of a success envelope, or an ApiError carrying status, headers, code, message and request id.
 * `expectedStatus` (the operation's declared success status) makes any other 2xx an error too.
 */
export declare function unwrapEnvelope<T = unknown>(response: TransportResponse, expectedStatus?: number): T;
