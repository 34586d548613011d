// The sandbox behind a fault proxy, for the deep checks (authorization matrix, fuzz): one call
// starts both and runs a catalog against them.

import { afterAll, beforeAll } from "vitest";
import type { Check } from "../../conformance/checks/check.ts";
import type { Group } from "../../conformance/checks/types.ts";
import type { Report } from "../../conformance/report/model.ts";
import type { Target } from "../../conformance/run/config.ts";
import { loadGeneratedOperations, type OperationInfo } from "../../conformance/run/operations.ts";
import { runSuite } from "../../conformance/run/runner.ts";
import type { RecordedExchange } from "../../conformance/transport/probe.ts";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../reference/sandbox.ts";
import { signRequest } from "../../runtime/http/hmac.ts";
import { type ProxiedRequest, type ProxyHooks, startFaultProxy } from "./fake-proxy.ts";
import { freePort } from "./free-port.ts";

export interface Admin {
  apiKey: string;
  apiSecret: string;
}

export interface DeepRun {
  report: Report;
  /** Requests that went through the proxy, in order. */
  seen: ProxiedRequest[];
  workspaceId: string;
  target: Target;
  /** The sandbox itself, behind no proxy. */
  sandboxUrl: string;
}

export async function runBehindProxy(opts: {
  /** Faults in front of the wallet API; `sandboxUrl` reaches the sandbox behind no proxy. */
  hooks?: (admin: Admin, sandboxUrl: string) => ProxyHooks;
  /** In front of node access over HTTP (the WebSocket stays direct unless wsUrl is given). */
  rpc?: ProxyHooks;
  wsUrl?: string;
  /** In front of the runner's webhook receiver (between the deployment and the runner). */
  deliveries?: ProxyHooks;
  catalog: (operations: OperationInfo[]) => Check[];
  /** Options of the sandbox behind the proxy (started for this run alone). */
  sandbox?: SandboxOptions;
  /** A sandbox already running (sharedSandbox) to put the proxies in front of, instead of a fresh one; left running. */
  running?: Sandbox;
  only?: Group[];
  timeoutMs?: number;
  onExchange?: (e: RecordedExchange) => void;
  /** Runs before the sandbox and the proxies close (to replay against them). */
  then?: (run: DeepRun) => Promise<void>;
}): Promise<DeepRun> {
  const sandbox = opts.running ?? (await startSandbox(opts.sandbox ?? {}));
  const admin = { apiKey: sandbox.api_key, apiSecret: sandbox.api_secret };
  const seen: ProxiedRequest[] = [];
  const hooks = opts.hooks?.(admin, sandbox.base_url) ?? {};
  const proxy = await startFaultProxy(sandbox.base_url, {
    request: (r) => {
      seen.push(r);
      return hooks.request ? hooks.request(r) : r;
    },
    ...(hooks.response ? { response: hooks.response } : {}),
  });
  let receiverProxy: Awaited<ReturnType<typeof startFaultProxy>> | undefined;
  let rpcProxy: Awaited<ReturnType<typeof startFaultProxy>> | undefined;
  try {
    const target: Target = {
      baseUrl: proxy.url,
      rpcUrl: sandbox.rpc_url,
      wsUrl: sandbox.ws_url,
      admin,
      rpcApiKey: sandbox.rpc_api_key,
      workspaceId: sandbox.workspace_id,
      faucetPrivateKey: sandbox.faucet_private_key,
      fixtureIds: {},
    };
    if (opts.rpc) {
      rpcProxy = await startFaultProxy(sandbox.rpc_url, opts.rpc);
      target.rpcUrl = rpcProxy.url;
      target.wsUrl = sandbox.ws_url;
    }
    if (opts.wsUrl) target.wsUrl = opts.wsUrl;
    if (opts.deliveries) {
      const port = await freePort();
      receiverProxy = await startFaultProxy(`http://127.0.0.1:${port}`, opts.deliveries);
      target.webhookReceiverUrl = receiverProxy.url;
      target.webhookListenPort = port;
    }
    const operations = await loadGeneratedOperations();
    const result = await runSuite({
      target,
      options: {
        level: "full",
        timeoutMs: opts.timeoutMs ?? 20_000,
        concurrency: 4,
        ...(opts.only ? { only: opts.only } : {}),
      },
      operations,
      catalog: opts.catalog(operations),
      ...(opts.onExchange ? { onExchange: opts.onExchange } : {}),
    });
    if (result.kind !== "completed") throw new Error(JSON.stringify(result));
    const run: DeepRun = {
      report: result.report,
      seen,
      workspaceId: sandbox.workspace_id,
      target,
      sandboxUrl: sandbox.base_url,
    };
    await opts.then?.(run);
    return run;
  } finally {
    await receiverProxy?.close();
    await rpcProxy?.close();
    await proxy.close();
    if (!opts.running) await sandbox.close();
  }
}

/**
 * One sandbox for the tests of the enclosing describe block (started before them, closed after them):
 * each run puts its own proxies, with its own fault, in front of it, and certify removes what each run
 * created, so a run sees the deployment with exactly its fault.
 */
export function sharedSandbox(options: SandboxOptions = {}): () => Sandbox {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox(options);
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  return () => {
    if (!sandbox) throw new Error("sharedSandbox: used outside the tests of its describe block");
    return sandbox;
  };
}

/** Re-signs a request with the admin key, as a deployment that ignores the caller's role would act. */
export function asAdmin(admin: Admin, r: ProxiedRequest): ProxiedRequest {
  const headers: Record<string, string> = { ...r.headers };
  for (const [name, value] of Object.entries(
    signRequest({ ...admin, method: r.method, path: r.path.split("?")[0], body: r.body }),
  ))
    headers[name.toLowerCase()] = value;
  return { ...r, headers };
}

/** The key id a request was signed with. */
export function keyOf(r: ProxiedRequest): string | undefined {
  return r.headers["access-api-key"];
}

export function envelope(
  status: number,
  data: unknown,
): { status: number; headers: Record<string, string>; body: string } {
  const ok = status < 300;
  return {
    status,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      success: ok,
      message: ok ? "success" : "error",
      code: ok ? 0 : status,
      data: ok ? data : null,
    }),
  };
}
