// Signed calls for `custody request` and `custody trigger`: where the credentials come from (flags,
// then CUSTODY_* environment variables, then the running sandbox's file), how an operation of the
// generated table becomes a request, how it is signed (runtime/http/hmac.ts) and how it is shown as curl.
import { randomUUID } from "node:crypto";
import { operationList } from "../generated/operations.ts";
import { walletApiBaseUrl } from "../runtime/http/base-url.ts";
import { computeSignature, HMAC_HEADERS, unixSeconds } from "../runtime/http/hmac.ts";
import { readKeys } from "../runtime/server/validate.ts";
import { readSandboxFile, sandboxFilePath, type SandboxFile } from "./sandbox-file.ts";
import { UsageError } from "./usage-error.ts";
import { CREDENTIAL_OPTIONS } from "./commands/signed-call.ts";

export interface Credentials {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  workspaceId?: string;
  /** Where they came from, for messages. */
  source: string;
  sandbox?: SandboxFile;
}

export interface CredentialFlags {
  baseUrl?: string;
  apiKey?: string;
  apiSecret?: string;
  workspaceId?: string;
}

export function credentialFlagsOf(values: { [K in keyof typeof CREDENTIAL_OPTIONS]?: string }): CredentialFlags {
  const out: CredentialFlags = {};
  if (values["base-url"] !== undefined) out.baseUrl = values["base-url"];
  if (values["api-key"] !== undefined) out.apiKey = values["api-key"];
  if (values["api-secret"] !== undefined) out.apiSecret = values["api-secret"];
  if (values["workspace-id"] !== undefined) out.workspaceId = values["workspace-id"];
  return out;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The running sandbox's file, or undefined; a file left by a sandbox that is gone is ignored with a note. */
export function runningSandbox(env: NodeJS.ProcessEnv = process.env): SandboxFile | undefined {
  const file = sandboxFilePath(env);
  const found = readSandboxFile(file);
  if (found !== undefined && !pidAlive(found.pid)) throw new UsageError(`${file} was written by a sandbox that is no longer running (pid ${found.pid}); start \`custody sandbox\` again`);
  return found;
}

/** The environment variable of each credential flag, as declared. */
const ENV = Object.fromEntries(Object.entries(CREDENTIAL_OPTIONS).map(([flag, o]) => [flag, o.env])) as Record<keyof typeof CREDENTIAL_OPTIONS, string>;

export function resolveCredentials(flags: CredentialFlags, env: NodeJS.ProcessEnv = process.env): Credentials {
  const fromFlagsOrEnv = {
    baseUrl: flags.baseUrl ?? env[ENV["base-url"]],
    apiKey: flags.apiKey ?? env[ENV["api-key"]],
    apiSecret: flags.apiSecret ?? env[ENV["api-secret"]],
    workspaceId: flags.workspaceId ?? env[ENV["workspace-id"]],
  };
  const complete = fromFlagsOrEnv.baseUrl && fromFlagsOrEnv.apiKey && fromFlagsOrEnv.apiSecret;
  const sandbox = complete ? undefined : runningSandbox(env);
  const baseUrl = fromFlagsOrEnv.baseUrl ?? sandbox?.base_url;
  const apiKey = fromFlagsOrEnv.apiKey ?? sandbox?.api_key;
  const apiSecret = fromFlagsOrEnv.apiSecret ?? sandbox?.api_secret;
  if (!baseUrl || !apiKey || !apiSecret) {
    const missing = ([[baseUrl, "base-url"], [apiKey, "api-key"], [apiSecret, "api-secret"]] as const)
      .filter(([value]) => !value)
      .map(([, flag]) => `--${flag} (${ENV[flag]})`)
      .join(", ");
    throw new UsageError(`no credentials: start \`custody sandbox\` (it writes ${sandboxFilePath(env)}) or give ${missing}`);
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(`--base-url is not a URL: "${baseUrl}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`--base-url must be http:// or https://, not ${url.protocol}`);
  return {
    baseUrl: walletApiBaseUrl(baseUrl),
    apiKey,
    apiSecret,
    workspaceId: fromFlagsOrEnv.workspaceId ?? sandbox?.workspace_id,
    source: sandbox ? sandboxFilePath(env) : "flags/environment",
    ...(sandbox ? { sandbox } : {}),
  };
}

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
  const near = operationList.filter((o) => o.operationId.toLowerCase().includes(lower) || lower.includes(o.operationId.toLowerCase())).map((o) => o.operationId);
  const hint = near.length > 0 ? `did you mean ${near.join(", ")}?` : `operations: ${operationList.map((o) => o.operationId).join(", ")}`;
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
  if (missing.length > 0) throw new UsageError(`${op.operationId} (${op.method} ${op.path}) needs ${missing.map((m) => `--param ${m}=…`).join(" ")}`);
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

export function prepareRequest(creds: Credentials, method: string, path: string, input: CallInput, op?: Operation, nowSeconds = unixSeconds()): PreparedRequest {
  const search = new URLSearchParams(input.query ?? {}).toString();
  const target = search ? `${path}?${search}` : path;
  const timestamp = String(nowSeconds);
  const signature = computeSignature(creds.apiSecret, { method, path, timestamp, body: input.body ?? "" });
  const headers: Record<string, string> = {
    [HMAC_HEADERS.key]: creds.apiKey,
    [HMAC_HEADERS.timestamp]: timestamp,
    [HMAC_HEADERS.signature]: signature,
    ...(input.body !== undefined ? { "content-type": "application/json" } : {}),
    ...idempotencyHeader(op, input.headers ?? {}),
    ...input.headers,
  };
  return { method, target, url: creds.baseUrl + target, headers, ...(input.body !== undefined ? { body: input.body } : {}) };
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
    res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body, redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
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
  return { status: res.status, statusText: res.statusText, requestId: res.headers.get("x-request-id"), text, ...(json !== undefined ? { json } : {}) };
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
export function operationCaller(creds: Credentials) {
  return async (operationId: string, input: { params?: Record<string, string>; query?: Record<string, string>; headers?: Record<string, string>; body?: unknown }) => {
    const op = findOperation(operationId);
    const path = fillPath(op, input.params ?? {}, creds.workspaceId);
    const body = input.body === undefined ? undefined : JSON.stringify(input.body);
    const result = await send(prepareRequest(creds, op.method, path, { query: input.query, headers: input.headers, body }, op));
    const envelope = result.json as { success?: boolean; message?: string; data?: unknown } | undefined;
    if (result.status >= 200 && result.status < 300 && envelope?.success !== false) return envelope?.data;
    throw new CallFailed(result.status, `${operationId}: HTTP ${result.status}: ${envelope?.message ?? result.text.slice(0, 200)}`);
  };
}

/** POST to a sandbox action (/_sandbox/…), signed like the API. */
export async function sandboxAction(creds: Credentials, name: string, body: Record<string, unknown>): Promise<unknown> {
  const text = JSON.stringify(body);
  const result = await send(prepareRequest(creds, "POST", `/_sandbox/${name}`, { body: text }));
  const envelope = result.json as { success?: boolean; message?: string; data?: unknown } | undefined;
  if (result.status === 200 && envelope?.success) return envelope.data;
  throw new CallFailed(result.status, `sandbox ${name}: HTTP ${result.status}: ${envelope?.message ?? result.text.slice(0, 200)}`);
}
