// The sandbox's lists (x-custody-pagination): 20 by default, at most 100, 400 outside; oldest first,
// so pages read while records are created neither skip nor repeat one; filters; the generated client's
// iterators against it; and the cost of a page, which does not grow with the data.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Filled, fillStore } from "../bench/fill-store.ts";
import { CustodialWalletServiceClient } from "../generated/client.ts";
import { type Sandbox, startSandbox } from "../reference/sandbox.ts";
import { createTransport } from "../runtime/http/client.ts";

let sandbox: Sandbox;
let client: CustodialWalletServiceClient;
let filled: Filled;
let ws: string;

/** A signed GET answered as it is (status and envelope), for the error cases the client would throw on. */
async function raw(path: string, query: Record<string, string>) {
  const transport = createTransport({
    baseUrl: sandbox.base_url,
    apiKey: sandbox.api_key,
    apiSecret: sandbox.api_secret,
    retry: false,
  });
  const answer = await transport.request({ method: "GET", path, query });
  return {
    status: answer.status,
    body: JSON.parse(answer.text) as { success: boolean; code: unknown; message: string; data: unknown },
  };
}

beforeAll(async () => {
  sandbox = await startSandbox({
    env: {},
    seed: "paging",
    blockTimeSeconds: 0.5,
    walletCreationDelayMs: 20,
    logger: { error() {} },
  });
  client = new CustodialWalletServiceClient({
    baseUrl: sandbox.base_url,
    apiKey: sandbox.api_key,
    apiSecret: sandbox.api_secret,
    logLevel: "off",
  });
  ws = sandbox.workspace_id;
  filled = await fillStore(sandbox.app.ctx.store, ws, sandbox.api_key, {
    wallets: 45,
    withdrawals: 40,
    deliveries: 30,
    deposits: 5,
  });
});

afterAll(async () => {
  await sandbox?.close();
});

describe("page size and offset", () => {
  it("answers 20 by default, up to 100 on request, and an empty page past the end", async () => {
    expect(await client.listWallets({ params: { workspace_id: ws } })).toHaveLength(20);
    expect(await client.listWallets({ params: { workspace_id: ws }, query: { limit: 100 } })).toHaveLength(45);
    expect(await client.listWallets({ params: { workspace_id: ws }, query: { offset: 40, limit: 10 } })).toHaveLength(
      5,
    );
    expect(await client.listWallets({ params: { workspace_id: ws }, query: { offset: 45 } })).toEqual([]);
    expect(await client.listWallets({ params: { workspace_id: ws }, query: { offset: 1_000_000 } })).toEqual([]);
  });

  it("refuses a limit outside 1..100, a negative offset and a non-number with 400 and the envelope naming it", async () => {
    const path = `/api/v1/workspaces/${ws}/wallets`;
    for (const [query, named] of [
      [{ limit: "101" }, "query.limit"],
      [{ limit: "0" }, "query.limit"],
      [{ limit: "-5" }, "query.limit"],
      [{ limit: "ten" }, "query.limit"],
      [{ limit: "2.5" }, "query.limit"],
      [{ offset: "-1" }, "query.offset"],
    ] as const) {
      const answer = await raw(path, query);
      expect(answer.status, JSON.stringify(query)).toBe(400);
      expect(answer.body).toMatchObject({ success: false, code: 400, data: null });
      expect(answer.body.message).toContain(named);
    }
  });

  it("pages the seed's withdrawal list (operation 4) too; without a query it is the first page", async () => {
    const all = await client.listWalletWithdrawals({
      params: { wallet_id: filled.busyWalletId },
      query: { limit: 100 },
    });
    expect(all).toHaveLength(40);
    const first = await client.listWalletWithdrawals({ params: { wallet_id: filled.busyWalletId } });
    expect(first.map((w) => w.id)).toEqual(all.slice(0, 20).map((w) => w.id));
  });
});

describe("order: creation order, oldest first", () => {
  it("reads every wallet exactly once while wallets are being created between the pages", async () => {
    const before = (await client.listWallets({ params: { workspace_id: ws }, query: { limit: 100 } })).map((w) => w.id);
    const created: string[] = [];
    const seen: string[] = [];
    let offset = 0;
    for (;;) {
      const page = await client.listWallets({ params: { workspace_id: ws }, query: { offset, limit: 7 } });
      seen.push(...page.map((w) => w.id));
      offset += page.length;
      if (page.length < 7) break;
      // Two new wallets between every two page reads: they land after everything listed so far.
      for (let i = 0; i < 2; i++)
        created.push(
          (await client.createWallet({ body: { name: `during paging ${offset}.${i}` } })).wallet_id as string,
        );
    }
    expect(new Set(seen).size).toBe(seen.length); // no repeat
    expect(seen.slice(0, before.length)).toEqual(before); // nothing skipped, order kept
    expect(seen.slice(before.length)).toEqual(created); // the new ones, in creation order
  });

  it("lists withdrawals, deliveries, transactions and audit entries oldest first", async () => {
    const withdrawals = await client.listWalletWithdrawals({
      params: { wallet_id: filled.busyWalletId },
      query: { limit: 100 },
    });
    const times = withdrawals.map((w) => Date.parse(w.created_at as string));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const deliveries = await client.listWebhookDeliveries({
      params: { workspace_id: ws },
      query: { webhook_id: filled.webhookId, limit: 100 },
    });
    const dTimes = deliveries.map((d) => Date.parse(d.created_at as string));
    expect(dTimes).toEqual([...dTimes].sort((a, b) => a - b));
    const audit = await client.listAuditLogs({ params: { workspace_id: ws }, query: { limit: 100 } });
    expect(audit.length).toBeGreaterThan(0);
    const aTimes = audit.map((a) => Date.parse(a.created_at));
    expect(aTimes).toEqual([...aTimes].sort((a, b) => a - b));
  });
});

