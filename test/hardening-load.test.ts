// A bounded load test of the reference deployment on loopback: 50 connections send signed requests for
// about 3 s (at most MAX_REQUESTS), a mix of reads and writes (createWallet, createWebhook). Then: no
// request failed, every write is visible afterwards, the store grew by exactly what was written, the
// transient state (wallet timers, in-flight deliveries, idempotency locks) drained, and the heap after a
// full GC stayed within a generous bound of what the written records account for.
import v8 from "node:v8";
import vm from "node:vm";
import { Pool } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { C } from "../reference/domain/records.ts";
import { type Sandbox, startSandbox } from "../reference/sandbox.ts";
import { signRequest } from "../runtime/http/hmac.ts";
import { waitFor } from "./reference-helpers.ts";

const CONNECTIONS = 50;
const DURATION_MS = 3_000;
const MAX_REQUESTS = 12_000;
const MIN_PER_CONNECTION = 11;

let sandbox: Sandbox;
let pool: Pool;

beforeAll(async () => {
  sandbox = await startSandbox({ env: {}, blockTimeSeconds: 1, walletCreationDelayMs: 5 });
  pool = new Pool(sandbox.base_url, { connections: CONNECTIONS, pipelining: 1 });
});
afterAll(async () => {
  await pool?.close();
  await sandbox?.close();
});

// vitest gives no --expose-gc; the flag can be set at run time and gc fetched from a new context
// (once: every new context is itself a few MB of heap).
v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

function collectGarbage(): void {
  gc();
  gc();
}

interface Sent {
  status: number;
  data: unknown;
}

async function call(method: string, path: string, body?: unknown): Promise<Sent> {
  const text = body === undefined ? "" : JSON.stringify(body);
  const headers = {
    "content-type": "application/json",
    ...signRequest({ apiKey: sandbox.api_key, apiSecret: sandbox.api_secret, method, path, body: text }),
  };
  const res = await pool.request({ method: method as "GET", path, headers, body: text === "" ? undefined : text });
  const json = (await res.body.json()) as { success: boolean; data: unknown };
  return { status: res.statusCode, data: json.data };
}

/** Every item of a paged list (x-custody-pagination: pages of at most 100, oldest first). */
async function listAll(path: string): Promise<{ id: string }[]> {
  const out: { id: string }[] = [];
  for (;;) {
    const page = (await call("GET", `${path}?offset=${out.length}&limit=100`)).data as { id: string }[];
    out.push(...page);
    if (page.length < 100) return out;
  }
}

/** The size of everything the store holds, as JSON (what the written records account for). */
function storeBytes(): number {
  let bytes = 0;
  for (const c of Object.values(C)) for (const r of sandbox.app.ctx.store.list(c)) bytes += JSON.stringify(r).length;
  return bytes;
}

function counts(): Record<string, number> {
  return Object.fromEntries(Object.values(C).map((c) => [c, sandbox.app.ctx.store.list(c).length]));
}

