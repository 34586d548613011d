// Signed calls for `custody request` and `custody trigger` to a target (cli/target.ts resolves it): how
// an operation of the generated table becomes a request, how it is signed (runtime/http/hmac.ts) and
// how it is shown as curl.
import { randomUUID } from "node:crypto";
import { operationList } from "../generated/operations.ts";
import type { ApiTarget } from "../lib/target.ts";
import { computeSignature, HMAC_HEADERS, unixSeconds } from "../runtime/http/hmac.ts";
import { readKeys } from "../runtime/server/validate.ts";
import { UsageError } from "./usage-error.ts";

export interface CallInput {
  params?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** Raw JSON text, sent and signed as it is. */
  body?: string;
}

export interface PreparedRequest {
  method: string;
  /** Path and query, as sent. */
  target: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export type Operation = (typeof operationList)[number];

/** The operation of the generated table named `id`; an unknown name gets the closest names suggested. */
export function findOperation(id: string): Operation {
  const op = operationList.find((o) => o.operationId === id);
  if (op) return op;
  const lower = id.toLowerCase();
  const near = operationList
    .filter((o) => o.operationId.toLowerCase().includes(lower) || lower.includes(o.operationId.toLowerCase()))
    .map((o) => o.operationId);
  const hint =
    near.length > 0
      ? `did you mean ${near.join(", ")}?`
      : `operations: ${operationList.map((o) => o.operationId).join(", ")}`;
  throw new UsageError(`unknown operation '${id}'; ${hint}`);
}

/** The path template filled with `params` (workspace_id defaults to the credentials' workspace). */
export function fillPath(op: Operation, params: Record<string, string>, workspaceId: string | undefined): string {
  const missing: string[] = [];
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name] ?? (name === "workspace_id" ? workspaceId : undefined);
    if (value === undefined) {
      missing.push(name);
      return "";
    }
    return encodeURIComponent(value);
  });
  if (missing.length > 0)
    throw new UsageError(
      `${op.operationId} (${op.method} ${op.path}) needs ${missing.map((m) => `--param ${m}=…`).join(" ")}`,
    );
  return path;
}

/** Operations whose headers declare an idempotency key get a fresh one unless one is given. */
function idempotencyHeader(op: Operation | undefined, given: Record<string, string>): Record<string, string> {
  if (op === undefined) return {};
  const names = readKeys(op.headersSchema) ?? [];
  const wanted = names.find((n) => n.toLowerCase() === "idempotency-key" || n === "idempotencyKey");
  if (wanted === undefined || Object.keys(given).some((k) => k.toLowerCase() === wanted.toLowerCase())) return {};
  return { [wanted === "idempotencyKey" ? "idempotencyKey" : "Idempotency-Key"]: randomUUID() };
}

export function prepareRequest(
  target: ApiTarget,
  method: string,
  path: string,
  input: CallInput,
  op?: Operation,
  nowSeconds = unixSeconds(),
): PreparedRequest {
  const search = new URLSearchParams(input.query ?? {}).toString();
  const pathAndQuery = search ? `${path}?${search}` : path;
  const timestamp = String(nowSeconds);
  const signature = computeSignature(target.admin.apiSecret, { method, path, timestamp, body: input.body ?? "" });
  const headers: Record<string, string> = {
    [HMAC_HEADERS.key]: target.admin.apiKey,
    [HMAC_HEADERS.timestamp]: timestamp,
    [HMAC_HEADERS.signature]: signature,
    ...(input.body !== undefined ? { "content-type": "application/json" } : {}),
    ...idempotencyHeader(op, input.headers ?? {}),
    ...input.headers,
  };
  return {
    method,
    target: pathAndQuery,
    url: target.baseUrl + pathAndQuery,
    headers,
    ...(input.body !== undefined ? { body: input.body } : {}),
  };
}

function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The request as one curl command line (valid while the timestamp is within the server's window). */
export function curlLine(req: PreparedRequest): string {
  const parts = ["curl", "-sS", "-X", req.method, shellQuote(req.url)];
  for (const [name, value] of Object.entries(req.headers)) parts.push("-H", shellQuote(`${name}: ${value}`));
  if (req.body !== undefined) parts.push("--data-raw", shellQuote(req.body));
  return parts.join(" ");
}

export interface CallResult {
  status: number;
  statusText: string;
  requestId: string | null;
  text: string;
  json?: unknown;
}

export async function send(req: PreparedRequest, timeoutMs = 30_000): Promise<CallResult> {
  let res: Response;
  try {
    res = await fetch(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(`${req.method} ${req.url} failed: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    status: res.status,
    statusText: res.statusText,
    requestId: res.headers.get("x-request-id"),
    text,
    ...(json !== undefined ? { json } : {}),
  };
}

export class CallFailed extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The adapter's call(): one operation by id, the envelope's data back, a CallFailed otherwise. */
export function operationCaller(target: ApiTarget) {
  return async (
    operationId: string,
    input: {
      params?: Record<string, string>;
      query?: Record<string, string>;
      headers?: Record<string, string>;
      body?: unknown;
    },
  ) => {
    const op = findOperation(operationId);
    const path = fillPath(op, input.params ?? {}, target.workspaceId);
    const body = input.body === undefined ? undefined : JSON.stringify(input.body);
    const result = await send(
      prepareRequest(target, op.method, path, { query: input.query, headers: input.headers, body }, op),
    );
    const envelope = result.json as { success?: boolean; message?: string; data?: unknown } | undefined;
    if (result.status >= 200 && result.status < 300 && envelope?.success !== false) return envelope?.data;
    throw new CallFailed(
      result.status,
      `${operationId}: HTTP ${result.status}: ${envelope?.message ?? result.text.slice(0, 200)}`,
    );
  };
}

/** POST to a sandbox action (/_sandbox/…), signed like the API. */
export async function sandboxAction(target: ApiTarget, name: string, body: Record<string, unknown>): Promise<unknown> {
  const text = JSON.stringify(body);
  const result = await send(prepareRequest(target, "POST", `/_sandbox/${name}`, { body: text }));
  const envelope = result.json as { success?: boolean; message?: string; data?: unknown } | undefined;
  if (result.status === 200 && envelope?.success) return envelope.data;
  throw new CallFailed(
    result.status,
    `sandbox ${name}: HTTP ${result.status}: ${envelope?.message ?? result.text.slice(0, 200)}`,
  );
}
