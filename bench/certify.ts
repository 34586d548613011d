// Section "certify": (1) wall time and CPU time (user + system of every process of the run, the chain's
// included) of `custody certify --sandbox` for the full suite, as a user runs it, beside the same command
// at the revision before the CPU work (same run, interleaved) and the goals;
// (2) how the runner's own overhead grows with the number of operations: spec copies with 2x and 4x
// the operations, generated, then the per-operation groups run programmatically (runSuite, the same
// code the CLI calls) against a fake target that answers every request at once.
import { readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parse } from "yaml";
import type { Group } from "../conformance/checks/types.ts";
import type { Target } from "../conformance/run/config.ts";
import { normalizeOperation, type OperationInfo } from "../conformance/run/operations.ts";
import { runSuite } from "../conformance/run/runner.ts";
import { baselineTree } from "./baseline-tree.ts";
import { measureNode } from "./child.ts";
import type { BenchContext, SectionResult } from "./context.ts";
import { type ServerChild, spawnServer } from "./spawn-server.ts";
import { entry, median, type ResultEntry } from "./stats.ts";

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
/** The groups whose work is per operation; the others wait on a chain or a webhook, not on the catalog. */
const PER_OPERATION_GROUPS: Group[] = ["envelope", "auth", "scope", "role"];
const MULTIPLIERS = [1, 2, 4] as const;

interface ReportSummary {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  certified: boolean;
}

/**
 * The spec with its operations repeated `times` times: copy k lives under /api/v1/c<k>/… with
 * operationIds suffixed C<k>; everything else (components, webhooks) is shared.
 */
export function multiplySpec(document: Record<string, unknown>, times: number): Record<string, unknown> {
  const paths = (document.paths ?? {}) as Record<string, Record<string, unknown>>;
  const out: Record<string, Record<string, unknown>> = { ...paths };
  for (let k = 2; k <= times; k++) {
    for (const [path, item] of Object.entries(paths)) {
      const copyPath = path.startsWith("/api/v1/") ? `/api/v1/c${k}/${path.slice("/api/v1/".length)}` : `/c${k}${path}`;
      const copy: Record<string, unknown> = { ...item };
      for (const method of HTTP_METHODS) {
        const op = item[method] as Record<string, unknown> | undefined;
        if (op)
          copy[method] = {
            ...op,
            ...(typeof op.operationId === "string" ? { operationId: `${op.operationId}C${k}` } : {}),
          };
      }
      out[copyPath] = copy;
    }
  }
  return { ...document, paths: out };
}

async function loadOperations(dir: string): Promise<OperationInfo[]> {
  const mod = (await import(pathToFileURL(join(dir, "operations.ts")).href)) as Record<string, unknown>;
  const raw = mod.operationList ?? (mod.operations && Object.values(mod.operations as object));
  if (!Array.isArray(raw)) throw new Error(`${dir}/operations.ts exports no operations`);
  return raw.map(normalizeOperation);
}

function fakeTarget(baseUrl: string): Target {
  return {
    baseUrl,
    rpcUrl: baseUrl,
    wsUrl: `${baseUrl.replace(/^http/, "ws")}/ws`,
    admin: { apiKey: "bench-admin", apiSecret: "bench-admin-secret" },
    viewer: { apiKey: "bench-viewer", apiSecret: "bench-viewer-secret" },
    scoped: { apiKey: "bench-scoped", apiSecret: "bench-scoped-secret" },
    rpcApiKey: "bench-rpc",
    workspaceId: "ws_bench",
    fixtureIds: {
      walletId: "wal_bench",
      assetId: "eth",
      withdrawalId: "wd_bench",
      deliveryId: "dlv_bench",
      webhookId: "wh_bench",
    },
  };
}

async function servedCount(baseUrl: string): Promise<number> {
  const res = await fetch(`${baseUrl}/__bench/requests`);
  return ((await res.json()) as { served: number }).served;
}

/**
 * The revision before the CPU work of issue 35 (sources compiled once instead of loaded through tsx,
 * then bundled; see docs/measurements/certify.md): measured in the same run as today's, interleaved.
 */
export const CERTIFY_BEFORE_REF = "3ecbbde";
/** The goals of `custody certify --sandbox` on the quiet 2-core reference machine (median of 10). */
const GOAL_SECONDS = 4.5;
const GOAL_CPU_SECONDS = 6;
const FULL_RUNS = 10;

interface CertifyRun {
  seconds: number;
  /** User + system CPU of the run's whole process tree (null where /proc is missing). */
  cpuSeconds: number | null;
  summary?: ReportSummary;
  failure?: string;
}

/**
 * CPU seconds (user + system) of this process's children that have ended and been waited for, the
 * children's children included (Linux /proc/self/stat cutime + cstime, as getrusage(RUSAGE_CHILDREN)):
 * read before and after one run, the difference is what that run's processes used, anvil's included.
 */
