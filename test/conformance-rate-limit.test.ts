// A deployment that rate-limits is no failure: a 429 (the seed is silent on rate limits) is waited
// out and the request sent again; the report says how often. A gateway in front of the reference
// deployment refuses every fourth request with 429 before it reaches the deployment.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { loadGeneratedOperations } from "../conformance/run/operations.ts";
import { runSuite } from "../conformance/run/runner.ts";
import { HttpProbe, retryAfterMs } from "../conformance/transport/probe.ts";
import { Redactor } from "../conformance/transport/redact.ts";
import { startSandbox } from "../reference/sandbox.ts";
import { sandboxTarget } from "./support/sandbox-target.ts";

const servers: http.Server[] = [];
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/**
 * Forwards to `upstream`, but answers `refuse(n)` requests (n counts from 1) 429 without forwarding them.
 * With `once`, a request resent after its 429 (same method, path and headers) is forwarded: with
 * checks running concurrently, a global "every fourth" would otherwise refuse one request seven
 * times in a row now and then, which is certify's retry limit, not what this test is about.
 */
async function rateLimitingGateway(
  upstream: string,
  refuse: (n: number) => boolean,
  retryAfter = "0",
  once = false,
): Promise<{ url: string; refused: () => number }> {
  const target = new URL(upstream);
  let n = 0;
  let refused = 0;
  const refusedBefore = new Set<string>();
  const server = http.createServer((req, res) => {
    const key = `${req.method} ${req.url} ${JSON.stringify(req.headers)}`;
    if (once && refusedBefore.delete(key)) n++;
    else if (refuse(++n)) {
      if (once) refusedBefore.add(key);
      refused++;
      req.resume();
      res
        .writeHead(429, { "content-type": "application/json", "retry-after": retryAfter })
        .end('{"success":false,"message":"slow down","code":"rate_limited","data":null}');
      return;
    }
    const up = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on("error", () => res.writeHead(502).end());
    req.pipe(up);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, refused: () => refused };
}

describe("retryAfterMs", () => {
  it("reads seconds and HTTP dates, bounds them, and backs off without a header", () => {
    expect(retryAfterMs("2", 0)).toBe(2000);
    expect(retryAfterMs("0", 0)).toBe(100);
    expect(retryAfterMs("3600", 0)).toBe(10_000);
    expect(retryAfterMs(new Date(Date.UTC(2030, 0, 1, 0, 0, 3)).toUTCString(), 0, Date.UTC(2030, 0, 1))).toBe(3000);
    expect([0, 1, 2, 3, 5].map((retry) => retryAfterMs(undefined, retry))).toEqual([500, 1000, 2000, 4000, 10_000]);
    expect(retryAfterMs("soon", 1)).toBe(1000);
  });
});

describe("the probe", () => {
  it("sends a 429'd request again and returns the answer that follows; after 6 tries the 429 stands", async () => {
    const upstream = http.createServer((_req, res) => res.writeHead(200).end("ok"));
    servers.push(upstream);
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    const twice = await rateLimitingGateway(
      `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      (n) => n <= 2,
    );
    const probe = new HttpProbe({ timeoutMs: 5_000, redactor: new Redactor() });
    const ex = await probe.send({ method: "GET", url: `${twice.url}/x` });
    expect([ex.response.status, ex.response.text, probe.rateLimited.requests]).toEqual([200, "ok", 2]);
    const always = await rateLimitingGateway(
      `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      () => true,
    );
    const stuck = await probe.send({ method: "GET", url: `${always.url}/x` });
    expect([stuck.response.status, always.refused()]).toEqual([429, 7]);
    await probe.close();
  });
});

describe("the probe, when the check's time limit ends during a wait", () => {
  it("reports the wait it was in, not the 429 it was waiting out", async () => {
    const upstream = http.createServer((_req, res) => res.writeHead(200).end("ok"));
    servers.push(upstream);
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    const slow = await rateLimitingGateway(
      `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      () => true,
      "5",
    );
    const limit = new AbortController();
    // The time limit ends once the 429 has been answered, while the probe waits out its Retry-After.
    const probe = new HttpProbe({ timeoutMs: 20_000, redactor: new Redactor(), onExchange: () => limit.abort() });
    const attempt = probe.attempt({ method: "GET", url: `${slow.url}/x` }, limit.signal);
    const result = await attempt;
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect([result.kind, result.reason]).toEqual([
      "aborted",
      "still waiting out a 429 (refused 1 time(s)) when the check's time limit was reached",
    ]);
    await probe.close();
  });
});

describe("a rate-limited deployment", () => {
  it("certifies: every fourth request refused with 429 costs waits, never a check", async () => {
    const sandbox = await startSandbox({});
    try {
      const gateway = await rateLimitingGateway(sandbox.base_url, (n) => n % 4 === 0, "0", true);
      const target = sandboxTarget(sandbox, gateway.url);
      const result = await runSuite({
        target,
        options: {
          level: "full",
          // An outer bound: a check may run ten of these in all, and at four test files per 2 cores a
          // check of 40 operations with every fourth request waited out can need more than 100 s.
          timeoutMs: 30_000,
          concurrency: 8,
          only: ["envelope", "auth", "authz", "isolation", "webhooks", "paging"],
        },
        operations: await loadGeneratedOperations(),
      });
      if (result.kind !== "completed") throw new Error(result.failure.lines.join(" "));
      const report = result.report;
      expect(
        report.checks.filter((c) => c.status !== "passed").map((c) => `${c.id} ${c.status}: ${c.message}`),
      ).toEqual([]);
      expect(report.summary.rate_limited.requests).toBeGreaterThan(100);
      expect(report.summary.rate_limited.requests).toBe(gateway.refused());
    } finally {
      await sandbox.close();
    }
  });
});
