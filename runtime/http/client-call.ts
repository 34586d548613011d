// What every generated client method does: fill the path, send through the signing transport (with a
// generated idempotency key where the operation declares one), unwrap the envelope (or check the HTTP
// status), validate the payload against the operation's declared response schema, and raise the
// ApiError subclass of the status on failure. Generated client.ts stays one line a method.

import { type ApiError, apiErrorFor, ResponseValidationError } from "../errors.ts";
import { firstIssue, type ParsingSchema } from "../schema/issue.ts";
import { unwrapEnvelope } from "./answer.ts";
import { ApiPromise, type WithResponse } from "./api-promise.ts";
import type { RetryPolicy } from "./retry.ts";
import type { QueryValue, Transport, TransportResponse } from "./transport.ts";

/** Per-call overrides. */
export interface CallOptions {
  /** Per attempt, in ms. */
  timeoutMs?: number;
  /** The same as timeoutMs (the name other SDKs use); timeoutMs wins when both are given. */
  timeout?: number;
  /** Over all attempts and the waits between them, in ms. */
  deadlineMs?: number;
  /** Retries after the first attempt (only calls safe to repeat are ever retried). */
  maxRetries?: number;
  /** Retry policy for this call (only calls safe to repeat are ever retried). */
  retry?: Partial<RetryPolicy> | false;
  signal?: AbortSignal;
  /** Extra headers, applied after signing; undefined removes one. */
  headers?: Record<string, string | undefined>;
  /**
   * The idempotency key of this call, for an operation that declares one (default: a fresh UUID v4,
   * sent unchanged on every retry of this call). Give your own to make a call safe to repeat across restarts.
   */
  idempotencyKey?: string;
  /**
   * Check the answer against the operation's response schema (default: the transport's
   * validateResponses, itself true by default). Unchecked data is the parsed JSON as it came,
   * unknown fields included.
   */
  validateResponse?: boolean;
}

/** What a generated method hands over: the operation's input parts. */
export interface CallInput {
  params?: object;
  query?: object;
  headers?: object;
  body?: unknown;
}

/** The parts of an operations.ts entry the client needs (defaults keep the generated call table small). */
export interface CallOperation {
  operationId: string;
  method: string;
  path: string;
  /** Default 200. */
  successStatus?: number;
  /** Default: by method (GET, HEAD, PUT, DELETE, OPTIONS). */
  idempotent?: boolean;
  /** Default true: the answer is the {success, message, code, data} envelope. */
  envelope?: boolean;
  responseSchemas: object;
  /** The header the operation declares for an idempotency key, when it declares one. */
  idempotencyHeader?: string;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);

/** How the success body is read: parsed JSON, raw text, or nothing. */
export type ResponseKind = "json" | "text" | "none";

/** One call: `await` it for the data, or `.withResponse()` for the data with status, headers and request id. */
export function callOperation(
  transport: Transport,
  op: CallOperation,
  input: CallInput,
  options: CallOptions | undefined,
  kind: ResponseKind,
): ApiPromise<unknown> {
  return new ApiPromise(send(transport, op, input, options, kind));
}

async function send(
  transport: Transport,
  op: CallOperation,
  input: CallInput,
  options: CallOptions | undefined,
  kind: ResponseKind,
): Promise<WithResponse<unknown>> {
  const headers = requestHeaders(op, input, options);
  const response = await transport.request({
    method: op.method,
    path: expandPath(op.path, input.params),
    query: input.query as Record<string, QueryValue> | undefined,
    headers,
    body: input.body,
    // A call carrying its idempotency key is safe to repeat: the service answers a repeat with the first answer.
    idempotent: (op.idempotent ?? SAFE_METHODS.has(op.method.toUpperCase())) || op.idempotencyHeader !== undefined,
    timeoutMs: options?.timeoutMs ?? options?.timeout,
    deadlineMs: options?.deadlineMs,
    maxRetries: options?.maxRetries,
    retry: options?.retry,
    signal: options?.signal,
    operationId: op.operationId,
  });
  const info = {
    status: response.status,
    headers: response.headers,
    requestId: response.requestId,
    attempts: response.attempts,
    url: response.request.url,
  };
  const validate = options?.validateResponse ?? transport.validateResponses ?? true;
  if (op.envelope ?? true) {
    const data = unwrapEnvelope(response, op.successStatus ?? 200);
    return { data: validate ? checked(op, response, data) : data, response: info };
  }
  if (response.status < 200 || response.status >= 300) throw httpError(response);
  const data = kind === "text" ? response.text : kind === "none" ? undefined : response.body;
  return { data: validate ? checked(op, response, data) : data, response: info };
}

