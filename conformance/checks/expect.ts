// Assertions on wallet API responses. Each throws CheckFailed carrying the exchange as evidence,
// so a failing check always shows the request that reproduces it and what came back.
import { type Envelope, isEnvelope, UNAUTHORIZED_ENVELOPE } from "../../runtime/envelope.ts";
import type { OperationInfo } from "../run/operations.ts";
import type { HttpExchange } from "../transport/probe.ts";
import { CheckFailed } from "./outcome.ts";

export function failWith(ex: HttpExchange, message: string, details?: unknown): never {
  throw new CheckFailed(message, details === undefined ? ex.evidence : { ...ex.evidence, details });
}

function bodyPreview(ex: HttpExchange): string {
  const text = ex.response.text.replace(/\s+/g, " ").trim();
  return text.length > 80 ? `${text.slice(0, 80)}…` : text || "(empty)";
}

export function isJsonContentType(ex: HttpExchange): boolean {
  return /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i.test(ex.response.headers["content-type"] ?? "");
}

/** The parsed JSON body; fails naming the content type and the start of the body when it is not JSON. */
export function parseJson(ex: HttpExchange): unknown {
  try {
    return JSON.parse(ex.response.text);
  } catch {
    const type = ex.response.headers["content-type"] ?? "no content-type";
    failWith(ex, `response is not JSON (HTTP ${ex.response.status}, ${type}): ${bodyPreview(ex)}`);
  }
}

export function expectStatus(ex: HttpExchange, expected: number | number[], what = "the request"): void {
  const list = Array.isArray(expected) ? expected : [expected];
  if (!list.includes(ex.response.status)) {
    failWith(ex, `expected HTTP ${list.join(" or ")} for ${what}, got ${ex.response.status}: ${bodyPreview(ex)}`);
  }
}

/** The body as an envelope (seed 2.1), or a failure that names what is missing. */
export function expectEnvelope(ex: HttpExchange): Envelope<unknown> {
  const body = parseJson(ex);
  const problem = envelopeProblem(body);
  if (problem) failWith(ex, `response (HTTP ${ex.response.status}) is not the envelope: ${problem}`);
  return body as Envelope<unknown>;
}

/** What is wrong with a value as an envelope, or undefined. */
export function envelopeProblem(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return "body is not a JSON object";
  const b = body as Record<string, unknown>;
  if (typeof b.success !== "boolean") return "`success` is not a boolean";
  if (typeof b.message !== "string") return "`message` is not a string";
  if (typeof b.code !== "string" && typeof b.code !== "number") return "`code` is neither a string nor an integer";
  if (!("data" in b)) return "`data` is missing";
  if (!b.success && b.data !== null) return "`data` is not null on an error";
  if (!isEnvelope(body)) return "not an envelope";
  return undefined;
}

/**
 * The one rule for a success code (seed 2.1: code is "integer or string", "0 on success"; the spec's
 * envelopes declare `[integer, string]`): 0 or "0". Every check asks this, none compares itself.
 */
export function isSuccessCode(code: unknown): boolean {
  return sameCode(code, 0);
}

/** True when an envelope's code is `expected`, written as an integer or as a string (seed 2.1). */
export function sameCode(code: unknown, expected: number | string): boolean {
  return (typeof code === "number" || typeof code === "string") && String(code) === String(expected);
}

/** A 2xx success envelope with the success code; returns data (validated against the operation when given). */
export function expectSuccess(ex: HttpExchange, op?: OperationInfo, what?: string): unknown {
  const label = what ?? (op ? op.operationId : "the request");
  if (ex.response.status < 200 || ex.response.status > 299) {
    failWith(ex, `expected a success for ${label}, got HTTP ${ex.response.status}: ${bodyPreview(ex)}`);
  }
  const env = expectEnvelope(ex);
  if (env.success !== true) failWith(ex, `${label}: HTTP ${ex.response.status} but success is not true`);
  const code: unknown = env.code;
  if (!isSuccessCode(code)) failWith(ex, `${label}: success envelope with code ${JSON.stringify(code)} instead of 0`);
  if (op) {
    const problem = schemaProblem(op, ex.response.status, env);
    if (problem) failWith(ex, `${label}: ${problem}`);
  }
  return env.data;
}

