// The preflight: a few requests before the suite that classify the target, so that a wrong setting
// stops the run with one or two lines naming it (exit 2) instead of a hundred failing checks.
// Each step uses only what the seed fixes: operation 1's path and envelope (2.1, 4), the 401 of
// section 5, {rpc_url}/rpc with the api_key query parameter and the WebSocket address (4.1).
import { HMAC_WINDOW_SECONDS } from "../../runtime/http/hmac.ts";
import { ApiClient, authHeaders, placeholderId } from "../transport/api.ts";
import type { HttpProbe, HttpResponse, TransportFailureKind } from "../transport/probe.ts";
import type { Redactor } from "../transport/redact.ts";
import { RpcClient } from "../transport/rpc.ts";
import { tryOpenWs } from "../transport/ws-probe.ts";
import type { Target } from "./config.ts";

export type PreflightClass =
  | "unreachable"
  | "not-the-service"
  | "credentials-refused"
  | "workspace-refused"
  | "rpc-key-refused"
  | "websocket-refused";

export interface PreflightStep {
  step: "wallet-api" | "credentials" | "workspace" | "node-access-http" | "node-access-ws";
  ok: boolean;
  detail: string;
}

export interface PreflightFailure {
  class: PreflightClass;
  /** One or two lines naming the setting to check. */
  lines: string[];
}

export interface PreflightResult {
  steps: PreflightStep[];
  failure?: PreflightFailure;
}

export interface PreflightInput {
  target: Target;
  http: HttpProbe;
  redactor: Redactor;
  timeoutMs: number;
  /** Node access is probed only when rpc checks are selected. */
  nodeAccess: boolean;
  now?: () => number;
}

export async function preflight(input: PreflightInput): Promise<PreflightResult> {
  const steps: PreflightStep[] = [];
  const { target, http, timeoutMs } = input;

  // 1. The wallet API answers operation 1 (seed 4) with the envelope (seed 2.1), signed with the admin key.
  const api = new ApiClient(http, target.baseUrl);
  const path = `/api/v1/wallets/${encodeURIComponent(target.fixtureIds.walletId ?? placeholderId("wallet_id"))}/overview`;
  const signed = await http.attempt({
    method: "GET",
    url: api.url(path),
    headers: authHeaders(target.admin, "GET", path, ""),
    timeoutMs,
  });
  // An answer over certify's body limit came from something that answers with data (a 401 is small):
  // the limit is certify's, so the run goes on and the checks that meet it say so.
  if (!signed.ok && signed.kind === "too-large" && signed.evidence.response?.status !== 401) {
    steps.push({
      step: "wallet-api",
      ok: true,
      detail: `HTTP ${signed.evidence.response?.status ?? "?"} with a body over certify's limit (--max-body-mib), not examined`,
    });
    return input.nodeAccess ? { steps, ...(await nodeAccessSteps(input, steps)) } : { steps };
  }
  if (!signed.ok) return walletApiFailed(input, steps, signed.kind, signed.reason);
  const res = signed.exchange.response;
  const envelope = envelopeOf(res.text);
  if (!envelope) return withoutEnvelope(input, steps, res, path);
  steps.push({ step: "wallet-api", ok: true, detail: `HTTP ${res.status} with the envelope` });

  // 2. The admin credentials are accepted (seed 5 rule 1: a refusal is a 401).
  if (res.status === 401) return credentialsRefused(input, steps, res, envelope);
  steps.push({ step: "credentials", ok: true, detail: `accepted (HTTP ${res.status})` });

  // 3. The workspace given is the key's: operation 8 (seed 4) is a read of it that every role may make.
  if (target.workspaceId !== undefined) {
    const refused = await workspaceStep(input, steps, api, target.workspaceId);
    if (refused !== undefined) return refused;
  }
  if (!input.nodeAccess) return { steps };
  return { steps, ...(await nodeAccessSteps(input, steps)) };
}

