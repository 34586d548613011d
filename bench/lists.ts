// Lists at scale (issue 25): a sandbox filled with N wallets, N withdrawals (of one wallet) and N
// deliveries through its store (bench/fill-store.ts, in batches), restarted on that data directory,
// then signed list requests timed against it beside the same at a small N, in the same run:
//   - latency of the first page, a middle page and a filtered page of each list (median of the runs,
//     the two sizes interleaved request by request so that a noisy neighbour hits both alike);
//   - restart time (startSandbox on the directory: store replay, chain, app, servers), twice;
//   - the server's resident memory after the requests, its peak, and memory per record while filling;
//   - the data directory's size; a health check alone and while list pages are being served.
// Not a timed test: figures go to stdout, bench/lists-results.json and, with --write, the table in
// docs/measurements/lists.md. Goals: first page at the large N within 1.5x of the small one and
// under 20 ms; restart under 5 s.
//
//   npx tsx bench/lists.ts [--sizes 1000,100000] [--runs 25] [--write]
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createTransport, type Transport } from "../runtime/http/client.ts";
import { READY_PREFIX } from "./servers/announce.ts";
import { type ServerChild, spawnServer } from "./spawn-server.ts";
import { median } from "./stats.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const WORK = path.join(ROOT, ".tmp-bench", "lists");
const DOC = path.join(ROOT, "docs", "measurements", "lists.md");
const RESULTS = path.join(ROOT, "bench", "lists-results.json");

interface Filled {
  busyWalletId: string;
  webhookId: string;
  records: number;
  fill_ms: number;
  close_ms: number;
  heap_bytes_per_record: number;
  rss_bytes_per_record: number;
}

interface Started {
  base_url: string;
  api_key: string;
  api_secret: string;
  workspace_id: string;
  start_ms: number;
  start_cpu_ms: number;
  store_ms: number;
  chain_ms: number;
  app_ms: number;
  servers_ms: number;
  pid: number;
}

interface Size {
  n: number;
  dir: string;
  filled: Filled;
  dirBytes: number;
  restarts: Started[];
  server: ServerChild<Started>;
  transport: Transport;
  rssMB?: number;
  peakRssMB?: number | null;
}

interface Query {
  name: string;
  path: (s: Size) => string;
  query: (s: Size) => Record<string, string>;
}

function args(): { sizes: number[]; runs: number; write: boolean } {
  const argv = process.argv.slice(2);
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const sizes = (value("--sizes") ?? "1000,100000").split(",").map(Number);
  if (sizes.length !== 2 || sizes.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error("--sizes takes two whole numbers, the small one first (1000,100000)");
  const runs = Number(value("--runs") ?? 25);
  return { sizes, runs, write: argv.includes("--write") };
}

/** Runs the fill child and returns what it announced. */
function fill(dir: string, n: number): Promise<Filled> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--expose-gc", "--import", "tsx", path.join(ROOT, "bench/servers/lists-fill.ts"), dir, String(n)],
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (err = (err + c.toString("utf8")).slice(-4000)));
    child.once("exit", (code) => {
      const line = out.split("\n").find((l) => l.startsWith(READY_PREFIX));
      if (code === 0 && line) resolve(JSON.parse(line.slice(READY_PREFIX.length)) as Filled);
      else reject(new Error(`filling ${n} failed (exit ${code}): ${err.trim().split("\n").slice(-3).join(" | ")}`));
    });
  });
}

function dirBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? dirBytes(full) : fs.statSync(full).size;
  }
  return total;
}

function start(dir: string): Promise<ServerChild<Started>> {
  return spawnServer<Started>({
    args: ["--import", "tsx", path.join(ROOT, "bench/servers/lists-sandbox.ts"), dir],
    cwd: ROOT,
    timeoutMs: 180_000,
  });
}