/** The caller's headers, plus the idempotency key the operation declares (the caller's, or a new one). */
function requestHeaders(
  op: CallOperation,
  input: CallInput,
  options: CallOptions | undefined,
): Record<string, string | undefined> | undefined {
  const name = op.idempotencyHeader;
  if (name === undefined && input.headers === undefined && options?.headers === undefined) return undefined;
  const headers: Record<string, string | undefined> = { ...headerStrings(input.headers), ...options?.headers };
  if (name !== undefined) {
    const given = Object.keys(headers).find((key) => key.toLowerCase() === name.toLowerCase());
    if (options?.idempotencyKey !== undefined) {
      if (given !== undefined) delete headers[given];
      headers[name] = options.idempotencyKey;
    } else if (given === undefined || headers[given] === undefined) {
      if (given !== undefined) delete headers[given];
      headers[name] = uuidV4();
    }
  }
  return headers;
}

/** A random (version 4) UUID, on any runtime with Web Crypto (randomUUID needs a secure context in browsers). */
export function uuidV4(): string {
  const webCrypto = globalThis.crypto;
  if (typeof webCrypto.randomUUID === "function") return webCrypto.randomUUID();
  const bytes = webCrypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A path template cut at its parameters: literal pieces around parameter names. */
interface PathTemplate {
  literals: string[];
  names: string[];
}

// One entry per template the client calls: bounded by the operations of the spec.
const templates = new Map<string, PathTemplate>();

function pathTemplate(template: string): PathTemplate {
  let compiled = templates.get(template);
  if (compiled === undefined) {
    // split with a capturing group alternates literal, name, literal, ..., literal.
    const pieces = template.split(/\{([^}]+)\}/);
    compiled = { literals: pieces.filter((_, i) => i % 2 === 0), names: pieces.filter((_, i) => i % 2 === 1) };
    templates.set(template, compiled);
  }
  return compiled;
}

/** Fills the path template; each value is percent-encoded as one path segment. */
export function expandPath(template: string, params: object | undefined): string {
  const values = (params ?? {}) as Record<string, unknown>;
  const { literals, names } = pathTemplate(template);
  let path = literals[0];
  for (let i = 0; i < names.length; i++) path += encodeURIComponent(String(values[names[i]])) + literals[i + 1];
  return path;
}

function headerStrings(headers: object | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {}))
    if (value !== undefined && value !== null) out[name] = String(value);
  return out;
}

/** Validates what the response carries against the schema declared for its status. */
function checked(op: CallOperation, response: TransportResponse, data: unknown): unknown {
  const schemas = op.responseSchemas as Record<string, ParsingSchema | undefined>;
  const schema = schemas[response.status] ?? schemas[`${String(response.status)[0]}XX`] ?? schemas.default;
  if (schema === undefined) return data;
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const message = `${op.operationId}: the response does not match the spec at ${firstIssue(result.error)}`;
  const issues = result.error.issues.map((issue) => ({ path: issue.path, message: issue.message, code: issue.code }));
  throw new ResponseValidationError(response.status, message, {
    issues,
    rawBody: response.text,
    requestId: response.requestId,
    headers: response.headers,
    body: response.body ?? response.text,
  });
}

/** A non-2xx answer without an envelope: code and message from the body when it has them. */
function httpError(response: TransportResponse): ApiError {
  const body = (typeof response.body === "object" && response.body !== null ? response.body : {}) as Record<
    string,
    unknown
  >;
  const code = typeof body.code === "string" || typeof body.code === "number" ? body.code : `http_${response.status}`;
  const message = typeof body.message === "string" ? body.message : `HTTP ${response.status}`;
  return apiErrorFor(response.status, code, message, {
    requestId: response.requestId,
    body: response.body ?? response.text,
    headers: response.headers,
  });
}