/** The result that stops the run: the steps so far and the failure, its lines redacted. */
function stopWith(
  input: PreflightInput,
  steps: PreflightStep[],
  cls: PreflightClass,
  ...lines: string[]
): PreflightResult {
  return { steps, failure: { class: cls, lines: lines.map((l) => input.redactor.text(l)) } };
}

/** Step 1 failed at the transport: unreachable, or something that is not the wallet API. */
function walletApiFailed(
  input: PreflightInput,
  steps: PreflightStep[],
  kind: TransportFailureKind,
  reason: string,
): PreflightResult {
  const { target } = input;
  if (kind === "unreachable" || kind === "timeout" || kind === "reset") {
    steps.push({ step: "wallet-api", ok: false, detail: reason });
    return stopWith(
      input,
      steps,
      "unreachable",
      `target unreachable: ${target.baseUrl}: ${reason}`,
      "check --base-url (and --timeout-ms for a slow target)",
    );
  }
  steps.push({ step: "wallet-api", ok: false, detail: reason });
  return stopWith(
    input,
    steps,
    "not-the-service",
    `${target.baseUrl} is not the wallet API: ${reason}`,
    "check --base-url",
  );
}

/** Step 1 answered, but not with the service's envelope. */
function withoutEnvelope(
  input: PreflightInput,
  steps: PreflightStep[],
  res: HttpResponse,
  path: string,
): PreflightResult {
  const type = res.headers["content-type"] ?? "no content-type";
  steps.push({ step: "wallet-api", ok: false, detail: `HTTP ${res.status} ${type} without the envelope` });
  return stopWith(
    input,
    steps,
    "not-the-service",
    `${input.target.baseUrl} answers (HTTP ${res.status}, ${type}) but not with the service's JSON envelope (success, message, code, data) on GET ${path}`,
    "check --base-url: it is the wallet API base, to which /api/v1/... is appended",
  );
}

/** Step 2 failed: the credentials were refused (a 401), with the clock named when it is too far off. */
function credentialsRefused(
  input: PreflightInput,
  steps: PreflightStep[],
  res: HttpResponse,
  envelope: { message: unknown },
): PreflightResult {
  const now = input.now ?? Date.now;
  const lines = [
    `the deployment refused the credentials (HTTP 401, message ${JSON.stringify(envelope.message)}): check --api-key and --api-secret`,
  ];
  const serverDate = Date.parse(res.headers.date ?? "");
  if (Number.isFinite(serverDate)) {
    const skew = Math.round((now() - serverDate) / 1000);
    if (Math.abs(skew) > HMAC_WINDOW_SECONDS) {
      lines.push(
        `and the clock: the server's Date is ${new Date(serverDate).toISOString()}, ours is ${new Date(now()).toISOString()} (${Math.abs(skew)} s apart; ACCESS-TIMESTAMP is checked against a window)`,
      );
    }
  }
  steps.push({ step: "credentials", ok: false, detail: "HTTP 401" });
  return stopWith(input, steps, "credentials-refused", ...lines);
}

/** Step 3: operation 8 on the workspace given; the result that stops the run if it is refused. */
async function workspaceStep(
  input: PreflightInput,
  steps: PreflightStep[],
  api: ApiClient,
  workspaceId: string,
): Promise<PreflightResult | undefined> {
  const { target, http, timeoutMs } = input;
  const keyPath = `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/webhook-verification-key`;
  const read = await http.attempt({
    method: "GET",
    url: api.url(keyPath),
    headers: authHeaders(target.admin, "GET", keyPath, ""),
    timeoutMs,
  });
  const status = read.ok ? read.exchange.response.status : undefined;
  if (status === 403 || status === 404) {
    steps.push({ step: "workspace", ok: false, detail: `HTTP ${status} on operation 8` });
    return stopWith(
      input,
      steps,
      "workspace-refused",
      `the deployment refused workspace ${workspaceId} to this key (HTTP ${status} on GET ${keyPath}, operation 8): check --workspace-id (the workspace of --api-key)`,
      "if it is right, operation 8 refuses this key its own workspace's verification key",
    );
  }
  steps.push({
    step: "workspace",
    ok: true,
    detail: status === undefined ? "not answered (the checks will say)" : `HTTP ${status} on operation 8`,
  });
  return undefined;
}

