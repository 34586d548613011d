// ApiError: thrown by handlers (the router maps it to its envelope) and by clients (carrying what the
// server answered).
import { ERROR_CODES } from "./envelope.ts";

export interface ApiErrorOptions {
  requestId?: string;
  /** What the server sent, for clients that want to show evidence. */
  body?: unknown;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly status: number;
  /** The envelope's code: the HTTP status as an integer, `unauthorized` on 401, or a client-side string. */
  readonly code: number | string;
  readonly requestId?: string;
  readonly body?: unknown;

  constructor(status: number, code: number | string, message: string, options: ApiErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
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
