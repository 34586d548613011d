// The deep checks against the sandbox: the authorization matrix and --fuzz pass against the clean
// sandbox, and each implementer bug injected by a proxy in front of it is caught by the check for
// that rule. Also: the same seed draws the same cases, failures are shrunk, guarded operations get
// only invalid cases with ids nobody has. A group's fault runs go side by side (each behind its own
// proxy, on records of its own), after the group's clean run.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { fuzzOptionsOf } from "../cli/certify-fuzz.ts";
import { authzChecks } from "../conformance/checks/authz/index.ts";
import type { Check } from "../conformance/checks/check.ts";
import { fuzzChecks, isGuarded } from "../conformance/checks/fuzz/index.ts";
import { resourceGraphSequence } from "../conformance/checks/lifecycle/sequence.ts";
import { moneyChecks } from "../conformance/checks/money/index.ts";
import { rpcResultChecks } from "../conformance/checks/rpc/results.ts";
import { deliveryChecks } from "../conformance/checks/webhooks/delivery.ts";
import { drawCase, judgeInput } from "../conformance/fuzz/cases.ts";
import { Prng } from "../conformance/fuzz/prng.ts";
import type { Report } from "../conformance/report/model.ts";
import { loadGeneratedOperations, type OperationInfo } from "../conformance/run/operations.ts";
import { signRequest } from "../runtime/http/hmac.ts";
import { type Admin, asAdmin, envelope, keyOf, runBehindProxy, sharedSandbox } from "./support/deep-target.ts";
import { type ProxiedRequest, type ProxiedResponse, rewriteData } from "./support/fake-proxy.ts";

const failed = (report: Report) => report.checks.filter((c) => c.status === "failed").map((c) => c.id);
const notPassed = (report: Report) =>
  report.checks.filter((c) => c.status !== "passed").map((c) => `${c.id} ${c.status}: ${c.message}`);
const only = (ops: OperationInfo[], ids: string[]) => ops.filter((op) => ids.includes(op.operationId));
// A fault's run holds only the checks it must fail: the clean run of each group is the control that
// they all pass, and what a fault row asserts is those checks' outcome.
const onlyThose = (checks: readonly Check[], ids: string[]) => checks.filter((c) => ids.includes(c.id));

describe("the authorization matrix", () => {
  const sandbox = sharedSandbox();
  it("passes against the sandbox: every operation × viewer, balances:read, single-scope, admin keys and another workspace", async () => {
    const { report } = await runBehindProxy({
      running: sandbox(),
      catalog: () => authzChecks,
    });
    expect(notPassed(report)).toEqual([]);
    expect(report.checks.map((c) => c.id).sort()).toEqual([
      "authz.admin-matrix",
      "authz.other-workspace",
      "authz.scope-matrix",
      "authz.scoped-matrix",
      "authz.viewer-matrix",
    ]);
  });

  const notAdmin = (admin: Admin, r: ProxiedRequest) => keyOf(r) !== undefined && keyOf(r) !== admin.apiKey;
  const FAULTS: Array<{
    name: string;
    expectFailed: string[];
    hooks: (admin: Admin) => {
      request?: (r: ProxiedRequest) => ProxiedRequest | null;
      response?: (q: ProxiedRequest, s: ProxiedResponse) => ProxiedResponse;
    };
  }> = [
    {
      name: "a viewer key may sign messages and reject withdrawals",
      expectFailed: ["authz.viewer-matrix", "authz.scope-matrix", "authz.scoped-matrix"],
      hooks: (admin) => ({
        request: (r) => (notAdmin(admin, r) && /\/(sign-message|reject)$/.test(r.path) ? asAdmin(admin, r) : r),
      }),
    },
    {
      name: "a scoped key may list webhooks outside its scopes",
      expectFailed: ["authz.scope-matrix", "authz.scoped-matrix"],
      // The path may carry a query (listWebhooks is paged: offset and limit).
      hooks: (admin) => ({
        request: (r) =>
          notAdmin(admin, r) && r.method === "GET" && /\/webhooks(\?|$)/.test(r.path) ? asAdmin(admin, r) : r,
      }),
    },
    {
      name: "an admin key may revoke API keys (an owner's operation)",
      expectFailed: ["authz.admin-matrix"],
      hooks: (admin) => ({
        request: (r) =>
          notAdmin(admin, r) && r.method === "DELETE" && /\/api-keys\//.test(r.path) ? asAdmin(admin, r) : r,
      }),
    },
    {
      name: "a refusal is a bare 403 without the envelope",
      expectFailed: ["authz.viewer-matrix"],
      hooks: () => ({
        response: (_q, s) =>
          s.status === 403 ? { status: 403, headers: { "content-type": "text/plain" }, body: "Forbidden" } : s,
      }),
    },
    {
      name: "another workspace's webhooks are listed",
      expectFailed: ["authz.other-workspace"],
      hooks: () => ({
        response: (q, s) =>
          q.method === "GET" && /\/webhooks(\?|$)/.test(q.path) && s.status === 404 ? envelope(200, []) : s,
      }),
    },
  ];

  it.concurrent.each(FAULTS)("$name → caught", async (fault) => {
    const { report } = await runBehindProxy({
      running: sandbox(),
      catalog: () => onlyThose(authzChecks, fault.expectFailed),
      hooks: fault.hooks,
    });
    if (process.env.SHOW_FAULTS) console.log(fault.name, notPassed(report));
    for (const id of fault.expectFailed) expect(failed(report), `${id} should fail`).toContain(id);
  });
});