/** Steps 3 and 4: node access over HTTP and WebSocket; the failure that stops the run, if any. */
async function nodeAccessSteps(input: PreflightInput, steps: PreflightStep[]): Promise<{ failure?: PreflightFailure }> {
  const stop = (cls: PreflightClass, ...lines: string[]) => ({
    failure: { class: cls, lines: lines.map((l) => input.redactor.text(l)) },
  });
  const { target, http, timeoutMs } = input;

  // 3. Node access over HTTP with the key in the api_key query parameter (seed 4.1, 5).
  const rpc = new RpcClient(
    { rpcUrl: target.rpcUrl, wsUrl: target.wsUrl, apiKey: target.rpcApiKey },
    http,
    input.redactor,
    timeoutMs,
  );
  const url = rpc.httpUrl("query");
  const call = await http.attempt({
    method: "POST",
    url,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
    timeoutMs,
  });
  if (!call.ok && call.kind === "too-large") {
    // Certify's limit, not the node's failure: the rpc checks that meet it are skipped, naming the flag.
    steps.push({
      step: "node-access-http",
      ok: true,
      detail: "answered with a body over certify's limit (--max-body-mib), not examined",
    });
  } else if (!call.ok) {
    steps.push({ step: "node-access-http", ok: false, detail: call.reason });
    return stop(
      "unreachable",
      `node access unreachable: ${target.rpcUrl}/rpc: ${call.reason}`,
      "check --rpc-url (JSON-RPC is POSTed to {rpc_url}/rpc)",
    );
  }
  if (call.ok) {
    const rpcRes = call.exchange.response;
    if (rpcRes.status === 401 || rpcRes.status === 403) {
      steps.push({ step: "node-access-http", ok: false, detail: `HTTP ${rpcRes.status}` });
      return stop(
        "rpc-key-refused",
        `the node access refused the key (HTTP ${rpcRes.status} on POST ${target.rpcUrl}/rpc): check --rpc-api-key`,
      );
    }
    if (!isJsonRpc(rpcRes.text)) {
      steps.push({ step: "node-access-http", ok: false, detail: `HTTP ${rpcRes.status} without a JSON-RPC answer` });
      return stop(
        "not-the-service",
        `${target.rpcUrl}/rpc answers (HTTP ${rpcRes.status}) but not with JSON-RPC 2.0`,
        "check --rpc-url",
      );
    }
    steps.push({ step: "node-access-http", ok: true, detail: `HTTP ${rpcRes.status} JSON-RPC` });
  }

  // 4. The WebSocket opens with the key in the api_key query parameter (seed 4.1, 5).
  const ws = await tryOpenWs({ url: rpc.wsUrl("query"), timeoutMs, redactor: input.redactor });
  if (!ws.ok) {
    steps.push({ step: "node-access-ws", ok: false, detail: ws.reason });
    // HTTP accepted this very key: a WebSocket that refuses it breaks seed 5, which the rpc checks report.
    if (ws.status === 401 || ws.status === 403) return {};
    return stop(
      "websocket-refused",
      `WebSocket refused: ${input.redactor.url(target.wsUrl)}: ${ws.reason}`,
      "check --ws-url (the seed's address is wss://{rpc_host}/ws)",
    );
  }
  ws.connection.close();
  steps.push({ step: "node-access-ws", ok: true, detail: "opened" });
  return {};
}

/** The seed's envelope (2.1): an object with a boolean success and the other three fields present. */
function envelopeOf(text: string): { message: unknown } | undefined {
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
    if (typeof value.success !== "boolean" || !("message" in value) || !("code" in value)) return undefined;
    return { message: value.message };
  } catch {
    return undefined;
  }
}

function isJsonRpc(text: string): boolean {
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    // Any JSON-RPC-like answer will do here; its exact shape is for the rpc checks to judge.
    return !!value && typeof value === "object" && ("result" in value || "error" in value);
  } catch {
    return false;
  }
}
