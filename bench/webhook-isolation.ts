// Section "webhook-isolation" (issue 28): what bad receivers cost the healthy ones. A sandbox (its own
// process, bench/servers/sandbox-webhooks.ts) with 100 endpoints that refuse connections, 100 that
// accept and never answer and 10 healthy ones, all subscribed to wallet.created; 200 wallets created
// one every 50 ms. The figure is the time from each event (its delivery's created_at, written in the
// event's transaction) to its arrival at a healthy receiver, p50 and p99 over the 10 × 200 arrivals,
// beside the same run with the 10 healthy endpoints alone. Goal: p99 within 1.5x of the clean run and
// under 1 s. The healthy endpoints are registered last, so a dispatcher serving deliveries in creation
// order would put them behind every bad one.
//
// Receivers and the load run in the bench process, the sandbox in its own. Both clocks are the same
// machine's. `node --import tsx bench/webhook-isolation.ts [--quick]` runs it alone; `npm run bench --
// --only webhook-isolation` inside the harness.
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CustodialWalletServiceClient } from "../generated/client.ts";
import { type BenchContext, createContext, type SectionResult } from "./context.ts";
import { spawnServer } from "./spawn-server.ts";
import { entry, median, percentile } from "./stats.ts";

const HEALTHY = 10;
const REFUSING = 100;
const HANGING = 100;
const EVENTS = 200;
const EVERY_MS = 50;
/** Loopback port 1: nothing listens there, so every connection is refused. */
const REFUSED_URL = "http://127.0.0.1:1";

interface SandboxInfo {
  base_url: string;
  api_key: string;
  api_secret: string;
  workspace_id: string;
  pid: number;
}

interface RunFigures {
  p50: number;
  p99: number;
  max: number;
  arrivals: number;
  /** Failed attempts the refusing endpoints got (their failure streaks) and how many were backing off at the end. */
  refusedAttempts: number;
  backingOff: number;
  hangingRequests: number;
  /** Most hanging requests open at once. */
  hangingOpenMax: number;
  /** The sandbox process's CPU time (user + system) while events flowed; null off Linux. */
  sandboxCpuMs: number | null;
  /** The machine's 1-minute load average when the run ended (2 cores: above 2, processes wait for a core). */
  load: number;
}

export async function benchWebhookIsolation(ctx: BenchContext): Promise<SectionResult> {
  // The harness's policy: 1 warm-up pair, then 5 runs of each (3 with --quick), interleaved.
  const runs = ctx.quick ? 3 : 5;
  const clean: RunFigures[] = [];
  const loaded: RunFigures[] = [];
  for (let i = -1; i < runs; i++) {
    const c = await oneRun(ctx, false);
    const l = await oneRun(ctx, true);
    if (i >= 0) clean.push(c), loaded.push(l);
  }
  const med = (rs: RunFigures[], k: "p50" | "p99") => median(rs.map((r) => r[k]));
  const p99 = med(loaded, "p99");
  const goal = p99 <= 1.5 * med(clean, "p99") && p99 < 1_000;
  const bad = `${REFUSING} refusing + ${HANGING} hanging endpoints beside`;
  const list = (rs: RunFigures[], k: keyof RunFigures) => rs.map((r) => r[k] ?? "n/a").join("/");
  return {
    entries: [
      entry(
        `webhook delivery to a healthy endpoint, p50, ${bad}`,
        med(loaded, "p50"),
        "the same, healthy endpoints alone",
        med(clean, "p50"),
        "ms",
      ),
      entry(
        `webhook delivery to a healthy endpoint, p99, ${bad}`,
        p99,
        "the same, healthy endpoints alone",
        med(clean, "p99"),
        "ms",
        `goal: within 1.5x of alone and under 1 s: ${goal ? "met" : "NOT met"}`,
      ),
    ],
    notes: [
      `webhook-isolation: ${HEALTHY} healthy endpoints (registered last), ${EVENTS} wallet.created events one every ${EVERY_MS} ms; latency = arrival at the receiver − the delivery's created_at; median of ${runs} runs each after a warm-up pair, clean and loaded interleaved. ` +
        `Loaded runs: p50 ${list(loaded, "p50")} ms, p99 ${list(loaded, "p99")} ms, max ${list(loaded, "max")} ms, sandbox CPU ${list(loaded, "sandboxCpuMs")} ms, load average ${list(loaded, "load")}; ` +
        `the refusing endpoints failed ${list(loaded, "refusedAttempts")} attempts (${list(loaded, "backingOff")} of ${REFUSING} backing off at the end), the hanging ones got ${list(loaded, "hangingRequests")} requests (at most ${list(loaded, "hangingOpenMax")} open at once). ` +
        `Clean runs: p50 ${list(clean, "p50")} ms, p99 ${list(clean, "p99")} ms, max ${list(clean, "max")} ms, sandbox CPU ${list(clean, "sandboxCpuMs")} ms, load average ${list(clean, "load")}.`,
    ],
  };
}

/** The hanging receiver's counts: requests it got, open now, most open at once. */
interface HangingCounts {
  requests: number;
  open: number;
  openMax: number;
}

/** A receiver that reads each request and never answers, counting what it holds open. */
function listenHanging(counts: HangingCounts): Promise<Listening> {
  return listen((req) => {
    counts.requests++;
    counts.openMax = Math.max(counts.openMax, ++counts.open);
    req.resume();
    req.socket.once("close", () => counts.open--);
  });
}