describe("certify --fuzz", () => {
  const sandbox = sharedSandbox();
  it("the same seed draws the same cases; another seed draws others", async () => {
    const ops = await loadGeneratedOperations();
    const draw = (seed: string) =>
      ops.flatMap((op) => {
        const prng = new Prng(seed, op.operationId);
        return Array.from({ length: 20 }, (_, i) => ({
          op,
          c: drawCase({ op, prng, ids: { wallet_id: "w1" }, placeholderIds: false, validAllowed: true }, i),
        }));
      });
    const text = (seed: string) => JSON.stringify(draw(seed).map((d) => d.c));
    expect(text("42")).toBe(text("42"));
    expect(text("42")).not.toBe(text("43"));
    const cases = draw("42").filter((d) => d.c !== undefined);
    // Both kinds, and each case's label is the oracle's verdict.
    expect(cases.some((d) => d.c!.valid) && cases.some((d) => !d.c!.valid)).toBe(true);
    for (const { op, c } of cases)
      expect(judgeInput(op, c!) === undefined, `${op.operationId} case ${c!.index}`).toBe(c!.valid);
  });

  it("guarded operations are sent invalid cases only, with ids nobody has", async () => {
    const ops = await loadGeneratedOperations();
    for (const op of ops.filter(isGuarded)) {
      const prng = new Prng("7", op.operationId);
      for (let i = 0; i < 30; i++) {
        const c = drawCase(
          {
            op,
            prng,
            ids: { wallet_id: "real-wallet", workspace_id: "ws" },
            placeholderIds: true,
            validAllowed: false,
          },
          i,
        );
        if (!c) continue;
        expect(c.valid, `${op.operationId} case ${i}`).toBe(false);
        expect(judgeInput(op, c), `${op.operationId} case ${i}`).toBeDefined();
        expect(Object.values(c.params)).not.toContain("real-wallet");
      }
    }
    expect(
      ops
        .filter(isGuarded)
        .map((o) => o.operationId)
        .sort(),
    ).toEqual([
      "approveWithdrawal",
      "createApiKey",
      "createWithdrawal",
      "deleteWebhook",
      "rejectWithdrawal",
      "requestSign",
      "revokeApiKey",
      "signMessage",
      "signRawTransaction",
    ]);
  });

  it("the sandbox passes a CI-sized run over every operation", async () => {
    const { report } = await runBehindProxy({
      running: sandbox(),
      catalog: (ops) => fuzzChecks(ops, { cases: 25, seed: "ci", allowWrites: true }),
    });
    expect(notPassed(report)).toEqual([]);
    expect(report.checks.length).toBeGreaterThanOrEqual(38);
  });

  it("a 500 to a long string is caught, shrunk to the smallest body, and names its seed", async () => {
    const hooks = () => ({
      response: (q: ProxiedRequest, s: ProxiedResponse) =>
        q.method === "POST" && /"name":"[^"]{60,}"/.test(q.body) ? envelope(500, null) : s,
    });
    const { report } = await runBehindProxy({
      running: sandbox(),
      hooks,
      catalog: (ops) => fuzzChecks(only(ops, ["createWallet"]), { cases: 60, seed: "5", allowWrites: true }),
    });
    const check = report.checks.find((c) => c.id === "fuzz.createWallet")!;
    expect(check.status).toBe("failed");
    expect(check.message).toMatch(/HTTP 500/);
    expect(check.message).toMatch(/--seed 5/);
    const body = JSON.parse(check.evidence!.request!.body!) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(["name"]);
  });

  it("a 500 to a non-ASCII query value is caught", async () => {
    const hooks = () => ({
      response: (q: ProxiedRequest, s: ProxiedResponse) =>
        /\?.*%[89A-F][0-9A-F]/i.test(q.path) ? envelope(500, null) : s,
    });
    const { report } = await runBehindProxy({
      running: sandbox(),
      hooks,
      catalog: (ops) => fuzzChecks(only(ops, ["listAssets"]), { cases: 60, seed: "5", allowWrites: false }),
    });
    expect(failed(report)).toEqual(["fuzz.listAssets"]);
  });

  it("an invalid body answered as a success is caught", async () => {
    const hooks = () => ({
      response: (q: ProxiedRequest, s: ProxiedResponse) =>
        q.method === "POST" && s.status === 400 ? envelope(201, null) : s,
    });
    const { report } = await runBehindProxy({
      running: sandbox(),
      hooks,
      catalog: (ops) =>
        fuzzChecks(only(ops, ["createWebhook", "createWithdrawal"]), { cases: 40, seed: "9", allowWrites: false }),
    });
    expect(failed(report).sort()).toEqual(["fuzz.createWebhook", "fuzz.createWithdrawal"]);
    expect(report.checks.find((c) => c.id === "fuzz.createWithdrawal")!.message).toMatch(/invalid request/);
  });
});