describe("50 connections of signed reads and writes for ~3 s", () => {
  it("no errors, no lost write, transient state drained, memory bounded by what was written", async () => {
    const ws = sandbox.workspace_id;
    const seeded = (await call("POST", "/api/v1/wallets", { name: "seed" })).data as { wallet_id: string };
    await waitFor(
      "seed wallet",
      async () =>
        ((await call("GET", `/api/v1/wallets/creation-status/${seeded.wallet_id}`)).data as { status: string })
          .status === "success",
    );
    // Warm up (JIT, pools, lazy allocations), then take the baseline.
    for (let i = 0; i < 200; i++) await call("GET", "/api/v1/networks");
    collectGarbage();
    const heapBefore = process.memoryUsage().heapUsed;
    const bytesBefore = storeBytes();
    const countsBefore = counts();

    const wallets: string[] = [];
    const webhooks: string[] = [];
    const failures: string[] = [];
    let sent = 0;
    const reads: [string, number][] = [
      [`/api/v1/workspaces/${sandbox.workspace_id}/wallets`, 200],
      ["/api/v1/networks", 200],
      ["/api/v1/health", 200],
      [`/api/v1/wallets/${seeded.wallet_id}`, 200],
      [`/api/v1/workspaces/${ws}/webhooks`, 200],
    ];
    const deadline = Date.now() + DURATION_MS;
    const worker = async (n: number) => {
      // At least MIN_PER_CONNECTION each, then until the deadline: the load does not shrink on a busy machine.
      for (let i = 0; (i < MIN_PER_CONNECTION || Date.now() < deadline) && sent < MAX_REQUESTS; i++) {
        sent++;
        const pick = (n + i) % 10;
        try {
          if (pick < 2) {
            const r = await call("POST", "/api/v1/wallets", { name: `load ${n}-${i}` });
            if (r.status !== 202) failures.push(`createWallet ${r.status}`);
            else wallets.push((r.data as { wallet_id: string }).wallet_id);
          } else if (pick < 3) {
            // An event type nothing in this test emits, so no deliveries pile up.
            const r = await call("POST", `/api/v1/workspaces/${ws}/webhooks`, {
              url: `http://127.0.0.1:9/${n}/${i}`,
              event_types: ["withdrawal.failed"],
            });
            if (r.status !== 201) failures.push(`createWebhook ${r.status}`);
            else webhooks.push((r.data as { id: string }).id);
          } else {
            const [path, expected] = reads[(n + i) % reads.length];
            const r = await call("GET", path);
            if (r.status !== expected) failures.push(`GET ${path} ${r.status}`);
          }
        } catch (error) {
          failures.push(`network: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, (_, n) => worker(n)));
    console.log(
      `[load] ${sent} requests over ${CONNECTIONS} connections in ~${DURATION_MS / 1000} s: ${wallets.length} createWallet, ${webhooks.length} createWebhook, ${failures.length} failures`,
    );

    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(CONNECTIONS * 10);
    expect(wallets.length).toBeGreaterThan(0);
    expect(webhooks.length).toBeGreaterThan(0);

    // No lost write: every created wallet and webhook is listed, each once.
    const listedWallets = (await listAll(`/api/v1/workspaces/${sandbox.workspace_id}/wallets`)).map((w) => w.id);
    expect(listedWallets).toHaveLength(countsBefore[C.wallets] + wallets.length);
    expect(new Set(listedWallets).size).toBe(listedWallets.length);
    for (const id of wallets) expect(listedWallets).toContain(id);
    const listedHooks = (await listAll(`/api/v1/workspaces/${ws}/webhooks`)).map((w) => w.id);
    expect(listedHooks).toHaveLength(countsBefore[C.webhooks] + webhooks.length);
    for (const id of webhooks) expect(listedHooks).toContain(id);

    // Every wallet finishes creation; then nothing transient is left behind.
    await waitFor("every wallet created", () =>
      sandbox.app.ctx.store.list<{ status: string }>(C.wallets).every((w) => w.status === "success"),
    );
    const internals = sandbox.app as unknown as {
      wallets: { timers: Set<unknown> };
      dispatcher: { inFlight: Map<unknown, unknown>; queues: { size: number } };
      withdrawals: { locks: { tails: Map<unknown, unknown> } };
    };
    expect(internals.wallets.timers.size).toBe(0);
    expect(internals.dispatcher.inFlight.size).toBe(0);
    expect(internals.dispatcher.queues.size).toBe(0);
    expect(internals.withdrawals.locks.tails.size).toBe(0);

    // The store grew by exactly what was written: one record per write, one audit entry per write,
    // one wallet.created event per wallet, no delivery.
    const after = counts();
    expect(after[C.wallets] - countsBefore[C.wallets]).toBe(wallets.length);
    expect(after[C.webhooks] - countsBefore[C.webhooks]).toBe(webhooks.length);
    expect(after[C.audit] - countsBefore[C.audit]).toBe(wallets.length + webhooks.length);
    expect(after[C.deliveries] - countsBefore[C.deliveries]).toBe(0);

    // Memory: after a full GC the heap grew by no more than a generous multiple of what the new records
    // take as JSON, plus a fixed allowance. A per-request leak (buffers, sockets, closures) breaks it.
    collectGarbage();
    const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
    const written = storeBytes() - bytesBefore;
    console.log(
      `[load] heap growth after GC ${(heapGrowth / 1e6).toFixed(1)} MB for ${(written / 1e6).toFixed(2)} MB of new records (${sent} requests)`,
    );
    expect(heapGrowth).toBeLessThan(written * 4 + 8e6);

    // Reads retain nothing: another 50 × 60 requests that write nothing leave the heap where it was.
    collectGarbage();
    const readsBefore = process.memoryUsage().heapUsed;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async (_, n) => {
        for (let i = 0; i < 60; i++) {
          const [path, expected] = reads[(n + i) % reads.length];
          const r = await call("GET", path);
          if (r.status !== expected) failures.push(`GET ${path} ${r.status}`);
        }
      }),
    );
    collectGarbage();
    const readGrowth = process.memoryUsage().heapUsed - readsBefore;
    console.log(`[load] heap growth after GC over ${CONNECTIONS * 60} reads: ${(readGrowth / 1e6).toFixed(2)} MB`);
    expect(failures).toEqual([]);
    expect(counts()).toEqual(after);
    expect(readGrowth).toBeLessThan(2e6);
  });
});
