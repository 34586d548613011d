import { type ClientLogger, type LogLevel } from "./client-log.ts";
import { type RawResponse, type RawSend } from "./http-raw.ts";
import { type RetryPolicy } from "./retry.ts";
export declare const DEFAULT_TIMEOUT_MS = 10000;
export declare const DEFAULT_MAX_RESPONSE_BYTES: number;
/** The subset of the Fetch API the transport uses, so the global fetch, undici's fetch or a fake fit. */
export type FetchLike = (url: string, init: {
    method: string;
    headers: Record<string, string>;
    body?: string | Uint8Array;
    redirect: "manual";
    signal: AbortSignal;
    dispatcher?: unknown;
}) => Promise<{
    status: number;
    headers: {
        forEach(callback: (value: string, key: string) => void): void;
    };
    body: ReadableStream<Uint8Array> | null;
}>;
/** A request as middleware sees it, signed and about to go out. Headers may be changed; the body may not (it is signed). */
export interface MiddlewareRequest {
    readonly method: string;
    readonly url: string;
    headers: Record<string, string>;
    readonly body: string | undefined;
    /** 1 for the first attempt. */
    readonly attempt: number;
    /** The operation being called, when the call came through a generated client method. */
    readonly operationId?: string;
}
/** What middleware gets back from `next`, and returns. */
export type MiddlewareResponse = RawResponse;
/** Around every attempt: look at or change the request, call next, look at or replace the response. */
export type Middleware = (request: MiddlewareRequest, next: (request: MiddlewareRequest) => Promise<MiddlewareResponse>) => Promise<MiddlewareResponse>;
export interface TransportOptions {
    /** Origin plus an optional path prefix, e.g. http://127.0.0.1:8080 */
    baseUrl: string;
    /** Without key and secret requests go unsigned. */
    apiKey?: string;
    apiSecret?: string;
    /** Per attempt, covering headers and body (default 10 s). */
    timeoutMs?: number;
    /** The same as timeoutMs (the name other SDKs use); timeoutMs wins when both are given. */
    timeout?: number;
    /** Over all attempts and the waits between them; none by default. */
    deadlineMs?: number;
    /** Retries after the first attempt (default 2); shorthand for retry.retries. */
    maxRetries?: number;
    /** Partial overrides of DEFAULT_RETRY_POLICY, or false for no retries at all. */
    retry?: Partial<RetryPolicy> | false;
    /**
     * Node tuning: an undici Dispatcher (Agent, Pool, ProxyAgent) handed to fetch. custody's Node
     * entry (runtime/http-client.ts) sends through it directly, without fetch.
     */
    dispatcher?: unknown;
    /** The fetch to send with (default: the runtime's global fetch). */
    fetch?: FetchLike;
    /** Lowest level: sends one exchange (used instead of fetch when given). */
    send?: RawSend;
    maxResponseBytes?: number;
    /** Sent with every request (signed headers and per-request headers take precedence). */
    headers?: Record<string, string>;
    /** Unix seconds used for ACCESS-TIMESTAMP; defaults to the clock. */
    now?: () => number;
    /**
     * Whether generated client methods check answers against the spec's response schemas (default
     * true; runtime/client-call.ts reads it). The transport itself never validates.
     */
    validateResponses?: boolean;
    /** Run around every attempt, first one outermost. */
    middleware?: readonly Middleware[];
    /** Where log lines go (default: console). */
    logger?: ClientLogger;
    /** Default: the CUSTODY_LOG_LEVEL environment variable, else "warn". debug shows every attempt. */
    logLevel?: LogLevel;
    /** Show request and response bodies in debug lines (members named like secrets still redacted). Default false. */
    logBodies?: boolean;
}
export type QueryValue = string | number | boolean | undefined | null | readonly (string | number | boolean)[];
export interface TransportRequest {
    method: string;
    /** Path under baseUrl (starting with /), already percent-encoded; sent and signed exactly like this. */
    path: string;
    query?: Record<string, QueryValue>;
    /** A string or bytes are sent as they are; anything else is serialized as JSON once. */
    body?: unknown;
    /** Applied after signing; a value of undefined removes the header (conformance uses this to tamper). */
    headers?: Record<string, string | undefined>;
    /** Defaults to true for GET/HEAD/PUT/DELETE/OPTIONS and for calls carrying an Idempotency-Key. */
    idempotent?: boolean;
    /** Defaults to true when the transport has credentials. */
    sign?: boolean;
    /** Overrides ACCESS-TIMESTAMP (e.g. to send a stale one). */
    timestamp?: number | string;
    timeoutMs?: number;
    /** Over all attempts of this request (overrides the transport's). */
    deadlineMs?: number;
    maxRetries?: number;
    signal?: AbortSignal;
    retry?: Partial<RetryPolicy> | false;
    /** For middleware and logs. */
    operationId?: string;
}
/** What was sent, for evidence. Holds no secret: the API secret never leaves the signing module. */
export interface SentRequest {
    method: string;
    url: string;
    /** The path as sent and signed (no query). */
    path: string;
    headers: Record<string, string>;
    body: string | undefined;
}
export interface TransportResponse {
    status: number;
    /** Lower-case names; repeated headers joined with ", ". */
    headers: Record<string, string>;
    /** Parsed JSON, or undefined when the body is empty or not JSON. */
    body: unknown;
    text: string;
    requestId: string | undefined;
    attempts: number;
    request: SentRequest;
}
export interface Transport {
    request(request: TransportRequest): Promise<TransportResponse>;
    readonly baseUrl: string;
    /** See TransportOptions.validateResponses; absent means true. */
    readonly validateResponses?: boolean;
}
export declare function isIdempotentRequest(request: Pick<TransportRequest, "method" | "headers" | "idempotent">): boolean;
export declare function buildQueryString(query: Record<string, QueryValue> | undefined): string;
/** A RawSend over a fetch: web streams, and an AbortSignal for the attempt's timeout. */
export declare function fetchSend(fetch: FetchLike, dispatcher?: unknown): RawSend;
export declare function createTransport(options: TransportOptions): Transport;