describe("money-path semantics", () => {
  const sandbox = sharedSandbox();
  const isCreate = (q: ProxiedRequest) => q.method === "POST" && /\/request-withdrawal$/.test(q.path);
  const isBalance = (q: ProxiedRequest) => q.method === "GET" && /\/balance\//.test(q.path);

  it("pass against the sandbox", async () => {
    const { report } = await runBehindProxy({
      running: sandbox(),
      catalog: () => moneyChecks,
    });
    expect(notPassed(report)).toEqual([]);
  });

  const firstAnswers = new Map<string, ProxiedResponse>();
  let rejects = 0;
  const FAULTS: Array<{
    name: string;
    expectFailed: string[];
    hooks: (
      admin: Admin,
      sandboxUrl: string,
    ) => {
      request?: (r: ProxiedRequest) => ProxiedRequest | null;
      response?: (q: ProxiedRequest, s: ProxiedResponse) => ProxiedResponse;
    };
  }> = [
    {
      name: "an Idempotency-Key reused with another body answers the first withdrawal",
      expectFailed: ["money.idempotency-conflict"],
      hooks: () => ({
        response: (q, s) => {
          const key = q.headers["idempotency-key"];
          if (!isCreate(q) || !key) return s;
          const first = firstAnswers.get(key);
          if (!first) firstAnswers.set(key, s);
          return first && s.status === 409 ? first : s;
        },
      }),
    },
    {
      name: "the Idempotency-Key is dropped, so concurrent submits make several withdrawals",
      expectFailed: ["money.concurrent-submits", "money.idempotent-replay"],
      hooks: () => ({
        request: (r) =>
          isCreate(r)
            ? { ...r, headers: Object.fromEntries(Object.entries(r.headers).filter(([k]) => k !== "idempotency-key")) }
            : r,
      }),
    },
    {
      name: "an overdraft is accepted",
      expectFailed: ["money.overdraft-refused"],
      hooks: () => ({
        response: (q, s) =>
          isCreate(q) && s.status === 409
            ? envelope(201, {
                auto_approved: false,
                withdrawal: { id: "00000000-0000-4000-8000-000000000000", status: "pending_approval" },
              })
            : s,
      }),
    },
    {
      name: "reject keeps the hold",
      expectFailed: ["money.reject-releases-hold"],
      hooks: () => ({
        request: (r) => {
          if (r.method === "POST" && /\/reject$/.test(r.path)) rejects++;
          return r;
        },
        response: (q, s) => {
          if (!isBalance(q) || s.status !== 200 || rejects === 0) return s;
          const body = JSON.parse(s.body) as { data: Record<string, string> };
          const phantom = BigInt(rejects) * 100_000_000_000_000n; // 0.0001 per reject, still held
          const shift = (v: string, sign: bigint) => fmt(toWei(v) + sign * phantom);
          body.data.on_hold = shift(body.data.on_hold ?? "0", 1n);
          body.data.available_balance = shift(body.data.available_balance ?? body.data.balance, -1n);
          return { ...s, body: JSON.stringify(body) };
        },
      }),
    },
    {
      // A deployment that executes an approved withdrawal twice and lists only one of them.
      name: "an approved withdrawal is sent twice on chain",
      expectFailed: ["money.one-transfer-on-chain"],
      hooks: (admin, sandboxUrl) => {
        let lastCreate: ProxiedRequest | undefined;
        const hidden = new Set<string>();
        const signed = (method: string, path: string, body: string) =>
          fetch(sandboxUrl + path, {
            method,
            body,
            headers: { "content-type": "application/json", ...signRequest({ ...admin, method, path, body }) },
          }).then((r) => r.json() as Promise<{ data: { withdrawal: { id: string } } }>);
        return {
          request: (r) => {
            if (isCreate(r)) lastCreate = r;
            const approve =
              /^\/api\/v1\/withdrawals\/[^/]+\/approve$/.test(r.path) &&
              lastCreate?.body.includes('"notes":"custody certify money path"');
            if (approve && lastCreate) {
              const twin = lastCreate;
              void signed("POST", twin.path, twin.body).then(async (made) => {
                hidden.add(made.data.withdrawal.id);
                await signed(
                  "POST",
                  `/api/v1/withdrawals/${made.data.withdrawal.id}/approve`,
                  JSON.stringify({ comment: "twin" }),
                );
              });
            }
            return r;
          },
          response: (q, s) => {
            if (q.method !== "GET" || !/\/withdrawals$/.test(q.path) || s.status !== 200 || hidden.size === 0) return s;
            const body = JSON.parse(s.body) as { data: Array<{ id: string }> };
            body.data = body.data.filter((w) => !hidden.has(w.id));
            return { ...s, body: JSON.stringify(body) };
          },
        };
      },
    },
    {
      name: "the balance leaves held amounts out (no longer the chain's)",
      expectFailed: ["money.idempotent-replay", "money.reject-releases-hold"],
      hooks: () => ({
        response: (q, s) => {
          if (!isBalance(q) || s.status !== 200) return s;
          const body = JSON.parse(s.body) as { data: Record<string, string> };
          if (toWei(body.data.on_hold ?? "0") === 0n) return s;
          body.data.balance = body.data.total_balance = body.data.available_balance;
          return { ...s, body: JSON.stringify(body) };
        },
      }),
    },
  ];

  it.concurrent.each(FAULTS)("$name → caught", async (fault) => {
    const { report } = await runBehindProxy({
      running: sandbox(),
      catalog: () => onlyThose(moneyChecks, fault.expectFailed),
      hooks: fault.hooks,
    });
    if (process.env.SHOW_FAULTS) console.log(fault.name, notPassed(report));
    for (const id of fault.expectFailed) expect(failed(report), `${id} should fail`).toContain(id);
  });
});