/** An error envelope with this status (and code, when given). */
export function expectError(
  ex: HttpExchange,
  status: number | number[],
  code?: number | string,
  what = "the request",
): Envelope<unknown> {
  expectStatus(ex, status, what);
  const env = expectEnvelope(ex);
  if (env.success !== false) failWith(ex, `${what}: HTTP ${ex.response.status} with success true`);
  if (code !== undefined && !sameCode(env.code, code))
    failWith(ex, `${what}: error code ${JSON.stringify(env.code)}, expected ${JSON.stringify(code)}`);
  return env;
}

/**
 * A refusal. At --level full the spec's choice, HTTP 403 with code 403; at seed level any
 * error envelope (success false, data null, a non-2xx status), since the seed fixes neither the
 * status nor the code of errors other than 401 (section 7).
 */
export function expectRefusal(level: "seed" | "full", ex: HttpExchange, what: string): void {
  if (level === "full") {
    expectError(ex, 403, 403, what);
    return;
  }
  if (ex.response.status < 400)
    failWith(ex, `${what}: expected a refusal, got HTTP ${ex.response.status}: ${bodyPreview(ex)}`);
  const env = expectEnvelope(ex);
  if (env.success !== false || env.data !== null)
    failWith(ex, `${what}: HTTP ${ex.response.status} without the error envelope (success false, data null)`);
}

/** 401 with the one unauthorized envelope (seed 5 rule 1); byte identity is checked by auth.identical-401. */
export function expectUnauthorized(ex: HttpExchange, what: string): void {
  if (ex.response.status !== 401) {
    failWith(ex, `${what}: expected HTTP 401, got ${ex.response.status}: ${bodyPreview(ex)}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(ex.response.text);
  } catch {
    failWith(ex, `${what}: 401 body is not JSON: ${bodyPreview(ex)}`);
  }
  const expected = UNAUTHORIZED_ENVELOPE as unknown as Record<string, unknown>;
  const b = body as Record<string, unknown>;
  const same =
    typeof b === "object" &&
    b !== null &&
    Object.keys(b).length === 4 &&
    Object.entries(expected).every(([k, v]) => b[k] === v);
  if (!same)
    failWith(ex, `${what}: 401 body is not the unauthorized envelope ${JSON.stringify(expected)}: ${bodyPreview(ex)}`);
}

/**
 * Validates the envelope's payload against the generated schema of this operation and status.
 * Undefined when it matches; a sentence naming the first mismatching field otherwise.
 */
export function schemaProblem(op: OperationInfo, status: number, body: unknown): string | undefined {
  const schema = op.responseSchemas[String(status)];
  if (!schema) return undefined;
  // Generated schemas describe the envelope's data for every status (null for errors).
  const value = op.envelope ? (body as { data?: unknown }).data : body;
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  const issue = result.error.issues[0];
  const where = [op.envelope ? "data" : "", ...(issue?.path ?? []).map(String)].filter(Boolean).join(".") || "(root)";
  return `response does not match the ${op.operationId} ${status} schema at ${where}: ${issue?.message ?? "invalid"}`;
}

/** Every rule one response must follow, as a list of problems (empty when conforming). */
export function responseProblems(op: OperationInfo, ex: HttpExchange): string[] {
  const problems: string[] = [];
  const status = ex.response.status;
  if (op.declaredStatuses.length > 0 && !op.declaredStatuses.includes(status)) {
    problems.push(`HTTP ${status} is not declared for ${op.operationId} (declared: ${op.declaredStatuses.join(", ")})`);
  }
  if (!isJsonContentType(ex))
    problems.push(`content-type is ${ex.response.headers["content-type"] ?? "missing"}, not application/json`);
  let body: unknown;
  try {
    body = JSON.parse(ex.response.text);
  } catch {
    problems.push(`body is not JSON: ${bodyPreview(ex)}`);
    return problems;
  }
  const envProblem = envelopeProblem(body);
  if (envProblem) {
    problems.push(`not the envelope: ${envProblem}`);
    return problems;
  }
  const env = body as Envelope<unknown>;
  const is2xx = status >= 200 && status < 300;
  if (env.success !== is2xx) problems.push(`success is ${env.success} on HTTP ${status}`);
  if (is2xx && !isSuccessCode(env.code)) problems.push(`code is ${JSON.stringify(env.code)} on a success, not 0`);
  const schema = schemaProblem(op, status, body);
  if (schema) problems.push(schema);
  return problems;
}
