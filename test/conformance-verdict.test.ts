// The verdict: CERTIFIED only when every MUST check of the level ran and passed. A skipped MUST
// check (missing fixture) or one left out by --only makes the run incomplete (exit 3), and the
// report names the flag that would let each skipped check run.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Check } from "../conformance/checks/check.ts";
import { fail } from "../conformance/checks/outcome.ts";
import type { Group } from "../conformance/checks/types.ts";
import { verdictLines } from "../conformance/report/console.ts";
import { renderHtml } from "../conformance/report/html.ts";
import { renderJunit } from "../conformance/report/junit.ts";
import { EXIT, exitCodeOf } from "../conformance/report/model.ts";
import type { Target } from "../conformance/run/config.ts";
import { runSuite } from "../conformance/run/runner.ts";

let server: Server;
let target: Target;
beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(404).end());
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  target = {
    baseUrl: url,
    rpcUrl: url,
    wsUrl: url.replace("http", "ws"),
    admin: { apiKey: "ak_verdict", apiSecret: "verdict-secret" },
    rpcApiKey: "rpc-verdict",
    fixtureIds: {},
  };
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const check = (id: string, group: Group, extra: Partial<Check> = {}): Check => ({
  id,
  group,
  title: id,
  severity: "MUST",
  seedRef: "§5",
  level: "seed",
  sends: "nothing",
  run: async () => undefined,
  ...extra,
});

async function report(catalog: Check[], over: { only?: Group[]; level?: "seed" | "full" } = {}) {
  const result = await runSuite({
    target,
    options: { level: over.level ?? "seed", only: over.only, timeoutMs: 500, concurrency: 4 },
    operations: [],
    catalog,
    preflight: false,
  });
  if (result.kind !== "completed") throw new Error("preflight was off");
  return result.report;
}

describe("verdict", () => {
  it("certifies when every MUST check of the level ran and passed (exit 0)", async () => {
    const r = await report([
      check("auth.a", "auth"),
      check("rpc.b", "rpc"),
      check("rpc.full", "rpc", { level: "full", run: async () => fail("out of scope") }),
    ]);
    expect(r.summary.verdict).toBe("certified");
    expect(r.summary.must).toEqual({ in_scope: 2, passed: 2, failed: 0, skipped: 0, not_selected: 0 });
    expect(exitCodeOf(r)).toBe(EXIT.certified);
    expect(verdictLines(r).at(-1)).toMatch(/^CERTIFIED at level seed: all 2 MUST checks ran and passed/);
  });

  it("a MUST check skipped for a missing fixture is not a certification (exit 3) and names the flag", async () => {
    const r = await report([
      check("auth.a", "auth"),
      check("scope.needs-wallet", "scope", { requires: ["wallet"] }),
      check("role.needs-viewer", "role", { severity: "SHOULD", requires: ["viewer-key"] }),
    ]);
    expect(r.summary.verdict).toBe("incomplete");
    expect(exitCodeOf(r)).toBe(3);
    expect(r.summary.skip_needs).toEqual([
      { needs: "--wallet-id (or --level full)", must: ["scope.needs-wallet"], should: [] },
      { needs: "--viewer-api-key/--viewer-api-secret (or --level full)", must: [], should: ["role.needs-viewer"] },
    ]);
    const lines = verdictLines(r);
    expect(lines).toContain("  pass --wallet-id (or --level full) to run 1 more check (1 MUST): scope.needs-wallet");
    expect(lines.at(-1)).toBe("NOT CERTIFIED (incomplete): level seed: 1 MUST checks passed; 1 not run");
  });

  it("--only is never a certification: says what was verified and how many MUST checks did not run", async () => {
    const catalog = [
      check("auth.a", "auth"),
      check("auth.b", "auth"),
      check("rpc.c", "rpc"),
      check("rpc.d", "rpc", { severity: "SHOULD" }),
    ];
    const r = await report(catalog, { only: ["rpc"] });
    expect(r.summary.must).toEqual({ in_scope: 3, passed: 1, failed: 0, skipped: 0, not_selected: 2 });
    expect(exitCodeOf(r)).toBe(3);
    expect(verdictLines(r).at(-1)).toBe("NOT CERTIFIED (incomplete): rpc: 1 MUST checks passed; 2 not run");
  });

  it("a remote target at --level full without --webhook-receiver-url skips the webhook checks: not a certification", async () => {
    const remote: Target = { ...target, baseUrl: "https://wallet.example" };
    const needsReceiver = check("webhooks.needs-receiver", "webhooks", {
      level: "full",
      requires: ["receiver"],
      run: async (ctx) => void (await ctx.need("receiver")),
    });
    const result = await runSuite({
      target: remote,
      options: { level: "full", timeoutMs: 500, concurrency: 1 },
      operations: [],
      catalog: [needsReceiver],
      preflight: false,
    });
    if (result.kind !== "completed") throw new Error("preflight was off");
    expect(result.report.checks[0]?.status).toBe("skipped");
    expect(result.report.checks[0]?.message).toMatch(/cannot reach 127\.0\.0\.1\): pass --webhook-receiver-url/);
    expect(exitCodeOf(result.report)).toBe(3);
  });

  it("a failed MUST check fails the run (exit 1), whatever else was skipped", async () => {
    const r = await report([
      check("auth.broken", "auth", { run: async () => fail("broken") }),
      check("scope.needs-wallet", "scope", { requires: ["wallet"] }),
    ]);
    expect(r.summary.verdict).toBe("failed");
    expect(exitCodeOf(r)).toBe(1);
    expect(r.checks.find((c) => c.id === "auth.broken")?.failure_kind).toBe("violation");
  });

  it("a failed SHOULD check certifies; JUnit reports it as skipped, not a failure, so CI stays green", async () => {
    const r = await report([
      check("auth.a", "auth"),
      check("auth.soft", "auth", { severity: "SHOULD", run: async () => fail("x-request-id missing") }),
    ]);
    expect(r.summary.verdict).toBe("certified");
    const xml = renderJunit(r);
    expect(xml).toContain('failures="0"');
    expect(xml).toContain('<skipped message="SHOULD failed: x-request-id missing"/>');
    expect(xml).not.toContain("<failure");
  });

  it("types each failure: a hang is a timeout, a throw a crash", async () => {
    const r = await report([
      check("auth.hangs", "auth", { run: () => new Promise(() => undefined) }),
      check("auth.throws", "auth", {
        run: async () => {
          throw new TypeError("boom");
        },
      }),
    ]);
    const kinds = Object.fromEntries(r.checks.map((c) => [c.id, c.failure_kind]));
    expect(kinds).toEqual({ "auth.hangs": "timeout", "auth.throws": "crash" });
    // The check's own run stays within its limit (plus the short wind-down), however long it hangs.
    expect(r.checks.find((c) => c.id === "auth.hangs")?.message).toMatch(/timed out after 500 ms/);
  });

  it("HTML lists failures first and shows why each skipped check did not run", async () => {
    const r = await report([
      check("auth.a", "auth"),
      check("scope.needs-wallet", "scope", { requires: ["wallet"] }),
      check("rpc.broken", "rpc", { run: async () => fail("broken rpc") }),
    ]);
    const html = renderHtml(r);
    expect(html.indexOf("<h2>Failures</h2>")).toBeGreaterThan(-1);
    expect(html.indexOf("rpc.broken")).toBeLessThan(html.indexOf('id="group-auth"'));
    expect(html).toContain("would run with: --wallet-id (or --level full)");
  });
});