function toWei(v: string): bigint {
  const [whole, fraction = ""] = v.split(".");
  return BigInt(whole) * 10n ** 18n + BigInt(fraction.padEnd(18, "0").slice(0, 18) || "0");
}

function fmt(wei: bigint): string {
  const whole = wei / 10n ** 18n;
  const fraction = (wei % 10n ** 18n).toString().padStart(18, "0").replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole.toString();
}

describe("delivery semantics", () => {
  // A sender that gives up on an unanswered attempt after 2 s instead of the spec's 10 s (the receiver
  // answers every attempt at once, so no check waits for it; a stuck attempt still ends soon).
  const sandbox = sharedSandbox({ webhookTimeoutMs: 2_000 });
  const seenEvents = new Set<string>();
  const eventId = (r: ProxiedRequest) => r.headers["x-webhook-event-id"] ?? r.headers["webhook-id"] ?? "";

  it("pass against the sandbox (the receiver fails a first attempt with 500, the second by closing the connection without an answer)", async () => {
    const { report } = await runBehindProxy({
      running: sandbox(),
      catalog: () => deliveryChecks,
    });
    expect(notPassed(report)).toEqual([]);
  });

  const FAULTS: Array<{
    name: string;
    expectFailed: string[];
    deliveries: { request?: (r: ProxiedRequest) => ProxiedRequest | null };
  }> = [
    {
      name: "a failed delivery is never retried",
      expectFailed: ["webhooks.retry-same-event"],
      deliveries: {
        request: (r) => {
          const id = eventId(r);
          if (seenEvents.has(id)) return null;
          seenEvents.add(id);
          return r;
        },
      },
    },
    {
      name: "a retry carries a new event id",
      expectFailed: ["webhooks.retry-same-event"],
      deliveries: {
        request: (r) => {
          const id = eventId(r);
          if (!seenEvents.has(`n:${id}`)) {
            seenEvents.add(`n:${id}`);
            return r;
          }
          return { ...r, headers: { ...r.headers, "x-webhook-event-id": randomUUID(), "webhook-id": randomUUID() } };
        },
      },
    },
    {
      name: "events break their schema",
      expectFailed: ["webhooks.events-match-schema"],
      deliveries: { request: (r) => ({ ...r, body: r.body.replace('"resource_id":"', '"resource_id":7,"was":"') }) },
    },
  ];

  it.concurrent.each(FAULTS)("$name → caught", async (fault) => {
    // Only the check under test: the others would wait out their fixtures behind a broken receiver path.
    const { report } = await runBehindProxy({
      running: sandbox(),
      catalog: () => deliveryChecks.filter((c) => fault.expectFailed.includes(c.id)),
      deliveries: fault.deliveries,
    });
    if (process.env.SHOW_FAULTS) console.log(fault.name, notPassed(report));
    for (const id of fault.expectFailed) expect(failed(report), `${id} should fail`).toContain(id);
  });
});

