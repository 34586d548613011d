// Section "webhook-isolation" (issue 28): what bad receivers cost the healthy ones. One sandbox with
// 100 endpoints that refuse connections, 100 that accept and never answer and 10 healthy ones, all
// subscribed to wallet.created; 200 wallets created one every 50 ms. The figure is the time from each
// event (its record's created_at) to its arrival at a healthy receiver, p50 and p99 over the
// 10 × 200 arrivals, beside the same run with the 10 healthy endpoints alone. Goal: p99 within 1.5x of
// the clean run and under 1 s. The healthy endpoints are registered last, so a dispatcher serving
// deliveries in creation order would put them behind every bad one.
//
// Runs in the bench process, as bench/withdrawals.ts does: sandbox, receivers and the load share one
// event loop, the same for both runs. `node --import tsx bench/webhook-isolation.ts [--quick]` runs it
// alone; `npm run bench -- --only webhook-isolation` inside the harness.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { CustodialWalletServiceClient } from "../generated/client.ts";
import { C, type DeliveryRecord, type EventRecord } from "../reference/domain/records.ts";
import { startSandbox } from "../reference/sandbox.ts";
import { createContext, type BenchContext, type SectionResult } from "./context.ts";
import { entry, median, percentile } from "./stats.ts";

const HEALTHY = 10;
const REFUSING = 100;
const HANGING = 100;
const EVENTS = 200;
const EVERY_MS = 50;
/** Loopback port 1: nothing listens there, so every connection is refused. */
const REFUSED_URL = "http://127.0.0.1:1";

interface RunFigures {
  p50: number;
  p99: number;
  max: number;
  arrivals: number;
  /** Attempts the bad endpoints got (refused, hung), from the delivery log. */
  refusedAttempts: number;
  hangingRequests: number;
  /** Most hanging requests open at once. */
  hangingOpenMax: number;
}

export async function benchWebhookIsolation(ctx: BenchContext): Promise<SectionResult> {
  const runs = ctx.quick ? 1 : 3;
  const clean: RunFigures[] = [];
  const loaded: RunFigures[] = [];
  for (let i = 0; i < runs; i++) {
    clean.push(await oneRun(ctx, false));
    loaded.push(await oneRun(ctx, true));
  }
  const med = (runs: RunFigures[], k: keyof RunFigures) => median(runs.map((r) => r[k]));
  const p99 = med(loaded, "p99");
  const goal = p99 <= 1.5 * med(clean, "p99") && p99 < 1_000;
  const bad = `${REFUSING} refusing + ${HANGING} hanging endpoints beside`;
  return {
    entries: [
      entry(`webhook delivery to a healthy endpoint, p50, ${bad}`, med(loaded, "p50"), "the same, healthy endpoints alone", med(clean, "p50"), "ms"),
      entry(`webhook delivery to a healthy endpoint, p99, ${bad}`, p99, "the same, healthy endpoints alone", med(clean, "p99"), "ms", `goal: within 1.5x of alone and under 1 s: ${goal ? "met" : "NOT met"}`),
    ],
    notes: [
      `webhook-isolation: ${HEALTHY} healthy endpoints (registered last), ${EVENTS} wallet.created events one every ${EVERY_MS} ms; latency = arrival at the receiver − the event's created_at; median of ${runs} run(s) each, clean and loaded interleaved. ` +
        `Loaded runs: max ${loaded.map((r) => r.max).join("/")} ms; the bad endpoints got ${loaded.map((r) => r.refusedAttempts).join("/")} refused attempts and ${loaded.map((r) => r.hangingRequests).join("/")} hanging requests (at most ${loaded.map((r) => r.hangingOpenMax).join("/")} open at once). Clean runs: max ${clean.map((r) => r.max).join("/")} ms.`,
    ],
  };
}

async function oneRun(ctx: BenchContext, withBad: boolean): Promise<RunFigures> {
  const sandbox = await startSandbox({ env: {}, blockTimeSeconds: 1, walletCreationDelayMs: 10 });
  const healthy = await Promise.all(Array.from({ length: HEALTHY }, () => listen((_req, res) => res.end("ok"))));
  let open = 0;
  let openMax = 0;
  let hangingRequests = 0;
  const hanging = await listen((req) => {
    hangingRequests++;
    openMax = Math.max(openMax, ++open);
    req.resume();
    req.socket.once("close", () => open--);
  });
  try {
    const client = new CustodialWalletServiceClient({ baseUrl: sandbox.base_url, apiKey: sandbox.api_key, apiSecret: sandbox.api_secret });
    const ws = sandbox.workspace_id;
    const register = (url: string) => client.createWebhook({ params: { workspace_id: ws }, body: { url, event_types: ["wallet.created"] } });
    const badIds: string[] = [];
    if (withBad) {
      for (let i = 0; i < REFUSING; i++) badIds.push((await register(`${REFUSED_URL}/r${i}`)).id);
      for (let i = 0; i < HANGING; i++) badIds.push((await register(`${hanging.url}/h${i}`)).id);
    }
    for (const h of healthy) await register(h.url);

    const started = Date.now();
    for (let i = 0; i < EVENTS; i++) {
      await sleep(started + i * EVERY_MS - Date.now());
      void client.createWallet({ body: { name: `bench-isolation-${i}` } }).catch((e: unknown) => ctx.log(`webhook-isolation: createWallet failed: ${String(e)}`));
    }
    const deadline = Date.now() + 60_000;
    while (healthy.some((h) => h.arrivals.size < EVENTS) && Date.now() < deadline) await sleep(50);

    const store = sandbox.app.ctx.store;
    const latencies: number[] = [];
    for (const h of healthy) {
      for (const [eventId, at] of h.arrivals) {
        const event = store.get<EventRecord>(C.events, eventId);
        if (event) latencies.push(at - Date.parse(event.created_at));
      }
    }
    const bad = new Set(badIds);
    const refusedAttempts = store.list<DeliveryRecord>(C.deliveries, (d) => bad.has(d.webhook_id)).reduce((n, d) => n + d.attempts.filter((a) => a.error === "connection refused").length, 0);
    const figures: RunFigures = {
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      max: Math.max(...latencies),
      arrivals: latencies.length,
      refusedAttempts,
      hangingRequests,
      hangingOpenMax: openMax,
    };
    if (figures.arrivals < HEALTHY * EVENTS) ctx.log(`webhook-isolation: only ${figures.arrivals} of ${HEALTHY * EVENTS} healthy arrivals within 60 s`);
    ctx.log(`webhook-isolation ${withBad ? "loaded" : "clean"}: p50 ${figures.p50} ms, p99 ${figures.p99} ms, max ${figures.max} ms over ${figures.arrivals} arrivals`);
    return figures;
  } finally {
    await sandbox.close();
    for (const s of [...healthy, hanging]) await s.close();
  }
}

interface Listening {
  url: string;
  /** Event id → when it first arrived. */
  arrivals: Map<string, number>;
  close(): Promise<void>;
}

async function listen(handler: http.RequestListener): Promise<Listening> {
  const arrivals = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const id = req.headers["x-webhook-event-id"];
    if (typeof id === "string" && !arrivals.has(id)) arrivals.set(id, Date.now());
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { entries, notes } = await benchWebhookIsolation(createContext(process.argv.includes("--quick")));
  for (const e of entries) process.stdout.write(`${JSON.stringify(e)}\n`);
  for (const n of notes) process.stdout.write(`${n}\n`);
}