/** Subscribes the bad endpoints (with `withBad`) and then the healthy ones; the refusing and healthy ids. */
async function registerEndpoints(
  client: CustodialWalletServiceClient,
  ws: string,
  withBad: boolean,
  hanging: Listening,
  healthy: Listening[],
): Promise<{ refusing: string[]; healthyIds: string[] }> {
  const register = async (url: string) =>
    (await client.createWebhook({ params: { workspace_id: ws }, body: { url, event_types: ["wallet.created"] } })).id;
  const refusing: string[] = [];
  if (withBad) {
    for (let i = 0; i < REFUSING; i++) refusing.push(await register(`${REFUSED_URL}/r${i}`));
    for (let i = 0; i < HANGING; i++) await register(`${hanging.url}/h${i}`);
  }
  const healthyIds: string[] = [];
  for (const h of healthy) healthyIds.push(await register(h.url));
  return { refusing, healthyIds };
}

/** Creates the wallets on schedule and waits (60 s at most) for every healthy arrival; the sandbox's CPU time meanwhile. */
async function sendEvents(
  ctx: BenchContext,
  client: CustodialWalletServiceClient,
  healthy: Listening[],
  pid: number,
): Promise<number | null> {
  const cpu0 = cpuMsOf(pid);
  const started = Date.now();
  for (let i = 0; i < EVENTS; i++) {
    await sleep(started + i * EVERY_MS - Date.now());
    void client
      .createWallet({ body: { name: `bench-isolation-${i}` } })
      .catch((e: unknown) => ctx.log(`webhook-isolation: createWallet failed: ${String(e)}`));
  }
  const deadline = Date.now() + 60_000;
  while (healthy.some((h) => h.arrivals.size < EVENTS) && Date.now() < deadline) await sleep(50);
  const cpu1 = cpuMsOf(pid);
  return cpu0 === null || cpu1 === null ? null : cpu1 - cpu0;
}

/** The event time of each delivery: its created_at in the delivery log (written with the event); arrival − that. */
async function healthyLatencies(
  client: CustodialWalletServiceClient,
  ws: string,
  healthy: Listening[],
  healthyIds: string[],
): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < HEALTHY; i++) {
    for await (const d of client.listWebhookDeliveries.all({
      params: { workspace_id: ws },
      query: { webhook_id: healthyIds[i] },
    })) {
      const at = healthy[i].arrivals.get(d.event_id as string);
      if (at !== undefined) latencies.push(at - Date.parse(d.created_at as string));
    }
  }
  return latencies;
}

/** The refusing endpoints' failed attempts and how many are backing off (nothing without `withBad`). */
async function refuserFigures(
  client: CustodialWalletServiceClient,
  ws: string,
  withBad: boolean,
  refusing: string[],
): Promise<{ refusedAttempts: number; backingOff: number }> {
  const endpoints = [];
  if (withBad) for await (const w of client.listWebhooks.all({ params: { workspace_id: ws } })) endpoints.push(w);
  const refusers = endpoints.filter((w) => refusing.includes(w.id as string));
  return {
    refusedAttempts: refusers.reduce((n, w) => n + (w.consecutive_failures ?? 0), 0),
    backingOff: refusers.filter((w) => w.delivery_state === "backing_off").length,
  };
}

/** Logs a run's figures, and a shortfall of arrivals. */
function logRun(ctx: BenchContext, withBad: boolean, figures: RunFigures): void {
  if (figures.arrivals < HEALTHY * EVENTS)
    ctx.log(`webhook-isolation: only ${figures.arrivals} of ${HEALTHY * EVENTS} healthy arrivals within 60 s`);
  ctx.log(
    `webhook-isolation ${withBad ? "loaded" : "clean"}: p50 ${figures.p50} ms, p99 ${figures.p99} ms, max ${figures.max} ms over ${figures.arrivals} arrivals; sandbox CPU ${figures.sandboxCpuMs ?? "n/a"} ms, load average ${figures.load}`,
  );
}

async function oneRun(ctx: BenchContext, withBad: boolean): Promise<RunFigures> {
  const child = await spawnServer<SandboxInfo>({
    args: ["--import", "tsx", join(ctx.root, "bench/servers/sandbox-webhooks.ts")],
    cwd: ctx.root,
    timeoutMs: 90_000,
  });
  const sandbox = child.info;
  const healthy = await Promise.all(Array.from({ length: HEALTHY }, () => listen((_req, res) => res.end("ok"))));
  const counts: HangingCounts = { requests: 0, open: 0, openMax: 0 };
  const hanging = await listenHanging(counts);
  try {
    const client = new CustodialWalletServiceClient({
      baseUrl: sandbox.base_url,
      apiKey: sandbox.api_key,
      apiSecret: sandbox.api_secret,
    });
    const ws = sandbox.workspace_id;
    const { refusing, healthyIds } = await registerEndpoints(client, ws, withBad, hanging, healthy);
    const sandboxCpuMs = await sendEvents(ctx, client, healthy, sandbox.pid);
    const latencies = await healthyLatencies(client, ws, healthy, healthyIds);
    const { refusedAttempts, backingOff } = await refuserFigures(client, ws, withBad, refusing);
    const figures: RunFigures = {
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      max: Math.max(...latencies),
      arrivals: latencies.length,
      refusedAttempts,
      backingOff,
      hangingRequests: counts.requests,
      hangingOpenMax: counts.openMax,
      sandboxCpuMs,
      load: Math.round(loadavg()[0] * 10) / 10,
    };
    logRun(ctx, withBad, figures);
    return figures;
  } finally {
    await child.stop();
    for (const s of [...healthy, hanging]) await s.close();
  }
}

/** User + system CPU time of a process in ms, from /proc (Linux); null elsewhere. */
function cpuMsOf(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command name; in clock ticks (100/s).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
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