export function childrenCpuSeconds(): number | null {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 16 and 17 of stat(5) (cutime, cstime); the slice starts at field 3.
    return (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}
/** sysconf(_SC_CLK_TCK): 100 on every Linux Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

async function certifyOnce(cwd: string, json: string, extra: string[] = []): Promise<CertifyRun> {
  const cpuBefore = childrenCpuSeconds();
  const m = await measureNode({
    script: join(cwd, "bin/custody.js"),
    args: ["certify", "--sandbox", "--json", json, "--quiet", "--no-color", ...extra],
    cwd,
    timeoutMs: 300_000,
  });
  const cpuAfter = childrenCpuSeconds();
  const run = {
    seconds: m.wallSeconds,
    cpuSeconds: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
  };
  // Exit 1 (a MUST check failed) or 3 is still a complete run; only 2 or a crash means no figure.
  if (m.exitCode !== 0 && m.exitCode !== 1 && m.exitCode !== 3) {
    return {
      ...run,
      failure: `${m.failure ?? `exit ${m.exitCode}`}: ${m.stderr.trim().split("\n").slice(-2).join(" | ").slice(0, 300)}`,
    };
  }
  try {
    return { ...run, summary: (JSON.parse(readFileSync(json, "utf8")) as { summary: ReportSummary }).summary };
  } catch {
    return { ...run, failure: "the --json report could not be read" };
  }
}

export interface BeforeAfter {
  /** Wall seconds of today's runs and of CERTIFY_BEFORE_REF's. */
  now: number[];
  before: number[];
  nowCpu: number[];
  beforeCpu: number[];
  /** Today's runs that certified, of all of today's runs. */
  certified: { runs: number; certified: number };
  summary?: ReportSummary;
  notes: string[];
}

/** `custody certify --sandbox` (extra flags alike) today and at CERTIFY_BEFORE_REF, interleaved after a warm-up of each. */
export async function certifyBeforeAfter(
  ctx: BenchContext,
  label: string,
  extra: string[] = [],
  fullRuns = 3,
): Promise<BeforeAfter> {
  const dir = ctx.scratch(`certify-${label}`);
  const runs = ctx.quick ? 1 : fullRuns;
  const out: BeforeAfter = {
    now: [],
    before: [],
    nowCpu: [],
    beforeCpu: [],
    certified: { runs: 0, certified: 0 },
    notes: [],
  };
  let beforeRoot: string | undefined;
  try {
    beforeRoot = baselineTree(ctx.root, CERTIFY_BEFORE_REF);
  } catch (error) {
    out.notes.push(`certify: no before figure: ${(error as Error).message}`);
  }
  // A warm-up each (compiled sources or the TypeScript loader's cache, anvil's first start), then interleaved runs.
  for (let i = -1; i < runs; i++) {
    const ours = await certifyOnce(ctx.root, join(dir, `now-${i}.json`), extra);
    if (ours.failure) {
      out.notes.push(`certify ${label}: today's run did not complete: ${ours.failure}`);
      break;
    }
    out.summary = ours.summary;
    const old = beforeRoot ? await certifyOnce(beforeRoot, join(dir, `before-${i}.json`), extra) : undefined;
    if (old?.failure)
      out.notes.push(`certify ${label}: the ${CERTIFY_BEFORE_REF} run did not complete: ${old.failure}`);
    if (i < 0) continue;
    record(out, ours, old);
    const cpu = (r?: CertifyRun) => (r?.cpuSeconds != null ? `, ${r.cpuSeconds.toFixed(1)} s CPU` : "");
    const then = old && !old.failure ? `${old.seconds.toFixed(1)} s${cpu(old)}` : "—";
    ctx.log(
      `certify --sandbox ${extra.join(" ")}: ${ours.seconds.toFixed(1)} s${cpu(ours)}; at ${CERTIFY_BEFORE_REF}: ${then} (load ${loadavg()[0].toFixed(1)})`,
    );
  }
  return out;
}

function record(out: BeforeAfter, ours: CertifyRun, old: CertifyRun | undefined): void {
  out.now.push(ours.seconds);
  if (ours.cpuSeconds !== null) out.nowCpu.push(ours.cpuSeconds);
  out.certified.runs++;
  if (ours.summary?.certified) out.certified.certified++;
  if (!old || old.failure) return;
  out.before.push(old.seconds);
  if (old.cpuSeconds !== null) out.beforeCpu.push(old.cpuSeconds);
}

async function fullSuite(ctx: BenchContext): Promise<{ entries: ResultEntry[]; notes: string[] }> {
  const { now, before, nowCpu, beforeCpu, certified, summary, notes } = await certifyBeforeAfter(
    ctx,
    "full",
    [],
    FULL_RUNS,
  );
  const entries: ResultEntry[] = [];
  if (now.length > 0) {
    const counts = summary
      ? `${summary.total} checks: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`
      : undefined;
    const runs = `median of ${now.length}, interleaved; ${certified.certified} of ${certified.runs} runs certified`;
    const load = `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} at the end`;
    const name = "certify --sandbox, full suite (wall, incl. sandbox start)";
    const cpuName = "certify --sandbox, full suite (CPU: user + system, every process)";
    const median_ = (values: number[]) => (values.length > 0 ? median(values) : null);
    entries.push(
      entry(
        name,
        median(now),
        `before (${CERTIFY_BEFORE_REF}, same run)`,
        median_(before),
        "s",
        [counts, runs].filter(Boolean).join("; "),
      ),
    );
    entries.push(entry(name, median(now), `goal: under ${GOAL_SECONDS} s`, GOAL_SECONDS, "s", load));
    if (nowCpu.length > 0) {
      entries.push(
        entry(cpuName, median(nowCpu), `before (${CERTIFY_BEFORE_REF}, same run)`, median_(beforeCpu), "s", runs),
      );
      entries.push(entry(cpuName, median(nowCpu), `goal: under ${GOAL_CPU_SECONDS} s`, GOAL_CPU_SECONDS, "s", load));
    }
  }
  return { entries, notes };
}

