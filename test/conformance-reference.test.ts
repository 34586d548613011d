// The conformance suite against the reference deployment: the clean sandbox certifies through the
// real command (`custody certify --sandbox`, generated operation table), and faults injected by a
// rewriting proxy are caught by the chain-driven lifecycle checks the fake target cannot drive.
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "../cli/certify.ts";
import { CATALOG } from "../conformance/checks/catalog.ts";
import type { Report } from "../conformance/report/model.ts";
import { loadGeneratedOperations } from "../conformance/run/operations.ts";
import { runSuite } from "../conformance/run/runner.ts";
import { startSandbox } from "../reference/sandbox.ts";
import { signRequest } from "../runtime/http/hmac.ts";
import { type ProxyHooks, rewriteData, startFaultProxy } from "./support/fake-proxy.ts";
import { freePort } from "./support/free-port.ts";
import { sandboxTarget } from "./support/sandbox-target.ts";

const dir = mkdtempSync(join(tmpdir(), "custody-reference-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the reference deployment", () => {
  it("certifies with `custody certify --sandbox`: every check passes, none skipped", async () => {
    const file = join(dir, "sandbox.json");
    let out = "";
    const code = await run(["--sandbox", "--json", file, "--no-color"], {
      stdout: (s) => (out += s),
      stderr: (s) => (out += s),
    });
    const report = JSON.parse(readFileSync(file, "utf8")) as Report;
    const notPassed = report.checks
      .filter((c) => c.status !== "passed")
      .map((c) => `${c.id} ${c.status}: ${c.message}`);
    expect(notPassed).toEqual([]);
    expect(code).toBe(0);
    expect(report.summary.webhook_profile).toBe("canonical-json");
  });
});

interface ProxyFault {
  name: string;
  check: string;
  /** In front of the wallet API (given the admin credentials, to re-sign what it rewrites). */
  api?: ProxyHooks | ((admin: { apiKey: string; apiSecret: string }) => ProxyHooks);
  /** In front of the runner's webhook receiver (between the deployment and the runner). */
  deliveries?: ProxyHooks;
}

const isBalanceRead = (r: { method: string; path: string }) => r.method === "GET" && /\/balance\//.test(r.path);

const FAULTS: ProxyFault[] = [
  {
    name: "balances show a deposit before its confirmations",
    check: "lifecycle.deposit-confirmation",
    api: { response: rewriteData(isBalanceRead, (d) => (d.balance = d.balance === "0" ? "0.01" : d.balance)) },
  },
  {
    name: "deposit.pending is never delivered",
    check: "lifecycle.deposit-detected",
    deliveries: { request: (r) => (r.body.includes('"deposit.pending"') ? null : r) },
  },
  {
    name: "balances drift from the chain",
    check: "lifecycle.balance-matches-chain",
    api: {
      response: rewriteData(isBalanceRead, (d) => (d.balance = d.balance === "0" ? "0" : `${String(d.balance)}1`)),
    },
  },
  {
    name: "the Idempotency-Key is lost on the way",
    check: "lifecycle.withdrawal-idempotency",
    api: {
      request: (r) =>
        r.headers["idempotency-key"] ? { ...r, headers: { ...r.headers, "idempotency-key": randomUUID() } } : r,
    },
  },
  {
    name: "a withdrawal reports the wrong block hash",
    check: "lifecycle.withdrawal-receipt",
    api: {
      response: rewriteData(
        (r) => r.method === "GET" && /^\/api\/v1\/withdrawals\//.test(r.path),
        (d) => d.block_hash && (d.block_hash = `0x${"00".repeat(32)}`),
      ),
    },
  },
  {
    name: "a withdrawal is sent somewhere else",
    check: "lifecycle.wallet-to-wallet",
    // A man in the middle holding the key: rewrites the recipient and signs the request again.
    api: (admin) => ({
      request: (r) => {
        if (r.method !== "POST" || !/\/request-withdrawal$/.test(r.path)) return r;
        const body = r.body.replace(
          /"recipient_address":"0x[0-9a-fA-F]{40}"/,
          '"recipient_address":"0x000000000000000000000000000000000000dEaD"',
        );
        return {
          ...r,
          body,
          headers: { ...r.headers, ...lowerCase(signRequest({ ...admin, method: r.method, path: r.path, body })) },
        };
      },
    }),
  },
  {
    name: "deliveries are tampered with in transit",
    check: "webhooks.delivery-signature",
    // A change of content (whitespace alone is not one under canonical-json, the default profile).
    deliveries: { request: (r) => ({ ...r, body: r.body.replace('"status":"success"', '"status":"error"') }) },
  },
];

describe.concurrent("faults injected in front of the reference deployment", () => {
  it.each(FAULTS)("$name → $check fails", async (fault) => {
    const sandbox = await startSandbox({});
    const closers: Array<() => Promise<void>> = [() => sandbox.close()];
    try {
      const target = sandboxTarget(sandbox);
      if (fault.api) {
        const hooks = typeof fault.api === "function" ? fault.api(target.admin) : fault.api;
        const proxy = await startFaultProxy(sandbox.base_url, hooks);
        closers.push(() => proxy.close());
        target.baseUrl = proxy.url;
      }
      if (fault.deliveries) {
        const receiverPort = await freePort();
        const proxy = await startFaultProxy(`http://127.0.0.1:${receiverPort}`, fault.deliveries);
        closers.push(() => proxy.close());
        target.webhookReceiverUrl = proxy.url;
        target.webhookListenPort = receiverPort;
      }
      // Only the check the fault must fail (with the prerequisites it declares): the clean run above is
      // the control that every check passes, and a fault row asserts that one check's outcome.
      const result = await runSuite({
        target,
        options: { level: "full", timeoutMs: 10_000, concurrency: 8 },
        operations: await loadGeneratedOperations(),
        catalog: CATALOG.filter((c) => c.id === fault.check),
      });
      if (result.kind !== "completed") throw new Error(result.failure.lines.join(" "));
      const check = result.report.checks.find((c) => c.id === fault.check)!;
      expect(check.status, `${fault.check}: ${check.message}`).toBe("failed");
      if (process.env.SHOW_FAULTS) console.log(`${fault.check} => ${check.message}`);
      expect(result.report.summary.certified).toBe(false);
    } finally {
      for (const close of closers.reverse()) await close();
    }
  });
});

function lowerCase(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}