describe("JSON-RPC results and subscriptions", () => {
  const sandbox = sharedSandbox();
  const decimalResult = (method: string) => ({
    response: (q: ProxiedRequest, s: ProxiedResponse) => {
      if (!q.body.includes(`"method":"${method}"`)) return s;
      const body = JSON.parse(s.body) as { result?: unknown };
      if (typeof body.result === "string" && body.result.startsWith("0x"))
        body.result = BigInt(body.result).toString(10);
      return { ...s, body: JSON.stringify(body) };
    },
  });

  it("pass against the sandbox", async () => {
    const { report } = await runBehindProxy({
      running: sandbox(),
      catalog: () => rpcResultChecks,
    });
    expect(notPassed(report)).toEqual([]);
  });

  it.each(["eth_getTransactionCount", "eth_gasPrice", "eth_estimateGas"])(
    "%s answering a decimal number → caught",
    async (method) => {
      const { report } = await runBehindProxy({
        running: sandbox(),
        catalog: () => [rpcResultChecks[0]],
        rpc: decimalResult(method),
      });
      const check = report.checks.find((c) => c.id === "rpc.results-match-schemas")!;
      expect(check.status).toBe("failed");
      expect(check.message).toContain(method);
    },
  );

  it("eth_subscribe answering an id and never notifying → caught", async () => {
    const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
    await new Promise((resolve) => server.once("listening", resolve));
    server.on("connection", (socket) =>
      socket.on("message", (raw) => {
        const m = JSON.parse(String(raw)) as { id: unknown; method: string };
        socket.send(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: m.method === "eth_subscribe" ? "0x1" : true }));
      }),
    );
    try {
      const { port } = server.address() as { port: number };
      const { report } = await runBehindProxy({
        running: sandbox(),
        catalog: () => [rpcResultChecks[1]],
        wsUrl: `ws://127.0.0.1:${port}/ws`,
        timeoutMs: 2_000,
      });
      const check = report.checks.find((c) => c.id === "rpc.ws-new-heads")!;
      expect(check.status).toBe("failed");
      expect(check.message).toMatch(/no newHeads notification/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("the resource-graph sequence", () => {
  const sandbox = sharedSandbox();
  const successSeen = new Set<string>();
  it("passes against the sandbox", async () => {
    const { report } = await runBehindProxy({
      running: sandbox(),
      catalog: () => [resourceGraphSequence],
    });
    expect(notPassed(report)).toEqual([]);
  });

  const FAULTS: Array<{
    name: string;
    hooks: () => { response: (q: ProxiedRequest, s: ProxiedResponse) => ProxiedResponse };
  }> = [
    {
      name: "a created wallet's status goes back from success to pending",
      hooks: () => ({
        response: rewriteData(
          (q) => q.method === "GET" && q.path.includes("/wallets/creation-status/"),
          (d) => {
            const id = String(d.wallet_id ?? d.id);
            if (successSeen.has(id)) d.status = "pending";
            else if (d.status === "success") successSeen.add(id);
          },
        )!,
      }),
    },
    {
      name: "a withdrawal read answers another id",
      hooks: () => ({
        response: rewriteData(
          (q) => q.method === "GET" && /^\/api\/v1\/withdrawals\//.test(q.path),
          (d) => (d.id = randomUUID()),
        )!,
      }),
    },
    {
      name: "a rejected withdrawal can still be approved",
      hooks: () => ({
        response: (q, s) =>
          q.method === "POST" && /\/approve$/.test(q.path) && s.status === 409
            ? envelope(200, { id: q.path.split("/")[4], status: "approved" })
            : s,
      }),
    },
  ];

  it.concurrent.each(FAULTS)("$name → caught", async (fault) => {
    const { report } = await runBehindProxy({
      running: sandbox(),
      catalog: () => [resourceGraphSequence],
      hooks: fault.hooks,
    });
    if (process.env.SHOW_FAULTS) console.log(fault.name, notPassed(report));
    expect(failed(report)).toEqual(["lifecycle.resource-sequence"]);
  });
});

describe("the --fuzz flags", () => {
  it("name a wrong value, need --fuzz, and let --sandbox allow writes", () => {
    expect(() => fuzzOptionsOf({ seed: "1" })).toThrow("--seed needs --fuzz N");
    expect(() => fuzzOptionsOf({ fuzz: "0" })).toThrow(/--fuzz must be a number of cases/);
    expect(() => fuzzOptionsOf({ fuzz: "10", "fuzz-time": "soon" })).toThrow(/--fuzz-time must be a positive number/);
    expect(fuzzOptionsOf({ fuzz: "10", seed: "s1" })).toEqual({ cases: 10, seed: "s1", allowWrites: false });
    expect(fuzzOptionsOf({ fuzz: "10", seed: "s1", sandbox: true })?.allowWrites).toBe(true);
    expect(fuzzOptionsOf({})).toBeUndefined();
  });
});
