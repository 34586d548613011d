// Every fault the runtime reports, whatever the transport: one base class, CustodyError (a short
// message, details, a pointer into the docs), and one subclass per kind of fault, so that a caller
// catches one type and tells them apart with instanceof.
import { ERROR_CODES } from "./envelope.ts";
import type { WebhookFailureReason } from "./webhooks/signature.ts";

export interface CustodyErrorOptions {
  /** What a reader needs beyond the short message (never a secret). */
  details?: string;
  /** Where the docs explain this error: a README section (custody's README and every generated SDK's have "Errors"). */
  docsPath?: string;
  cause?: unknown;
}

export class CustodyError extends Error {
  /** One line saying what went wrong (also `message`, so logs and tests stay short). */
  readonly shortMessage: string;
  readonly details?: string;
  readonly docsPath?: string;

  constructor(shortMessage: string, options: CustodyErrorOptions = {}) {
    super(shortMessage, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "CustodyError";
    this.shortMessage = shortMessage;
    if (options.details !== undefined) this.details = options.details;
    if (options.docsPath !== undefined) this.docsPath = options.docsPath;
  }
}

export function isCustodyError(x: unknown): x is CustodyError {
  return x instanceof CustodyError;
}

export type TransportErrorKind = "network" | "timeout" | "too_large" | "aborted";

/** The request got no usable response: what went wrong, on which request, after how many attempts. */
export class TransportError extends CustodyError {
  readonly kind: TransportErrorKind;
  readonly method: string;
  readonly url: string;
  attempts = 1;

  constructor(kind: TransportErrorKind, message: string, request: { method: string; url: string }, cause?: unknown) {
    super(message, { cause, details: `${kind} on ${request.method} ${request.url}`, docsPath: "README.md#errors" });
    this.name = "TransportError";
    this.kind = kind;
    this.method = request.method;
    this.url = request.url;
  }
}

/** No connection, or it broke before a whole answer arrived (retried for requests safe to repeat). */
export class ConnectionError extends TransportError {
  constructor(message: string, request: { method: string; url: string }, cause?: unknown) {
    super("network", message, request, cause);
    this.name = "ConnectionError";
  }
}

/** No whole answer within the timeout of an attempt, or the deadline over all attempts passed. */
export class TimeoutError extends TransportError {
  constructor(message: string, request: { method: string; url: string }, cause?: unknown) {
    super("timeout", message, request, cause);
    this.name = "TimeoutError";
  }
}

/** The caller's AbortSignal ended the call (never retried). */
export class AbortError extends TransportError {
  constructor(message: string, request: { method: string; url: string }, cause?: unknown) {
    super("aborted", message, request, cause);
    this.name = "AbortError";
  }
}

/** The TransportError subclass for `kind` (too_large has none of its own). */
export function transportError(
  kind: TransportErrorKind,
  message: string,
  request: { method: string; url: string },
  cause?: unknown,
): TransportError {
  if (kind === "network") return new ConnectionError(message, request, cause);
  if (kind === "timeout") return new TimeoutError(message, request, cause);
  if (kind === "aborted") return new AbortError(message, request, cause);
  return new TransportError(kind, message, request, cause);
}

/** A JSON-RPC error object the server answered with. */
export class JsonRpcError extends CustodyError {
  readonly code: number;
  readonly data?: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message, { details: `JSON-RPC error ${code}`, docsPath: "README.md#errors" });
    this.name = "JsonRpcError";
    this.code = code;
    if (data !== undefined) this.data = data;
  }
}

export type RpcTransportErrorKind = "http" | "network" | "timeout" | "closed" | "invalid_response";

/** No JSON-RPC answer at all: the transport failed, timed out, or the server sent something else. */
export class RpcTransportError extends CustodyError {
  readonly kind: RpcTransportErrorKind;
  readonly status?: number;
  /** Raw response text when there was one, for evidence. */
  readonly body?: string;

  constructor(
    kind: RpcTransportErrorKind,
    message: string,
    details: { status?: number; body?: string; cause?: unknown } = {},
  ) {
    super(message, {
      cause: details.cause,
      details: details.status === undefined ? kind : `${kind}, HTTP ${details.status}`,
      docsPath: "README.md#errors",
    });
    this.name = "RpcTransportError";
    this.kind = kind;
    if (details.status !== undefined) this.status = details.status;
    if (details.body !== undefined) this.body = details.body;
  }
}

/** Why a webhook was refused: a signature check failed, or the body is not a declared event. */
export class WebhookVerificationError extends CustodyError {
  readonly reason: WebhookFailureReason | "invalid_event";

  constructor(reason: WebhookFailureReason | "invalid_event", message: string) {
    super(message, { details: reason, docsPath: "README.md#errors" });
    this.name = "WebhookVerificationError";
    this.reason = reason;
  }
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

function isErrorBody(x: unknown): x is ErrorBody {
  if (typeof x !== "object" || x === null) return false;
  const body = x as Record<string, unknown>;
  return (
    body.success === false &&
    typeof body.message === "string" &&
    (typeof body.code === "number" || typeof body.code === "string")
  );
}

/**
 * The service answered with an error; thrown by handlers too (the router maps it to its envelope).
 * Clients get the subclass of the status (NotFoundError, RateLimitError, ...), all ApiErrors.
 */
export class ApiError extends CustodyError {
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

