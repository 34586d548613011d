// What every generated client method does: fill the path, send through the signing transport,
// unwrap the envelope (or check the HTTP status), validate the payload against the operation's
// declared response schema, and raise ApiError on failure. Generated client.ts stays one line a method.
import type { z } from "zod";
import { ApiError } from "./errors.ts";
import { unwrapEnvelope, type QueryValue, type RetryPolicy, type Transport, type TransportResponse } from "./http-client.ts";
import { firstIssue } from "./schema-issue.ts";

/** Per-call overrides. */
export interface CallOptions {
  timeoutMs?: number;
  /** Retry policy for this call (only idempotent calls are ever retried). */
  retry?: Partial<RetryPolicy> | false;
  signal?: AbortSignal;
  /** Extra headers, applied after signing; undefined removes one. */
  headers?: Record<string, string | undefined>;
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

/** The parts of an operations.ts entry the client needs. */
export interface CallOperation {
  operationId: string;
  method: string;
  path: string;
  successStatus: number;
  idempotent: boolean;
  envelope: boolean;
  responseSchemas: object;
}

/** How the success body is read: parsed JSON, raw text, or nothing. */
export type ResponseKind = "json" | "text" | "none";

export async function callOperation(
  transport: Transport,
  op: CallOperation,
  input: CallInput,
  options: CallOptions | undefined,
  kind: ResponseKind,
): Promise<unknown> {
  const response = await transport.request({
    method: op.method,
    path: expandPath(op.path, input.params),
    query: input.query as Record<string, QueryValue> | undefined,
    headers: input.headers === undefined && options?.headers === undefined ? undefined : { ...headerStrings(input.headers), ...options?.headers },
    body: input.body,
    idempotent: op.idempotent,
    timeoutMs: options?.timeoutMs,
    retry: options?.retry,
    signal: options?.signal,
  });
  const validate = options?.validateResponse ?? transport.validateResponses ?? true;
  if (op.envelope) {
    const data = unwrapEnvelope(response, op.successStatus);
    return validate ? checked(op, response, data) : data;
  }
  if (response.status < 200 || response.status >= 300) throw httpError(response);
  const data = kind === "text" ? response.text : kind === "none" ? undefined : response.body;
  return validate ? checked(op, response, data) : data;
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
  for (const [name, value] of Object.entries(headers ?? {})) if (value !== undefined && value !== null) out[name] = String(value);
  return out;
}

/** Validates what the response carries against the schema declared for its status. */
function checked(op: CallOperation, response: TransportResponse, data: unknown): unknown {
  const schemas = op.responseSchemas as Record<string, z.ZodType | undefined>;
  const schema = schemas[response.status] ?? schemas[`${String(response.status)[0]}XX`] ?? schemas.default;
  if (schema === undefined) return data;
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const message = `${op.operationId}: the response does not match the spec at ${firstIssue(result.error)}`;
  throw new ApiError(response.status, "invalid_response", message, { requestId: response.requestId, body: response.body ?? response.text });
}

/** A non-2xx answer without an envelope: code and message from the body when it has them. */
function httpError(response: TransportResponse): ApiError {
  const body = (typeof response.body === "object" && response.body !== null ? response.body : {}) as Record<string, unknown>;
  const code = typeof body.code === "string" || typeof body.code === "number" ? body.code : `http_${response.status}`;
  const message = typeof body.message === "string" ? body.message : `HTTP ${response.status}`;
  return new ApiError(response.status, code, message, { requestId: response.requestId, body: response.body ?? response.text });
}
