// Sections "serving" and "client": the sandbox's wallet API (generated server + reference handlers)
// under a signed GET /api/v1/wallets/{id}/overview at 10 concurrent connections, against the raw
// node:http floor and Prism; then the generated client against raw undici on the same servers.
import { createServer } from "node:net";
import { join } from "node:path";
import { Pool } from "undici";
import { signRequest } from "../runtime/http/hmac.ts";
import type { BenchContext, SectionResult } from "./context.ts";
import { closedLoop, httpLoad, type LoadResult } from "./load.ts";
import { type ServerChild, spawnServer } from "./spawn-server.ts";
import { alternate, entry, median, type ResultEntry } from "./stats.ts";

const CONNECTIONS = 10;

interface SandboxInfo {
  base_url: string;
  api_key: string;
  api_secret: string;
  wallet_id: string;
}

interface Plan {
  durationMs: number;
  runs: number;
  warmups: number;
}

export function loadPlan(quick: boolean): Plan {
  return quick ? { durationMs: 1000, runs: 3, warmups: 1 } : { durationMs: 3000, runs: 5, warmups: 1 };
}

function tsxArgs(root: string, script: string, ...args: string[]): string[] {
  return ["--import", "tsx", join(root, "bench/servers", script), ...args];
}

export function startSandboxChild(ctx: BenchContext): Promise<ServerChild<SandboxInfo>> {
  return spawnServer<SandboxInfo>({ args: tsxArgs(ctx.root, "sandbox-api.ts"), cwd: ctx.root, timeoutMs: 90_000 });
}