async function scaling(ctx: BenchContext): Promise<{ entries: ResultEntry[]; notes: string[] }> {
  const dir = ctx.scratch("certify-scaling");
  const document = parse(readFileSync(join(ctx.root, "spec/openapi.yaml"), "utf8")) as Record<string, unknown>;
  const tables = new Map<number, OperationInfo[]>();
  const generateTimes = new Map<number, number>();
  for (const times of MULTIPLIERS) {
    const specPath = join(dir, `openapi-x${times}.json`);
    writeFileSync(specPath, JSON.stringify(multiplySpec(document, times)));
    const out = join(dir, `generated-x${times}`);
    const m = await measureNode({
      script: join(ctx.root, "bin/custody.js"),
      args: ["generate", "--spec", specPath, "--no-rpc", "--out", out],
      cwd: ctx.root,
      timeoutMs: 180_000,
    });
    if (!m.ok) throw new Error(`generating the ${times}x spec failed: ${m.failure}: ${m.stderr.trim().slice(-300)}`);
    generateTimes.set(times, m.wallSeconds);
    tables.set(times, await loadOperations(out));
  }
  let fake: ServerChild<{ base_url: string }> | undefined;
  const wall: Record<number, number[]> = { 1: [], 2: [], 4: [] };
  const requests: Record<number, number> = {};
  try {
    fake = await spawnServer<{ base_url: string }>({
      args: ["--import", "tsx", join(ctx.root, "bench/servers/floor-http.ts")],
      cwd: ctx.root,
      env: {
        BENCH_FLOOR_COUNT: "1",
        BENCH_FLOOR_BODY: JSON.stringify({ success: true, message: "success", code: 0, data: {} }),
      },
    });
    const target = fakeTarget(fake.info.base_url);
    const runs = ctx.quick ? 3 : 5;
    ctx.log(
      `certify scaling: 1 warm-up + ${runs} runs per size (groups ${PER_OPERATION_GROUPS.join(",")}, fake instant target)`,
    );
    for (let round = 0; round < runs + 1; round++) {
      for (const times of MULTIPLIERS) {
        const before = await servedCount(target.baseUrl);
        const started = performance.now();
        const result = await runSuite({
          target,
          options: { level: "full", only: PER_OPERATION_GROUPS, timeoutMs: 10_000, concurrency: 8 },
          operations: tables.get(times)!,
        });
        const seconds = (performance.now() - started) / 1000;
        if (result.kind !== "completed")
          throw new Error(`the preflight stopped the run: ${result.failure.lines.join(" ")}`);
        requests[times] = (await servedCount(target.baseUrl)) - before;
        if (round > 0) wall[times].push(seconds);
      }
    }
  } finally {
    await fake?.stop();
  }
  const t = (times: number) => median(wall[times]);
  const entries: ResultEntry[] = [];
  for (const times of [2, 4] as const) {
    const growth = t(times) / t(1);
    entries.push(
      entry(
        `certify runner overhead, ${times}x operations (${tables.get(times)!.length} ops) vs 1x (${tables.get(1)!.length})`,
        growth,
        `linear growth (${times}x)`,
        times,
        "x",
        `${t(1).toFixed(2)} s → ${t(times).toFixed(2)} s; requests ${requests[1]} → ${requests[times]}`,
      ),
    );
  }
  const notes = [
    `certify scaling: runner wall time for groups ${PER_OPERATION_GROUPS.join(", ")} against an instant fake target: ` +
      MULTIPLIERS.map(
        (m) =>
          `${m}x ${t(m).toFixed(2)} s (${requests[m]} requests, ${((t(m) * 1000) / Math.max(1, requests[m])).toFixed(2)} ms/request)`,
      ).join(", ") +
      `; generating those specs took ${MULTIPLIERS.map((m) => `${generateTimes.get(m)!.toFixed(2)} s`).join(", ")}.`,
  ];
  return { entries, notes };
}

export async function benchCertify(ctx: BenchContext): Promise<SectionResult> {
  const entries: ResultEntry[] = [];
  const notes: string[] = [];
  for (const part of [fullSuite, scaling]) {
    try {
      const r = await part(ctx);
      entries.push(...r.entries);
      notes.push(...r.notes);
    } catch (error) {
      notes.push(`certify (${part.name}): ${(error as Error).message}`);
    }
  }
  return { entries, notes };
}
