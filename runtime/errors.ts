// Every fault the runtime reports, whatever the transport: one base class, CustodyError (a short
// message, details, a pointer into the docs), and one subclass per kind of fault, so that a caller
// catches one type and tells them apart with instanceof.
import { ERROR_CODES } from "./envelope.ts";
import type { WebhookFailureReason } from "./webhook-signature.ts";

export interface CustodyErrorOptions {
  /** What a reader needs beyond the short message (never a secret). */
  details?: string;
  /** Where the docs explain this error: a path in custody's package, e.g. "README.md#errors". */
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

  constructor(kind: RpcTransportErrorKind, message: string, details: { status?: number; body?: string; cause?: unknown } = {}) {
    super(message, { cause: details.cause, details: details.status === undefined ? kind : `${kind}, HTTP ${details.status}`, docsPath: "README.md#errors" });
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
  cause?: unknown;
}

/** The service answered with an error; thrown by handlers too (the router maps it to its envelope). */
export class ApiError extends CustodyError {
  readonly status: number;
  /** The envelope's code: the HTTP status as an integer, `unauthorized` on 401, or a client-side string. */
  readonly code: number | string;
  readonly requestId?: string;
  readonly body?: unknown;

  constructor(status: number, code: number | string, message: string, options: ApiErrorOptions = {}) {
    super(message, { cause: options.cause, details: options.requestId === undefined ? `HTTP ${status} ${code}` : `HTTP ${status} ${code}, request ${options.requestId}`, docsPath: "README.md#errors" });
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    if (options.requestId !== undefined) this.requestId = options.requestId;
    if (options.body !== undefined) this.body = options.body;
  }
}

export function isApiError(x: unknown): x is ApiError {
  return x instanceof ApiError;
}

export function badRequest(message = "invalid request"): ApiError {
  return new ApiError(400, ERROR_CODES[400], message);
}

export function forbidden(message = "forbidden"): ApiError {
  return new ApiError(403, ERROR_CODES[403], message);
}

export function notFound(message = "not found"): ApiError {
  return new ApiError(404, ERROR_CODES[404], message);
}

export function conflict(message = "conflict"): ApiError {
  return new ApiError(409, ERROR_CODES[409], message);
}

export function payloadTooLarge(message = "payload too large"): ApiError {
  return new ApiError(413, ERROR_CODES[413], message);
}

export function internalError(message = "internal error"): ApiError {
  return new ApiError(500, ERROR_CODES[500], message);
}
