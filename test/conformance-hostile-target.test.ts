// The runner against targets that misbehave on purpose: the preflight stops a target that is not
// the service (or never answers) with one or two lines and exit 2; behind a sound wallet API, a
// hostile WebSocket makes its checks fail with a clear reason within their bound. A redirect is
// never followed, and no secret reaches the console or any report.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "../cli/certify.ts";
import type { Report } from "../conformance/report/model.ts";
import { HTTP_MODES, type HttpMode, startHostile, WS_MODES, type WsMode } from "./support/fake-hostile.ts";
import { fakeOperations } from "./support/fake-operations.ts";
import { startFakeTarget } from "./support/fake-target.ts";

const API_KEY = "ak_hostile_key_id_0123456789";
const API_SECRET = "hostile-secret-Zq9xK2mW7pL4";
const RPC_KEY = "rpc-hostile-key-Vb8nR3tY6";
const SECRETS = [API_SECRET, RPC_KEY, API_KEY];
const TIMEOUT_MS = 1_000;

const dir = mkdtempSync(join(tmpdir(), "custody-hostile-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the preflight says about each hostile behaviour (it stops the run before any check). */
const EXPECTED_REASON: Record<HttpMode, RegExp> = {
  hang: /target unreachable: .*no response within 1000 ms/,
  reset: /target unreachable: .*connection closed by the target/,
  // Headers come at once, then a byte at a time; on a loaded machine the headers may be late too.
  drip: /target unreachable: .*(not complete within 1000 ms|no response within 1000 ms)/,
  redirect: /not the wallet API: redirected to http:\/\/127\.0\.0\.1:\d+.* \(redirects are never followed\)/,
  html: /answers \(HTTP 200, text\/html\) but not with the service's JSON envelope/,
  // 10 MB is within certify's default body limit (64 MiB): read whole, it is no envelope.
  // 10 MB within the 1 s bound: read whole and judged, or on a loaded machine cut at the bound; both
  // are the bounded reader's honest verdicts.
  huge: /answers \(HTTP 200, application\/json\) but not with the service's JSON envelope|response body not complete within 1000 ms/,
  "invalid-json": /answers \(HTTP 200, application\/json\) but not with the service's JSON envelope/,
  // The envelope is there, but the same server is given as --rpc-url and answers no JSON-RPC.
  "wrong-content-type": /\/rpc answers \(HTTP 200\) but not with JSON-RPC 2\.0/,
  echo: /answers \(HTTP 200, application\/json\) but not with the service's JSON envelope/,
};

function expectBounded(report: Report): void {
  for (const c of report.checks) {
    if (c.status === "failed") expect(c.message, c.id).toBeTruthy();
    // A check may wait on its prerequisites, then gets its own limit (scaled for chain waits);
    // nothing may run unbounded.
    expect(c.duration_ms, c.id).toBeLessThan(TIMEOUT_MS * 16);
  }
}

describe.concurrent("hostile HTTP targets", () => {
  it.each(HTTP_MODES)(
    "%s: the preflight stops the run with the reason in two lines at most, nothing leaks",
    async (mode) => {
      const hostile = await startHostile(mode);
      try {
        let out = "";
        let err = "";
        const code = await run(
          [
            "--base-url",
            hostile.url,
            "--rpc-url",
            hostile.url,
            "--ws-url",
            hostile.wsUrl,
            "--api-key",
            API_KEY,
            "--api-secret",
            API_SECRET,
            "--rpc-api-key",
            RPC_KEY,
            "--timeout-ms",
            String(TIMEOUT_MS),
            "--json",
            join(dir, `${mode}.json`),
          ],
          { operations: fakeOperations, stdout: (t) => (out += t), stderr: (t) => (err += t) },
        );
        expect(code).toBe(2);
        expect(out).toBe("");
        expect(err.trim().split("\n").length).toBeLessThanOrEqual(2);
        expect(err).toMatch(EXPECTED_REASON[mode]);
        for (const secret of SECRETS) expect(err.includes(secret), `${mode} leaked ${secret.slice(0, 6)}…`).toBe(false);
        expect(hostile.redirectHits()).toBe(0);
      } finally {
        await hostile.close();
      }
    },
  );
});

const WS_REASON: Record<Exclude<WsMode, "ws-hang-upgrade">, RegExp> = {
  // The socket's own wait and the check's time limit are both --timeout-ms: on a loaded machine either
  // may end first, and each names the silence.
  "ws-never-answers":
    /no WebSocket message within|no answer with id .* within|did not complete within|timed out after \d+ ms \(the check's time limit/,
  "ws-close-mid-request": /closed by the target \(code 1006\) before an answer/,
};

describe("a WebSocket that never opens", () => {
  it("is stopped by the preflight, naming --ws-url", async () => {
    const hostile = await startHostile("ws-hang-upgrade");
    const t = await startFakeTarget();
    try {
      let err = "";
      const code = await run(
        [
          "--base-url",
          t.baseUrl,
          "--rpc-url",
          t.rpcUrl,
          "--ws-url",
          hostile.wsUrl,
          "--api-key",
          t.owner.apiKey,
          `--api-secret=${t.owner.apiSecret}`,
          "--rpc-api-key",
          t.rpcApiKey,
          "--timeout-ms",
          String(TIMEOUT_MS),
        ],
        { operations: t.operations, stdout: () => undefined, stderr: (s) => (err += s) },
      );
      expect(code).toBe(2);
      expect(err).toMatch(/WebSocket refused: .*WebSocket not open within 1000 ms/);
      expect(err).toContain("check --ws-url");
    } finally {
      await Promise.all([hostile.close(), t.close()]);
    }
  });
});

describe.concurrent("hostile WebSocket endpoints", () => {
  it.each(WS_MODES.filter((m): m is Exclude<WsMode, "ws-hang-upgrade"> => m !== "ws-hang-upgrade"))(
    "%s: the WebSocket checks fail with the reason, HTTP checks are unaffected",
    async (mode) => {
      const hostile = await startHostile(mode);
      const t = await startFakeTarget();
      try {
        let out = "";
        const json = join(dir, `${mode}.json`);
        const code = await run(
          [
            "--base-url",
            t.baseUrl,
            "--rpc-url",
            t.rpcUrl,
            "--ws-url",
            hostile.wsUrl,
            "--api-key",
            t.owner.apiKey,
            `--api-secret=${t.owner.apiSecret}`,
            "--rpc-api-key",
            t.rpcApiKey,
            "--only",
            "rpc",
            "--timeout-ms",
            String(TIMEOUT_MS),
            "--json",
            json,
          ],
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
        for (const id of ["rpc.http-block-number", "rpc.unauthorized", "rpc.batch"])
          expect(byId[id].status, id).toBe("passed");
        expect(out.includes(t.rpcApiKey) || readFileSync(json, "utf8").includes(t.rpcApiKey)).toBe(false);
      } finally {
        await Promise.all([hostile.close(), t.close()]);
      }
    },
  );
});

describe("unreachable target", () => {
  it("exits 2 with the reason when nothing listens at the base URL", async () => {
    let err = "";
    const code = await run(
      [
        "--base-url",
        "http://127.0.0.1:9",
        "--rpc-url",
        "http://127.0.0.1:9",
        "--api-key",
        API_KEY,
        "--api-secret",
        API_SECRET,
        "--rpc-api-key",
        RPC_KEY,
      ],
      { operations: fakeOperations, stdout: () => undefined, stderr: (t) => (err += t) },
    );
    expect(code).toBe(2);
    expect(err).toMatch(/unreachable: .*connection refused/);
    for (const secret of SECRETS) expect(err).not.toContain(secret);
  });
});
