// The runner: a check that throws or hangs is a failure with the reason, the run still completes;
// prerequisites and levels gate checks (skipped, never passed); ordering and concurrency hold.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Check } from "../conformance/checks/check.ts";
import { fail, skip } from "../conformance/checks/outcome.ts";
import type { Target } from "../conformance/run/config.ts";
import { runSuite } from "../conformance/run/runner.ts";

let server: Server;
let target: Target;
beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(401).end());
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  target = {
    baseUrl: url,
    rpcUrl: url,
    wsUrl: url.replace("http", "ws"),
    admin: { apiKey: "ak_runner_test_key", apiSecret: "runner-secret-value" },
    rpcApiKey: "rpc-runner-key",
    fixtureIds: {},
  };
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

function check(id: string, run: Check["run"], extra: Partial<Check> = {}): Check {
  return {
    id,
    group: "auth",
    title: `test check ${id}`,
    severity: "MUST",
    seedRef: "§5",
    level: "seed",
    sends: "nothing",
    run,
    ...extra,
  };
}

async function runCatalog(
  catalog: Check[],
  over: { concurrency?: number; level?: "seed" | "full"; timeoutMs?: number } = {},
) {
  const result = await runSuite({
    target,
    options: { level: over.level ?? "seed", timeoutMs: over.timeoutMs ?? 300, concurrency: over.concurrency ?? 4 },
    operations: [],
    catalog,
    preflight: false,
  });
  if (result.kind !== "completed") throw new Error(result.failure.lines.join(" "));
  return Object.fromEntries(result.report.checks.map((c) => [c.id, c]));
}

describe("runner", () => {
  it("turns a throw, a hang and a failure into failed results with reasons, and goes on", async () => {
    const results = await runCatalog([
      check("auth.throws", async () => {
        throw new TypeError("boom");
      }),
      check("auth.hangs", () => new Promise(() => undefined)),
      check("auth.fails", async () => fail("the rule is broken")),
      check("auth.passes", async () => undefined),
      check("auth.skips", async () => skip("nothing to do")),
    ]);
    expect(results["auth.throws"]).toMatchObject({ status: "failed", message: "check crashed: boom" });
    expect(results["auth.hangs"]).toMatchObject({
      status: "failed",
      message: "timed out after 300 ms (the check's time limit; --timeout-ms)",
    });
    expect(results["auth.fails"]).toMatchObject({ status: "failed", message: "the rule is broken" });
    expect(results["auth.passes"].status).toBe("passed");
    expect(results["auth.skips"]).toMatchObject({ status: "skipped", message: "nothing to do" });
  });

  it("skips a check whose prerequisite is missing without running it", async () => {
    let ran = false;
    const results = await runCatalog([
      check(
        "auth.needs-wallet",
        async () => {
          ran = true;
        },
        { requires: ["wallet"] },
      ),
    ]);
    expect(ran).toBe(false);
    expect(results["auth.needs-wallet"]).toMatchObject({
      status: "skipped",
      message: "no wallet id: pass --wallet-id (or --level full)",
      needs: "--wallet-id (or --level full)",
      skip_kind: "input",
    });
  });

  it("leaves full-level checks out of a --level seed run (the level table decides the scope)", async () => {
    const results = await runCatalog([
      check("auth.full-only", async () => undefined, { level: "full" }),
      check("auth.seed", async () => undefined),
    ]);
    expect(results["auth.full-only"]).toBeUndefined();
    expect(results["auth.seed"].status).toBe("passed");
  });

  it("runs a check only after the checks it names, and never more than the concurrency limit at once", async () => {
    const order: string[] = [];
    let running = 0;
    let peak = 0;
    const timed = (id: string, ms: number, extra: Partial<Check> = {}) =>
      check(
        id,
        async () => {
          running++;
          peak = Math.max(peak, running);
          await new Promise((r) => setTimeout(r, ms));
          order.push(id);
          running--;
        },
        extra,
      );
    await runCatalog(
      [
        timed("auth.last", 1, { after: ["auth.slow"] }),
        timed("auth.slow", 60),
        timed("auth.a", 20),
        timed("auth.b", 20),
        timed("auth.c", 20),
      ],
      { concurrency: 2 },
    );
    expect(order.indexOf("auth.last")).toBeGreaterThan(order.indexOf("auth.slow"));
    expect(peak).toBeLessThanOrEqual(2);
    expect(order).toHaveLength(5);
  });

  it("restarts a check's limit with every answer it gets (a loaded machine), and still stops it after ten limits in all", async () => {
    const slowButAnswered = async (ctx: Parameters<Check["run"]>[0], forMs: number) => {
      const until = Date.now() + forMs;
      while (Date.now() < until && !ctx.signal.aborted) {
        await ctx.api.send({ method: "GET", path: "/api/v1/health", credentials: ctx.config.admin });
        await ctx.sleep(100);
      }
    };
    // A limit of 1 s: each answer must come within it, which a loaded machine's loopback still does
    // (300 ms did not, at load 17).
    const results = await runCatalog(
      [
        check("auth.answered-for-long", (ctx) => slowButAnswered(ctx, 2_500)),
        check("auth.answered-forever", (ctx) => slowButAnswered(ctx, 60_000)),
      ],
      { timeoutMs: 1_000 },
    );
    expect(results["auth.answered-for-long"].status).toBe("passed");
    // The runner may add what the check was waiting for when it stopped (a request in flight).
    expect(results["auth.answered-forever"]).toMatchObject({
      status: "failed",
      message: expect.stringMatching(
        /^timed out after 10000 ms in all \(10 times the check's time limit; --timeout-ms\)/,
      ),
    });
  });

  it("gives a free slot to the waiting check with the longest limit first, then first come", async () => {
    const started: string[] = [];
    const quick = (id: string, scale: number) =>
      check(
        id,
        async () => {
          started.push(id);
          await new Promise((r) => setTimeout(r, 20));
        },
        { timeoutScale: scale },
      );
    await runCatalog(
      [
        quick("auth.first", 1),
        quick("auth.short", 1),
        quick("auth.long", 4),
        quick("auth.medium", 2),
        quick("auth.short-too", 1),
      ],
      { concurrency: 1 },
    );
    expect(started).toEqual(["auth.first", "auth.long", "auth.medium", "auth.short", "auth.short-too"]);
  });

  it("redacts secrets that a check puts in its message", async () => {
    const results = await runCatalog([
      check("auth.leaky", async () =>
        fail(`saw runner-secret-value and rpc-runner-key in ${target.baseUrl}?api_key=rpc-runner-key`),
      ),
    ]);
    expect(results["auth.leaky"].message).not.toContain("runner-secret-value");
    expect(results["auth.leaky"].message).not.toContain("rpc-runner-key");
  });
});