describe("filters keep the order and page like the whole list", () => {
  it("a wallet's withdrawals by status", async () => {
    const failed = await client.listWalletWithdrawals({
      params: { wallet_id: filled.busyWalletId },
      query: { status: "failed", limit: 100 },
    });
    expect(failed).toHaveLength(5); // 40 withdrawals, every eighth failed
    expect(failed.every((w) => w.status === "failed")).toBe(true);
    const second = await client.listWalletWithdrawals({
      params: { wallet_id: filled.busyWalletId },
      query: { status: "failed", offset: 2, limit: 2 },
    });
    expect(second.map((w) => w.id)).toEqual(failed.slice(2, 4).map((w) => w.id));
  });

  it("transactions by wallet and by direction", async () => {
    const all = await client.listTransactions({ params: { workspace_id: ws }, query: { limit: 100 } });
    expect(all).toHaveLength(35 + 5); // the sent withdrawals (all but the rejected), then the deposits
    const deposits = await client.listTransactions({
      params: { workspace_id: ws },
      query: { direction: "deposit", limit: 100 },
    });
    expect(deposits.map((t) => t.id)).toEqual(all.filter((t) => t.direction === "deposit").map((t) => t.id));
    const mine = await client.listTransactions({
      params: { workspace_id: ws },
      query: { wallet_id: filled.busyWalletId, direction: "withdrawal", limit: 100 },
    });
    expect(mine).toHaveLength(35);
    const other = (await client.listWallets({ params: { workspace_id: ws }, query: { offset: 1, limit: 1 } }))[0].id;
    expect(await client.listTransactions({ params: { workspace_id: ws }, query: { wallet_id: other } })).toEqual([]);
  });

  it("deliveries by status and by webhook", async () => {
    const failed = await client.listWebhookDeliveries({
      params: { workspace_id: ws },
      query: { status: "failed", limit: 100 },
    });
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((d) => d.status === "failed")).toBe(true);
    const ofHook = await client.listWebhookDeliveries({
      params: { workspace_id: ws },
      query: { webhook_id: filled.webhookId, status: "delivered", limit: 100 },
    });
    expect(ofHook.every((d) => d.webhook_id === filled.webhookId && d.status === "delivered")).toBe(true);
    expect(ofHook.length + failed.length).toBe(30);
  });
});

describe("the generated client's iterators against the sandbox", () => {
  it("all() yields every wallet in order, one request per page", async () => {
    const everything = (await client.listWallets({ params: { workspace_id: ws }, query: { limit: 100 } })).map(
      (w) => w.id,
    );
    const ids: string[] = [];
    for await (const w of client.listWallets.all({ params: { workspace_id: ws } }, { pageSize: 10 })) ids.push(w.id);
    expect(ids.slice(0, everything.length)).toEqual(everything);
    let pages = 0;
    for await (const page of client.listWalletWithdrawals.pages(
      { params: { wallet_id: filled.busyWalletId }, query: { status: "completed" } },
      { pageSize: 8 },
    )) {
      pages++;
      expect(page.items.every((w) => w.status === "completed")).toBe(true);
    }
    expect(pages).toBe(4); // 30 completed: 8, 8, 8, 6
  });

  it("maxItems and an abort signal stop it", async () => {
    const some: string[] = [];
    for await (const d of client.listWebhookDeliveries.all(
      { params: { workspace_id: ws } },
      { pageSize: 4, maxItems: 6 },
    ))
      some.push(d.id as string);
    expect(some).toHaveLength(6);
    const controller = new AbortController();
    const stopped = (async () => {
      for await (const _ of client.listWallets.all(
        { params: { workspace_id: ws } },
        { pageSize: 5, signal: controller.signal },
      ))
        controller.abort();
    })();
    await expect(stopped).rejects.toMatchObject({ name: "AbortError" });
  });
});

describe("a page costs the page", () => {
  it("reads one head and at most one balance per wallet on the page, however many wallets exist", async () => {
    await fillStore(sandbox.app.ctx.store, ws, sandbox.api_key, { wallets: 3_000, withdrawals: 0, deliveries: 0 });
    const backend = sandbox.app.chain.backend;
    const calls: string[] = [];
    const request = backend.request.bind(backend);
    (backend as { request: typeof request }).request = (call) => {
      calls.push(call.method);
      return request(call);
    };
    try {
      const page = await client.listWallets({ params: { workspace_id: ws }, query: { offset: 1_500, limit: 100 } });
      expect(page).toHaveLength(100);
    } finally {
      (backend as { request: typeof request }).request = request;
    }
    // The chain watcher reads the head on its own meanwhile (each new block); nothing else reads balances.
    expect(calls.filter((m) => m === "eth_blockNumber").length).toBeLessThanOrEqual(3);
    expect(calls.filter((m) => m === "eth_getBalance").length).toBeLessThanOrEqual(100);
  });
});
