import type { WebhookFailureReason } from "./webhook-signature.ts";
export interface CustodyErrorOptions {
    /** What a reader needs beyond the short message (never a secret). */
    details?: string;
    /** Where the docs explain this error: a path in custody's package, e.g. "README.md#errors". */
    docsPath?: string;
    cause?: unknown;
}
export declare class CustodyError extends Error {
    /** One line saying what went wrong (also `message`, so logs and tests stay short). */
    readonly shortMessage: string;
    readonly details?: string;
    readonly docsPath?: string;
    constructor(shortMessage: string, options?: CustodyErrorOptions);
}
export declare function isCustodyError(x: unknown): x is CustodyError;
export type TransportErrorKind = "network" | "timeout" | "too_large" | "aborted";
/** The request got no usable response: what went wrong, on which request, after how many attempts. */
export declare class TransportError extends CustodyError {
    readonly kind: TransportErrorKind;
    readonly method: string;
    readonly url: string;
    attempts: number;
    constructor(kind: TransportErrorKind, message: string, request: {
        method: string;
        url: string;
    }, cause?: unknown);
}
/** No connection, or it broke before a whole answer arrived (retried for requests safe to repeat). */
export declare class ConnectionError extends TransportError {
    constructor(message: string, request: {
        method: string;
        url: string;
    }, cause?: unknown);
}
/** No whole answer within the timeout of an attempt, or the deadline over all attempts passed. */
export declare class TimeoutError extends TransportError {
    constructor(message: string, request: {
        method: string;
        url: string;
    }, cause?: unknown);
}
/** The caller's AbortSignal ended the call (never retried). */
export declare class AbortError extends TransportError {
    constructor(message: string, request: {
        method: string;
        url: string;
    }, cause?: unknown);
}
/** The TransportError subclass for `kind` (too_large has none of its own). */
export declare function transportError(kind: TransportErrorKind, message: string, request: {
    method: string;
    url: string;
}, cause?: unknown): TransportError;
/** A JSON-RPC error object the server answered with. */
export declare class JsonRpcError extends CustodyError {
    readonly code: number;
    readonly data?: unknown;
    constructor(code: number, message: string, data?: unknown);
}
export type RpcTransportErrorKind = "http" | "network" | "timeout" | "closed" | "invalid_response";
/** No JSON-RPC answer at all: the transport failed, timed out, or the server sent something else. */
export declare class RpcTransportError extends CustodyError {
    readonly kind: RpcTransportErrorKind;
    readonly status?: number;
    /** Raw response text when there was one, for evidence. */
    readonly body?: string;
    constructor(kind: RpcTransportErrorKind, message: string, details?: {
        status?: number;
        body?: string;
        cause?: unknown;
    });
}
/** Why a webhook was refused: a signature check failed, or the body is not a declared event. */
export declare class WebhookVerificationError extends CustodyError {
    readonly reason: WebhookFailureReason | "invalid_event";
    constructor(reason: WebhookFailureReason | "invalid_event", message: string);
}
export interface ApiErrorOptions {
    requestId?: string;
    /** What the server sent, for clients that want to show evidence. */
    body?: unknown;
    /** Response headers, lower-case names. */
    headers?: Record<string, string>;
    cause?: unknown;
}
/** The error body every operation of the spec declares (components/schemas/ErrorEnvelope). */
export interface ErrorBody {
    success: false;
    message: string;
    code: number | string;
    data: null;
}
/**
 * The service answered with an error; thrown by handlers too (the router maps it to its envelope).
 * Clients get the subclass of the status (NotFoundError, RateLimitError, ...), all ApiErrors.
 */
export declare class ApiError extends CustodyError {
    readonly status: number;
    /** The envelope's code: the HTTP status as an integer, `unauthorized` on 401, or a client-side string. */
    readonly code: number | string;
    readonly requestId?: string;
    /** What the server sent: the parsed JSON, or the text when it was not JSON. */
    readonly body?: unknown;
    /** The response headers (lower-case names); empty when the error was not built from a response. */
    readonly headers: Record<string, string>;
    /** The body as the spec's error envelope, when it is one. */
    readonly error?: ErrorBody;
    constructor(status: number, code: number | string, message: string, options?: ApiErrorOptions);
}
/** 400: the request broke the spec (body, query or path). */
export declare class BadRequestError extends ApiError {
    readonly name: string;
}
/** 401: missing or wrong credentials, or a signature the service did not accept. */
export declare class AuthenticationError extends ApiError {
    readonly name: string;
}
/** 403: the key lacks a scope or role the operation needs. */
export declare class PermissionDeniedError extends ApiError {
    readonly name: string;
}
/** 404: no such resource (or one of another workspace). */
export declare class NotFoundError extends ApiError {
    readonly name: string;
}
/** 409: the state does not allow it now, or an idempotency key was reused with another body. */
export declare class ConflictError extends ApiError {
    readonly name: string;
}
/** 422: well-formed but not processable. */
export declare class UnprocessableEntityError extends ApiError {
    readonly name: string;
}
/** 429: too many requests; `retryAfterMs` is the wait the service asked for, when it said. */
export declare class RateLimitError extends ApiError {
    readonly name: string;
    get retryAfterMs(): number | undefined;
}
/** 500 and above: the service failed; `retryAfterMs` as for RateLimitError (503 may carry one). */
export declare class InternalServerError extends ApiError {
    readonly name: string;
    get retryAfterMs(): number | undefined;
}
/** The ApiError subclass of `status` (ApiError itself for a status without one). */
export declare function apiErrorFor(status: number, code: number | string, message: string, options?: ApiErrorOptions): ApiError;
/**
 * The wait a Retry-After header asks for, in ms: delta-seconds or an HTTP date (RFC 9110 10.2.3), and
 * the non-standard retry-after-ms some services send. Undefined when absent or unreadable.
 */
export declare function retryAfterHeaderMs(headers: Record<string, string>, nowMs?: number): number | undefined;
/** The response broke the operation's declared schema (or was no envelope where one is declared). */
export declare class ResponseValidationError extends ApiError {
    readonly name: string;
    /** Where and how the data broke the schema (zod's issues: path, message, code). */
    readonly issues: readonly {
        path: readonly PropertyKey[];
        message: string;
        code?: string;
    }[];
    /** The body exactly as received. */
    readonly rawBody: string;
    constructor(status: number, message: string, details: {
        issues: ResponseValidationError["issues"];
        rawBody: string;
        requestId?: string;
        headers?: Record<string, string>;
        body?: unknown;
    });
}
export declare function isApiError(x: unknown): x is ApiError;
export declare function badRequest(message?: string): ApiError;
export declare function forbidden(message?: string): ApiError;
export declare function notFound(message?: string): ApiError;
export declare function conflict(message?: string): ApiError;
export declare function payloadTooLarge(message?: string): ApiError;
export declare function internalError(message?: string): ApiError;