  constructor(status: number, code: number | string, message: string, options: ApiErrorOptions = {}) {
    super(message, {
      cause: options.cause,
      details:
        options.requestId === undefined
          ? `HTTP ${status} ${code}`
          : `HTTP ${status} ${code}, request ${options.requestId}`,
      docsPath: "README.md#errors",
    });
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.headers = options.headers ?? {};
    if (options.requestId !== undefined) this.requestId = options.requestId;
    if (options.body !== undefined) this.body = options.body;
    if (isErrorBody(options.body)) this.error = options.body;
  }
}

/** An answer that may say when to try again: `retryAfterMs` is the wait the service asked for, when it said. */
abstract class RetryableApiError extends ApiError {
  get retryAfterMs(): number | undefined {
    return retryAfterHeaderMs(this.headers);
  }
}

/** 400: the request broke the spec (body, query or path). */
export class BadRequestError extends ApiError {
  override readonly name: string = "BadRequestError";
}
/** 401: missing or wrong credentials, or a signature the service did not accept. */
export class AuthenticationError extends ApiError {
  override readonly name: string = "AuthenticationError";
}
/** 403: the key lacks a scope or role the operation needs. */
export class PermissionDeniedError extends ApiError {
  override readonly name: string = "PermissionDeniedError";
}
/** 404: no such resource (or one of another workspace). */
export class NotFoundError extends ApiError {
  override readonly name: string = "NotFoundError";
}
/** 409: the state does not allow it now, or an idempotency key was reused with another body. */
export class ConflictError extends ApiError {
  override readonly name: string = "ConflictError";
}
/** 422: well-formed but not processable. */
export class UnprocessableEntityError extends ApiError {
  override readonly name: string = "UnprocessableEntityError";
}
/** 429: too many requests; `retryAfterMs` is the wait the service asked for, when it said. */
export class RateLimitError extends RetryableApiError {
  override readonly name: string = "RateLimitError";
}
/** 500 and above: the service failed; `retryAfterMs` as for RateLimitError (503 may carry one). */
export class InternalServerError extends RetryableApiError {
  override readonly name: string = "InternalServerError";
}

const STATUS_ERRORS: Record<number, typeof ApiError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/** The ApiError subclass of `status` (ApiError itself for a status without one). */
export function apiErrorFor(
  status: number,
  code: number | string,
  message: string,
  options: ApiErrorOptions = {},
): ApiError {
  const ErrorClass = status >= 500 ? InternalServerError : (STATUS_ERRORS[status] ?? ApiError);
  return new ErrorClass(status, code, message, options);
}

/**
 * The wait a Retry-After header asks for, in ms: delta-seconds or an HTTP date (RFC 9110 10.2.3), and
 * the non-standard retry-after-ms some services send. Undefined when absent or unreadable.
 */
export function retryAfterHeaderMs(headers: Record<string, string>, nowMs: number = Date.now()): number | undefined {
  const ms = headers["retry-after-ms"]?.trim();
  if (ms !== undefined && /^\d{1,9}(\.\d+)?$/.test(ms)) return Math.ceil(Number(ms));
  const value = headers["retry-after"]?.trim();
  if (value === undefined || value === "") return undefined;
  if (/^\d{1,9}$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** The response broke the operation's declared schema (or was no envelope where one is declared). */
export class ResponseValidationError extends ApiError {
  override readonly name: string = "ResponseValidationError";
  /** Where and how the data broke the schema (zod's issues: path, message, code). */
  readonly issues: readonly { path: readonly PropertyKey[]; message: string; code?: string }[];
  /** The body exactly as received. */
  readonly rawBody: string;

  constructor(
    status: number,
    message: string,
    details: {
      issues: ResponseValidationError["issues"];
      rawBody: string;
      requestId?: string;
      headers?: Record<string, string>;
      body?: unknown;
    },
  ) {
    super(status, "invalid_response", message, {
      requestId: details.requestId,
      headers: details.headers,
      body: details.body,
    });
    this.issues = details.issues;
    this.rawBody = details.rawBody;
  }
}

export function isApiError(x: unknown): x is ApiError {
  return x instanceof ApiError;
}

export function badRequest(message = "invalid request"): ApiError {
  return new BadRequestError(400, ERROR_CODES[400], message);
}

export function forbidden(message = "forbidden"): ApiError {
  return new PermissionDeniedError(403, ERROR_CODES[403], message);
}

export function notFound(message = "not found"): ApiError {
  return new NotFoundError(404, ERROR_CODES[404], message);
}

export function conflict(message = "conflict"): ApiError {
  return new ConflictError(409, ERROR_CODES[409], message);
}

export function payloadTooLarge(message = "payload too large"): ApiError {
  return new ApiError(413, ERROR_CODES[413], message);
}

export function internalError(message = "internal error"): ApiError {
  return new InternalServerError(500, ERROR_CODES[500], message);
}