function rssMB(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

/** One signed GET, timed from the request to the parsed answer; a non-2xx answer is an error. */
async function timed(s: Size, q: Query): Promise<number> {
  const t0 = performance.now();
  const answer = await s.transport.request({ method: "GET", path: q.path(s), query: q.query(s) });
  const ms = performance.now() - t0;
  if (answer.status !== 200) throw new Error(`${q.name} at ${s.n}: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
  return ms;
}

const ws = (s: Size) => `/api/v1/workspaces/${s.server.info.workspace_id}`;
const QUERIES: Query[] = [
  { name: "wallets: first page", path: (s) => `${ws(s)}/wallets`, query: () => ({}) },
  {
    name: "wallets: middle page",
    path: (s) => `${ws(s)}/wallets`,
    query: (s) => ({ offset: String(Math.floor(s.n / 2)) }),
  },
  { name: "wallets: last page", path: (s) => `${ws(s)}/wallets`, query: (s) => ({ offset: String(s.n - 20) }) },
  {
    name: "withdrawals: first page",
    path: (s) => `/api/v1/wallets/${s.filled.busyWalletId}/withdrawals`,
    query: () => ({}),
  },
  {
    name: "withdrawals: middle page",
    path: (s) => `/api/v1/wallets/${s.filled.busyWalletId}/withdrawals`,
    query: (s) => ({ offset: String(Math.floor(s.n / 2)) }),
  },
  {
    name: "withdrawals: filtered page (status=failed, middle)",
    path: (s) => `/api/v1/wallets/${s.filled.busyWalletId}/withdrawals`,
    query: (s) => ({ status: "failed", offset: String(Math.floor(s.n / 16)) }),
  },
  { name: "deliveries: first page", path: (s) => `${ws(s)}/webhook-logs`, query: () => ({}) },
  {
    name: "deliveries: middle page",
    path: (s) => `${ws(s)}/webhook-logs`,
    query: (s) => ({ offset: String(Math.floor(s.n / 2)) }),
  },
  {
    name: "deliveries: filtered page (status=failed, middle)",
    path: (s) => `${ws(s)}/webhook-logs`,
    query: (s) => ({ status: "failed", offset: String(Math.floor(s.n / 8)) }),
  },
  {
    name: "transactions: filtered page (wallet, withdrawals)",
    path: (s) => `${ws(s)}/transactions`,
    query: (s) => ({ wallet_id: s.filled.busyWalletId, direction: "withdrawal", offset: String(Math.floor(s.n / 4)) }),
  },
];
const HEALTH: Query = { name: "health", path: () => "/api/v1/health", query: () => ({}) };

/** Warm-ups per query and size: the first reads of a restarted server parse the records they touch and warm the JIT. */
const WARM_UPS = 15;

/** Median of `runs` timings of q on each size, interleaved (small, large, small, ...) after the warm-ups. */
async function latency(sizes: Size[], q: Query, runs: number): Promise<number[]> {
  for (let i = 0; i < WARM_UPS; i++) for (const s of sizes) await timed(s, q);
  const samples: number[][] = sizes.map(() => []);
  for (let r = 0; r < runs; r++) for (const [i, s] of sizes.entries()) samples[i].push(await timed(s, q));
  return samples.map((xs) => median(xs));
}

/** Health latency while 4 clients keep asking for the first page of the wallets. */
async function healthUnderLists(s: Size, runs: number): Promise<number> {
  let stop = false;
  const load = Array.from({ length: 4 }, async () => {
    while (!stop) await timed(s, QUERIES[0]);
  });
  await new Promise((r) => setTimeout(r, 200));
  const xs: number[] = [];
  for (let r = 0; r < runs; r++) xs.push(await timed(s, HEALTH));
  stop = true;
  await Promise.all(load);
  return median(xs);
}

const fmt = (v: number | undefined | null, digits = 1) =>
  v === undefined || v === null || !Number.isFinite(v)
    ? "—"
    : v >= 100
      ? Math.round(v).toLocaleString("en-US")
      : v.toFixed(digits);
const n = (v: number) => v.toLocaleString("en-US");

interface Row {
  name: string;
  small: number | undefined;
  large: number | undefined;
  unit: string;
  goal?: string;
  met?: boolean;
}

/** Fills a fresh data directory with `count` of each record, restarts on it twice and connects a client. */
async function prepareSize(count: number): Promise<Size> {
  const dir = path.join(WORK, String(count));
  fs.rmSync(dir, { recursive: true, force: true });
  process.stderr.write(`lists: filling ${n(count)} wallets, withdrawals and deliveries…\n`);
  const filled = await fill(dir, count);
  const bytes = dirBytes(dir);
  // Restart twice (the first also warms the page cache the second reads from): both are reported.
  const restarts: Started[] = [];
  let server = await start(dir);
  restarts.push(server.info);
  await server.stop();
  server = await start(dir);
  restarts.push(server.info);
  process.stderr.write(
    `lists: ${n(count)}: ${n(filled.records)} records, restart ${restarts.map((r) => r.start_ms).join(" / ")} ms\n`,
  );
  const transport = createTransport({
    baseUrl: server.info.base_url,
    apiKey: server.info.api_key,
    apiSecret: server.info.api_secret,
    retry: false,
    timeoutMs: 60_000,
  });
  return { n: count, dir, filled, dirBytes: bytes, restarts, server, transport };
}

/** Request latency of each list query and of the health check, idle and under list load; then memory, servers stopped. */
async function measureRequests(sizes: Size[], runs: number): Promise<Row[]> {
  const rows: Row[] = [];
  // A restarted large heap is still being marked by the collector for a while: let it settle first.
  await new Promise((r) => setTimeout(r, 5_000));
  try {
    for (const q of QUERIES) {
      process.stderr.write(`lists: ${q.name}\n`);
      const [small, large] = await latency(sizes, q, runs);
      const first = q.name.endsWith("first page");
      rows.push({
        name: q.name,
        small,
        large,
        unit: "ms",
        ...(first ? { goal: "≤ 1.5x and < 20 ms", met: large / small <= 1.5 && large < 20 } : {}),
      });
    }
    const [idleSmall, idleLarge] = await latency(sizes, HEALTH, runs);
    rows.push({ name: "health, idle", small: idleSmall, large: idleLarge, unit: "ms" });
    rows.push({
      name: "health, while 4 clients read wallet pages",
      small: await healthUnderLists(sizes[0], runs),
      large: await healthUnderLists(sizes[1], runs),
      unit: "ms",
    });
    for (const s of sizes) s.rssMB = rssMB(s.server.info.pid);
  } finally {
    for (const s of sizes) s.peakRssMB = await s.server.stop();
  }
  return rows;
}

/** The restart phases (medians of the two restarts) beside each other for the two sizes. */
function restartRows(small: Size, large: Size): Row[] {
  const restart = (s: Size, key: keyof Started) => median(s.restarts.map((r) => Number(r[key])));
  return [
    {
      name: "restart: startSandbox on the data directory (median of 2)",
      small: restart(small, "start_ms"),
      large: restart(large, "start_ms"),
      unit: "ms",
      goal: "< 5,000 ms",
      met: restart(large, "start_ms") < 5_000,
    },
    {
      name: "restart: CPU time of the sandbox process (all threads)",
      small: restart(small, "start_cpu_ms"),
      large: restart(large, "start_cpu_ms"),
      unit: "ms",
    },
    {
      name: "restart: of which store replay",
      small: restart(small, "store_ms"),
      large: restart(large, "store_ms"),
      unit: "ms",
    },
    {
      name: "restart: of which chain",
      small: restart(small, "chain_ms"),
      large: restart(large, "chain_ms"),
      unit: "ms",
    },
    {
      name: "restart: of which indexes and resuming work",
      small: restart(small, "app_ms"),
      large: restart(large, "app_ms"),
      unit: "ms",
    },
  ];
}

/** Memory, store size and fill/stop times beside each other for the two sizes. */
function storeRows(small: Size, large: Size): Row[] {
  return [
    { name: "server RSS after the requests", small: small.rssMB, large: large.rssMB, unit: "MB" },
    { name: "server peak RSS", small: small.peakRssMB ?? undefined, large: large.peakRssMB ?? undefined, unit: "MB" },
    { name: "records in the store", small: small.filled.records, large: large.filled.records, unit: "" },
    {
      name: "heap per record while filling (after GC)",
      small: small.filled.heap_bytes_per_record,
      large: large.filled.heap_bytes_per_record,
      unit: "B",
    },
    { name: "data directory", small: small.dirBytes / 2 ** 20, large: large.dirBytes / 2 ** 20, unit: "MB" },
    { name: "fill through the store", small: small.filled.fill_ms, large: large.filled.fill_ms, unit: "ms" },
    {
      name: "stop (compaction into the snapshot)",
      small: small.filled.close_ms,
      large: large.filled.close_ms,
      unit: "ms",
    },
  ];
}

/** The Markdown table of the rows, with the conditions of the run under it. */
function renderTable(rows: Row[], small: Size, large: Size, runs: number, load: number): string {
  const header = `| measure | ${n(small.n)} | ${n(large.n)} | ratio | goal |\n|---|---:|---:|---:|---|`;
  const body = rows
    .map((r) => {
      const ratio =
        r.small !== undefined && r.large !== undefined && r.small > 0 ? `${(r.large / r.small).toFixed(2)}x` : "—";
      const goal = r.goal === undefined ? "" : `${r.goal}: ${r.met ? "met" : "**not met**"}`;
      return `| ${r.name} | ${fmt(r.small)} ${r.unit} | ${fmt(r.large)} ${r.unit} | ${ratio} | ${goal} |`;
    })
    .join("\n");
  const when = new Date().toISOString().slice(0, 16).replace("T", " ");
  const conditions = `${when} UTC, node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), load average ${load.toFixed(1)} at the start (the machine is shared), ${runs} runs per figure, medians; latency measured by the client (signing, HTTP over loopback, parsing), the two sizes interleaved.`;
  return `${header}\n${body}\n\n${conditions}`;
}

/** Writes the results file and, with --write, the table between the markers of the measurements page. */
function saveResults(table: string, rows: Row[], load: number, runs: number, counts: number[], write: boolean): void {
  fs.writeFileSync(
    RESULTS,
    `${JSON.stringify({ at: new Date().toISOString(), load, runs, sizes: counts, rows }, null, 2)}\n`,
  );
  if (write) {
    const doc = fs.readFileSync(DOC, "utf8");
    const next = doc.replace(
      /<!-- lists:begin -->[\s\S]*<!-- lists:end -->/,
      `<!-- lists:begin -->\n${table}\n<!-- lists:end -->`,
    );
    fs.writeFileSync(DOC, next);
  }
}

async function main(): Promise<void> {
  const { sizes: counts, runs, write } = args();
  fs.mkdirSync(WORK, { recursive: true });
  const load = os.loadavg()[0];
  const sizes: Size[] = [];
  for (const count of counts) sizes.push(await prepareSize(count));
  const rows = await measureRequests(sizes, runs);
  const [small, large] = sizes;
  rows.push(...restartRows(small, large), ...storeRows(small, large));
  const table = renderTable(rows, small, large, runs, load);
  process.stdout.write(`${table}\n`);
  saveResults(table, rows, load, runs, counts, write);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench lists: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