export function startFloorChild(ctx: BenchContext, body: string): Promise<ServerChild<{ base_url: string }>> {
  return spawnServer<{ base_url: string }>({
    args: tsxArgs(ctx.root, "floor-http.ts"),
    cwd: ctx.root,
    env: { BENCH_FLOOR_BODY: body },
  });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Prism as a user runs it (`prism mock spec/openapi.yaml`), request log included. */
async function startPrismChild(ctx: BenchContext): Promise<ServerChild<{ base_url: string }>> {
  const port = await freePort();
  const prism = join(ctx.root, "node_modules/@stoplight/prism-cli/dist/index.js");
  return spawnServer<{ base_url: string }>({
    args: [prism, "mock", "-h", "127.0.0.1", "-p", String(port), join(ctx.root, "spec/openapi.yaml")],
    cwd: ctx.root,
    ready: (line) => (/Prism is listening on/.test(line) ? { base_url: `http://127.0.0.1:${port}` } : undefined),
  });
}

export function overviewPath(walletId: string): string {
  return `/api/v1/wallets/${encodeURIComponent(walletId)}/overview`;
}

/** Signed headers for the overview call. The timestamp stays valid for 300 s: sign per run. */
export function overviewHeaders(info: SandboxInfo): Record<string, string> {
  return {
    accept: "application/json",
    ...signRequest({
      apiKey: info.api_key,
      apiSecret: info.api_secret,
      method: "GET",
      path: overviewPath(info.wallet_id),
    }),
  };
}

async function fetchOnce(
  origin: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const pool = new Pool(origin, { connections: 1 });
  try {
    const res = await pool.request({ method: "GET", path, headers });
    return { status: res.statusCode, body: await res.body.text() };
  } finally {
    await pool.close();
  }
}

/** Median throughput, and a note when some calls failed (a figure built on errors is no figure). */
export function summarize(label: string, results: LoadResult[]): { value: number | null; note?: string } {
  const errors = results.reduce((n, r) => n + r.errors, 0);
  const value = results.some((r) => r.ok > 0) ? median(results.map((r) => r.perSecond)) : null;
  if (errors === 0) return { value };
  const first = results.find((r) => r.firstError)?.firstError;
  return { value, note: `${label}: ${errors} failed calls (${first ?? "?"})` };
}

function joinNotes(...notes: Array<string | undefined>): string | undefined {
  const kept = notes.filter((n): n is string => Boolean(n));
  return kept.length ? kept.join("; ") : undefined;
}

async function stopAll(children: Array<ServerChild<unknown> | undefined>): Promise<Array<number | null>> {
  return Promise.all(children.map((c) => (c ? c.stop() : Promise.resolve(null))));
}

/** The children a section starts, stopped together at its end. */
interface Servers {
  sandbox?: ServerChild<SandboxInfo>;
  floor?: ServerChild<{ base_url: string }>;
  prism?: ServerChild<{ base_url: string }>;
}

/** The sandbox and the overview request every contender serves. */
interface Target {
  info: SandboxInfo;
  path: string;
}

/** Starts the sandbox, the floor (answering the sandbox's own overview) and Prism; a note instead when serving must be skipped. */
async function startServing(ctx: BenchContext, s: Servers, notes: string[]): Promise<Target | string> {
  try {
    s.sandbox = await startSandboxChild(ctx);
  } catch (error) {
    return `serving: skipped, the sandbox did not start: ${(error as Error).message}`;
  }
  const info = s.sandbox.info;
  const path = overviewPath(info.wallet_id);
  const sample = await fetchOnce(info.base_url, path, overviewHeaders(info));
  if (sample.status !== 200)
    return `serving: skipped, the sandbox answered the overview with HTTP ${sample.status}: ${sample.body.slice(0, 200)}`;
  s.floor = await startFloorChild(ctx, sample.body);
  try {
    s.prism = await startPrismChild(ctx);
  } catch (error) {
    notes.push(`serving: Prism did not start: ${(error as Error).message}`);
  }
  return { info, path };
}

/** Load runs against each server in turn; the throughput entries against the floor and against Prism. */
async function measureServing(ctx: BenchContext, s: Servers, t: Target, entries: ResultEntry[]): Promise<void> {
  const { info, path } = t;
  const floor = s.floor!;
  const prism = s.prism;
  const plan = loadPlan(ctx.quick);
  ctx.log(
    `serving: ${plan.warmups} warm-up + ${plan.runs} runs of ${plan.durationMs} ms per target, ${CONNECTIONS} connections`,
  );
  const load = (origin: string) => () =>
    httpLoad({
      origin,
      method: "GET",
      path,
      headers: overviewHeaders(info),
      expectStatus: 200,
      connections: CONNECTIONS,
      durationMs: plan.durationMs,
    });
  const results: Record<string, LoadResult[]> = { ours: [], floor: [], prism: [] };
  const record = (name: string, run: () => Promise<LoadResult>) => async () => {
    const r = await run();
    results[name].push(r);
    ctx.log(`  ${name}: ${r.perSecond.toFixed(0)} req/s${r.errors ? ` (${r.errors} errors)` : ""}`);
    return r.perSecond;
  };
  const contenders = [
    { name: "ours", run: record("ours", load(info.base_url)) },
    { name: "floor", run: record("floor", load(floor.info.base_url)) },
    ...(prism ? [{ name: "prism", run: record("prism", load(prism.info.base_url)) }] : []),
  ];
  await alternate(contenders, plan);
  // alternate() also ran warm-ups; keep only the measured runs (the last `runs` of each).
  const measured = (name: string) => results[name].slice(-plan.runs);
  const ours = summarize("ours", measured("ours"));
  const floorFigure = summarize("floor", measured("floor"));
  entries.push(
    entry(
      "serving GET overview (10 conns)",
      ours.value,
      "node:http floor, constant envelope",
      floorFigure.value,
      "req/s",
      joinNotes(ours.note, floorFigure.note, "goal: ratio ≥ 0.60"),
    ),
  );
  if (prism) {
    const prismFigure = summarize("prism", measured("prism"));
    entries.push(
      entry(
        "serving GET overview (10 conns)",
        ours.value,
        "prism mock (checks header presence only)",
        prismFigure.value,
        "req/s",
        joinNotes(ours.note, prismFigure.note),
      ),
    );
  }
}

/** Stops the servers; their peak memory as entries when the sandbox reported its own. */
async function stopAndRecordRss(s: Servers, entries: ResultEntry[]): Promise<void> {
  const [oursRss, floorRss, prismRss] = await stopAll([s.sandbox, s.floor, s.prism]);
  if (s.sandbox && oursRss !== null) {
    entries.push(entry("serving peak RSS (whole sandbox incl. chain)", oursRss, "node:http floor", floorRss, "MB"));
    if (s.prism)
      entries.push(entry("serving peak RSS (whole sandbox incl. chain)", oursRss, "prism mock", prismRss, "MB"));
  }
}

export async function benchServing(ctx: BenchContext): Promise<SectionResult> {
  const notes: string[] = [];
  const entries: ResultEntry[] = [];
  const servers: Servers = {};
  try {
    const target = await startServing(ctx, servers, notes);
    if (typeof target === "string") return { entries, notes: [target] };
    await measureServing(ctx, servers, target, entries);
  } finally {
    await stopAndRecordRss(servers, entries);
  }
  return { entries, notes };
}

interface ClientLike {
  getWalletOverview(input: { params: { wallet_id: string } }): Promise<unknown>;
}
type ClientConstructor = new (options: {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  dispatcher?: Pool;
  retry?: false;
}) => ClientLike;

/** The generated client class, whatever the generator named it (it is the one class with getWalletOverview). */
async function loadGeneratedClient(): Promise<ClientConstructor> {
  const mod = (await import("../generated/client.ts")) as Record<string, unknown>;
  for (const value of Object.values(mod)) {
    if (
      typeof value === "function" &&
      typeof (value as { prototype?: { getWalletOverview?: unknown } }).prototype?.getWalletOverview === "function"
    ) {
      return value as ClientConstructor;
    }
  }
  throw new Error("generated/client.ts exports no client class with getWalletOverview");
}

/** What one client measurement needs: the client class, the sandbox, the request and the load plan. */
interface ClientRig extends Target {
  Client: ClientConstructor;
  plan: Plan;
}

/** Starts the sandbox and the floor (answering the sandbox's own overview); a note instead when the section must be skipped. */
async function startClientTargets(ctx: BenchContext, s: Servers): Promise<Target | string> {
  try {
    s.sandbox = await startSandboxChild(ctx);
  } catch (error) {
    return `client: skipped, the sandbox did not start: ${(error as Error).message}`;
  }
  const info = s.sandbox.info;
  const path = overviewPath(info.wallet_id);
  const sample = await fetchOnce(info.base_url, path, overviewHeaders(info));
  if (sample.status !== 200) return `client: skipped, overview answered HTTP ${sample.status}`;
  s.floor = await startFloorChild(ctx, sample.body);
  return { info, path };
}

/** The generated client's closed loop against `origin`, through its own pool; calls per second. */
async function clientRun(rig: ClientRig, origin: string, results: LoadResult[]): Promise<number> {
  const { info, plan } = rig;
  const pool = new Pool(origin, { connections: CONNECTIONS });
  const client = new rig.Client({
    baseUrl: origin,
    apiKey: info.api_key,
    apiSecret: info.api_secret,
    dispatcher: pool,
    retry: false,
  });
  try {
    const r = await closedLoop(CONNECTIONS, plan.durationMs, async () => {
      await client.getWalletOverview({ params: { wallet_id: info.wallet_id } });
    });
    results.push(r);
    return r.perSecond;
  } finally {
    await pool.close();
  }
}

/** The same request with headers signed once beforehand: what no client can beat. */
async function rawRun(rig: ClientRig, origin: string, results: LoadResult[]): Promise<number> {
  const r = await httpLoad({
    origin,
    method: "GET",
    path: rig.path,
    headers: overviewHeaders(rig.info),
    expectStatus: 200,
    connections: CONNECTIONS,
    durationMs: rig.plan.durationMs,
  });
  results.push(r);
  return r.perSecond;
}

/** The generated client against raw undici on one server, interleaved; its entry. */
async function measureClientAgainst(
  ctx: BenchContext,
  rig: ClientRig,
  target: string,
  origin: string,
): Promise<ResultEntry> {
  const { plan } = rig;
  const results: Record<"client" | "raw", LoadResult[]> = { client: [], raw: [] };
  await alternate(
    [
      { name: "client", run: () => clientRun(rig, origin, results.client) },
      { name: "raw", run: () => rawRun(rig, origin, results.raw) },
    ],
    plan,
  );
  const c = summarize("client", results.client.slice(-plan.runs));
  const raw = summarize("raw", results.raw.slice(-plan.runs));
  ctx.log(`  against ${target}: client ${c.value?.toFixed(0)} calls/s, raw ${raw.value?.toFixed(0)} calls/s`);
  return entry(
    `generated client getWalletOverview vs ${target}`,
    c.value,
    "raw undici, pre-signed headers",
    raw.value,
    "calls/s",
    joinNotes(c.note, raw.note, "client signs, parses, validates with zod; goal: ratio ≥ 0.80"),
  );
}

export async function benchClient(ctx: BenchContext): Promise<SectionResult> {
  const notes: string[] = [];
  const entries: ResultEntry[] = [];
  const servers: Servers = {};
  try {
    const Client = await loadGeneratedClient();
    const started = await startClientTargets(ctx, servers);
    if (typeof started === "string") return { entries, notes: [started] };
    const plan = loadPlan(ctx.quick);
    ctx.log(
      `client: ${plan.warmups} warm-up + ${plan.runs} runs of ${plan.durationMs} ms per contender, ${CONNECTIONS} callers`,
    );
    const rig: ClientRig = { ...started, Client, plan };
    for (const [target, origin] of [
      ["the sandbox", started.info.base_url],
      ["the floor server", servers.floor!.info.base_url],
    ] as const) {
      entries.push(await measureClientAgainst(ctx, rig, target, origin));
    }
  } catch (error) {
    notes.push(`client: ${(error as Error).message}`);
  } finally {
    await stopAll([servers.sandbox, servers.floor]);
  }
  return { entries, notes };
}
