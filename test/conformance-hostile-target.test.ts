// The runner against targets that misbehave on purpose: each check fails with a clear reason within
// its bound, the run completes and writes its reports, a redirect is never followed, and no secret
// reaches the console or any report.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "../cli/certify.ts";
import type { Report } from "../conformance/report/model.ts";
import { fakeOperations } from "./support/fake-operations.ts";
import { HTTP_MODES, startHostile, WS_MODES, type HttpMode, type WsMode } from "./support/fake-hostile.ts";
import { startFakeTarget } from "./support/fake-target.ts";

const API_KEY = "ak_hostile_key_id_0123456789";
const API_SECRET = "hostile-secret-Zq9xK2mW7pL4";
const RPC_KEY = "rpc-hostile-key-Vb8nR3tY6";
const SECRETS = [API_SECRET, RPC_KEY, API_KEY];
const TIMEOUT_MS = 1_000;

const dir = mkdtempSync(join(tmpdir(), "custody-hostile-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What each hostile behaviour must be reported as, in the failing checks' messages. */
const EXPECTED_REASON: Record<HttpMode, RegExp> = {
  hang: /no response within 1000 ms/,
  reset: /connection closed by the target/,
  // Headers come at once, then a byte at a time; on a loaded machine the headers may be late too.
  drip: /not complete within 1000 ms|no response within 1000 ms/,
  redirect: /redirected to http:\/\/127\.0\.0\.1:\d+.* \(redirects are never followed\)/,
  html: /not JSON \(HTTP 200, text\/html\)|content-type is text\/html/,
  huge: /exceeds 1 MiB/,
  "invalid-json": /not JSON \(HTTP 200, application\/json\)|body is not a JSON object/,
  "wrong-content-type": /content-type is text\/plain/,
  echo: /not the envelope/,
};

async function certifyHostile(baseUrl: string, rpcUrl: string, wsUrl: string, name: string) {
  let console = "";
  const files = { json: join(dir, `${name}.json`), junit: join(dir, `${name}.xml`), html: join(dir, `${name}.html`) };
  const code = await run(
    [
      "--base-url", baseUrl, "--rpc-url", rpcUrl, "--ws-url", wsUrl,
      "--api-key", API_KEY, "--api-secret", API_SECRET, "--rpc-api-key", RPC_KEY,
      "--workspace-id", "ws_hostile", "--timeout-ms", String(TIMEOUT_MS), "--concurrency", "32",
      "--json", files.json, "--junit", files.junit, "--html", files.html, "--no-color",
    ],
    { operations: fakeOperations, stdout: (t) => (console += t), stderr: (t) => (console += t) },
  );
  const report = JSON.parse(readFileSync(files.json, "utf8")) as Report;
  const everything = [console, ...Object.values(files).map((f) => readFileSync(f, "utf8"))].join("\n");
  return { code, report, everything };
}

function expectBounded(report: Report): void {
  for (const c of report.checks) {
    if (c.status === "failed") expect(c.message, c.id).toBeTruthy();
    // A check may wait on its prerequisites, then gets its own limit (scaled for chain waits);
    // nothing may run unbounded.
    expect(c.duration_ms, c.id).toBeLessThan(TIMEOUT_MS * 16);
  }
}

describe.concurrent("hostile HTTP targets", () => {
  it.each(HTTP_MODES)("%s: checks fail with the reason, the run completes, nothing leaks", async (mode) => {
    const hostile = await startHostile(mode);
    try {
      const { code, report, everything } = await certifyHostile(hostile.url, hostile.url, hostile.wsUrl, mode);
      expect(code).toBe(1);
      expect(report.summary.certified).toBe(false);
      expect(report.checks.length).toBeGreaterThan(50);
      expectBounded(report);
      const reasons = report.checks.filter((c) => c.status === "failed").map((c) => c.message ?? "");
      expect(reasons.some((m) => EXPECTED_REASON[mode].test(m)), `${mode}: ${reasons.slice(0, 5).join(" | ")}`).toBe(true);
      for (const secret of SECRETS) expect(everything.includes(secret), `${mode} leaked ${secret.slice(0, 6)}…`).toBe(false);
      expect(hostile.redirectHits()).toBe(0);
    } finally {
      await hostile.close();
    }
  });
});

const WS_REASON: Record<WsMode, RegExp> = {
  "ws-never-answers": /no WebSocket message within|did not complete within/,
  "ws-close-mid-request": /closed by the target \(code 1006\) before an answer/,
  "ws-hang-upgrade": /WebSocket not open within 1000 ms/,
};

describe.concurrent("hostile WebSocket endpoints", () => {
  it.each(WS_MODES)("%s: the WebSocket checks fail with the reason, HTTP checks are unaffected", async (mode) => {
    const hostile = await startHostile(mode);
    const t = await startFakeTarget();
    try {
      let out = "";
      const json = join(dir, `${mode}.json`);
      const code = await run(
        ["--base-url", t.baseUrl, "--rpc-url", t.rpcUrl, "--ws-url", hostile.wsUrl, "--api-key", t.owner.apiKey, "--api-secret", t.owner.apiSecret,
          "--rpc-api-key", t.rpcApiKey, "--only", "rpc", "--timeout-ms", String(TIMEOUT_MS), "--json", json],
        { operations: t.operations, stdout: (s) => (out += s), stderr: (s) => (out += s) },
      );
      const report = JSON.parse(readFileSync(json, "utf8")) as Report;
      expect(code).toBe(1);
      expectBounded(report);
      const byId = Object.fromEntries(report.checks.map((c) => [c.id, c]));
      for (const id of ["rpc.ws-query-key", "rpc.ws-immediate-request"]) {
        expect(byId[id].status, id).toBe("failed");
        expect(byId[id].message, id).toMatch(WS_REASON[mode]);
      }
      for (const id of ["rpc.http-block-number", "rpc.unauthorized", "rpc.batch"]) expect(byId[id].status, id).toBe("passed");
      expect(out.includes(t.rpcApiKey) || readFileSync(json, "utf8").includes(t.rpcApiKey)).toBe(false);
    } finally {
      await Promise.all([hostile.close(), t.close()]);
    }
  });
});

describe("unreachable target", () => {
  it("exits 2 with the reason when nothing listens at the base URL", async () => {
    let err = "";
    const code = await run(
      ["--base-url", "http://127.0.0.1:9", "--rpc-url", "http://127.0.0.1:9", "--api-key", API_KEY, "--api-secret", API_SECRET, "--rpc-api-key", RPC_KEY],
      { operations: fakeOperations, stdout: () => undefined, stderr: (t) => (err += t) },
    );
    expect(code).toBe(2);
    expect(err).toMatch(/unreachable: .*connection refused/);
    for (const secret of SECRETS) expect(err).not.toContain(secret);
  });
});
