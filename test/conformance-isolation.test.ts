// Tenant isolation against the reference deployment and a second workspace's key: its real records
// are refused to the other key whether the deployment answers 404 (its choice) or 403 (a proxy turns
// the refusals into 403s), and a proxy that serves the other key the first workspace's records (reads,
// writes or lists) fails the check for that rule. The fake target covers the same at --level full and
// the seed-only target at --level seed (their tests).
import { describe, expect, it } from "vitest";
import type { Report } from "../conformance/report/model.ts";
import { loadGeneratedOperations } from "../conformance/run/operations.ts";
import { runSuite } from "../conformance/run/runner.ts";
import { type Sandbox, startSandbox } from "../reference/sandbox.ts";
import { signRequest } from "../runtime/http/hmac.ts";
import { type ProxiedRequest, type ProxyHooks, startFaultProxy } from "./support/fake-proxy.ts";
import { sandboxTarget } from "./support/sandbox-target.ts";

type Hooks = (s: Sandbox) => ProxyHooks;

/** The request re-signed with the first workspace's key (and its workspace in the path): a gateway that maps tenants wrongly. */
function asFirstWorkspace(s: Sandbox, r: ProxiedRequest): ProxiedRequest {
  const path = r.path.replaceAll(s.other_workspace_id, s.workspace_id);
  const signed = signRequest({ apiKey: s.api_key, apiSecret: s.api_secret, method: r.method, path, body: r.body });
  return {
    ...r,
    path,
    headers: { ...r.headers, ...Object.fromEntries(Object.entries(signed).map(([k, v]) => [k.toLowerCase(), v])) },
  };
}

const byOther = (s: Sandbox, r: ProxiedRequest) => r.headers["access-api-key"] === s.other_api_key;
const ownPath = (s: Sandbox, r: ProxiedRequest) => r.path.includes(s.other_workspace_id);

const SCENARIOS: Array<{ name: string; hooks?: Hooks; failed: string[] }> = [
  { name: "refusals are 404 (the sandbox's own answers)", failed: [] },
  {
    name: "refusals are 403 (a proxy rewrites them)",
    hooks: (s) => ({
      response: (req, res) =>
        byOther(s, req) && res.status === 404
          ? {
              ...res,
              status: 403,
              body: JSON.stringify({ success: false, message: "forbidden", code: 403, data: null }),
            }
          : res,
    }),
    failed: [],
  },
  // The read the other key makes of its API key's own wallet (no workspace in its path) is served as the first's too.
  {
    name: "reads of the first workspace are served to the other key",
    hooks: (s) => ({
      request: (r) => (byOther(s, r) && r.method === "GET" && !ownPath(s, r) ? asFirstWorkspace(s, r) : r),
    }),
    failed: ["isolation.reads-refused", "isolation.lists-exclude-other"],
  },
  {
    name: "writes to the first workspace are served to the other key",
    hooks: (s) => ({ request: (r) => (byOther(s, r) && r.method !== "GET" ? asFirstWorkspace(s, r) : r) }),
    failed: ["isolation.writes-refused"],
  },
  {
    name: "the other workspace's lists show the first one's records",
    hooks: (s) => ({
      request: (r) =>
        byOther(s, r) && r.method === "GET" && ownPath(s, r) && !r.path.includes("verification-key")
          ? asFirstWorkspace(s, r)
          : r,
    }),
    failed: ["isolation.lists-exclude-other"],
  },
];

describe.concurrent("tenant isolation against the reference deployment", () => {
  it.each(SCENARIOS)("$name", async ({ hooks, failed }) => {
    const report = await certifyIsolation(hooks);
    const notPassed = report.checks.filter((c) => c.status !== "passed").map((c) => c.id);
    expect(notPassed, report.checks.map((c) => `${c.id}: ${c.status} ${c.message ?? ""}`).join("\n")).toEqual(failed);
    for (const id of failed) expect(report.checks.find((c) => c.id === id)?.message).toMatch(/answered|shows|yet/);
  });
});

async function certifyIsolation(hooks?: Hooks): Promise<Report> {
  const sandbox = await startSandbox({ blockTimeSeconds: 0.25, env: {} });
  const proxy = hooks ? await startFaultProxy(sandbox.base_url, hooks(sandbox)) : undefined;
  try {
    const target = sandboxTarget(sandbox, proxy?.url);
    const result = await runSuite({
      target,
      options: { level: "full", timeoutMs: 10_000, concurrency: 8, only: ["isolation"] },
      operations: await loadGeneratedOperations(),
    });
    if (result.kind !== "completed") throw new Error(result.failure.lines.join(" "));
    return result.report;
  } finally {
    await proxy?.close();
    await sandbox.close();
  }
}
