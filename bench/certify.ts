// Section "certify": (1) wall time of `custody certify --sandbox` for the full suite, as a user runs it,
// beside the same command at the revision before issue 30's work (same run, interleaved) and the goal;
// (2) how the runner's own overhead grows with the number of operations: spec copies with 2x and 4x
// the operations, generated, then the per-operation groups run programmatically (runSuite, the same
// code the CLI calls) against a fake target that answers every request at once.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parse } from "yaml";
import type { Target } from "../conformance/run/config.ts";
import { normalizeOperation, type OperationInfo } from "../conformance/run/operations.ts";
import { runSuite } from "../conformance/run/runner.ts";
import type { Group } from "../conformance/checks/types.ts";
import { measureNode } from "./child.ts";
import type { BenchContext, SectionResult } from "./context.ts";
import { spawnServer, type ServerChild } from "./spawn-server.ts";
import { baselineTree } from "./baseline-tree.ts";
import { loadavg } from "node:os";
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
        if (op) copy[method] = { ...op, ...(typeof op.operationId === "string" ? { operationId: `${op.operationId}C${k}` } : {}) };
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
    fixtureIds: { walletId: "wal_bench", assetId: "eth", withdrawalId: "wd_bench", deliveryId: "dlv_bench", webhookId: "wh_bench" },
  };
}

async function servedCount(baseUrl: string): Promise<number> {
  const res = await fetch(`${baseUrl}/__bench/requests`);
  return ((await res.json()) as { served: number }).served;
}

/**
 * The revision before certify's runs were made concurrent, clean and flake-free (issue 30): its wall time
 * is measured in the same run as today's, interleaved, for the before/after ratio.
 */
export const CERTIFY_BEFORE_REF = "d045cae";
/** The wall-time goal of `custody certify --sandbox` on the 2-core reference machine. */
const GOAL_SECONDS = 6;

interface CertifyRun {
  seconds: number;
  summary?: ReportSummary;
  failure?: string;
}

async function certifyOnce(cwd: string, json: string, extra: string[] = []): Promise<CertifyRun> {
  const m = await measureNode({ script: join(cwd, "bin/custody.js"), args: ["certify", "--sandbox", "--json", json, "--quiet", "--no-color", ...extra], cwd, timeoutMs: 300_000 });
  // Exit 1 (a MUST check failed) or 3 is still a complete run; only 2 or a crash means no figure.
  if (m.exitCode !== 0 && m.exitCode !== 1 && m.exitCode !== 3) {
    return { seconds: m.wallSeconds, failure: `${m.failure ?? `exit ${m.exitCode}`}: ${m.stderr.trim().split("\n").slice(-2).join(" | ").slice(0, 300)}` };
  }
  try {
    return { seconds: m.wallSeconds, summary: (JSON.parse(readFileSync(json, "utf8")) as { summary: ReportSummary }).summary };
  } catch {
    return { seconds: m.wallSeconds, failure: "the --json report could not be read" };
  }
}

/** `custody certify --sandbox` (extra flags alike) today and at CERTIFY_BEFORE_REF, interleaved after a warm-up of each. */
export async function certifyBeforeAfter(ctx: BenchContext, label: string, extra: string[] = []): Promise<{ now: number[]; before: number[]; summary?: ReportSummary; notes: string[] }> {
  const dir = ctx.scratch(`certify-${label}`);
  const runs = ctx.quick ? 1 : 3;
  const notes: string[] = [];
  let beforeRoot: string | undefined;
  try {
    beforeRoot = baselineTree(ctx.root, CERTIFY_BEFORE_REF);
  } catch (error) {
    notes.push(`certify: no before figure: ${(error as Error).message}`);
  }
  const now: number[] = [];
  const before: number[] = [];
  let summary: ReportSummary | undefined;
  // A warm-up each (the TypeScript loader's cache, anvil's first start), then interleaved runs.
  for (let i = -1; i < runs; i++) {
    const ours = await certifyOnce(ctx.root, join(dir, `now-${i}.json`), extra);
    if (ours.failure) {
      notes.push(`certify ${label}: today's run did not complete: ${ours.failure}`);
      break;
    }
    summary = ours.summary;
    const old = beforeRoot ? await certifyOnce(beforeRoot, join(dir, `before-${i}.json`), extra) : undefined;
    if (old?.failure) notes.push(`certify ${label}: the ${CERTIFY_BEFORE_REF} run did not complete: ${old.failure}`);
    if (i < 0) continue;
    now.push(ours.seconds);
    if (old && !old.failure) before.push(old.seconds);
    ctx.log(`certify --sandbox ${extra.join(" ")}: ${ours.seconds.toFixed(1)} s; at ${CERTIFY_BEFORE_REF}: ${old && !old.failure ? `${old.seconds.toFixed(1)} s` : "—"} (load ${loadavg()[0].toFixed(1)})`);
  }
  return { now, before, summary, notes };
}

async function fullSuite(ctx: BenchContext): Promise<{ entries: ResultEntry[]; notes: string[] }> {
  const { now, before, summary, notes } = await certifyBeforeAfter(ctx, "full");
  const entries: ResultEntry[] = [];
  if (now.length > 0) {
    const counts = summary ? `${summary.total} checks: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped${summary.certified ? "" : " (not certified)"}` : undefined;
    const runs = now.length > 1 ? `median of ${now.length}, interleaved` : "1 run";
    const name = "certify --sandbox, full suite (wall, incl. sandbox start)";
    entries.push(entry(name, median(now), `before (${CERTIFY_BEFORE_REF}, same run)`, before.length > 0 ? median(before) : null, "s", [counts, runs].filter(Boolean).join("; ")));
    entries.push(entry(name, median(now), `goal: under ${GOAL_SECONDS} s`, GOAL_SECONDS, "s", `load average ${loadavg().map((l) => l.toFixed(1)).join(" ")} at the end`));
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
    const m = await measureNode({ script: join(ctx.root, "bin/custody.js"), args: ["generate", "--spec", specPath, "--no-rpc", "--out", out], cwd: ctx.root, timeoutMs: 180_000 });
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
      env: { BENCH_FLOOR_COUNT: "1", BENCH_FLOOR_BODY: JSON.stringify({ success: true, message: "success", code: 0, data: {} }) },
    });
    const target = fakeTarget(fake.info.base_url);
    const runs = ctx.quick ? 3 : 5;
    ctx.log(`certify scaling: 1 warm-up + ${runs} runs per size (groups ${PER_OPERATION_GROUPS.join(",")}, fake instant target)`);
    for (let round = 0; round < runs + 1; round++) {
      for (const times of MULTIPLIERS) {
        const before = await servedCount(target.baseUrl);
        const started = performance.now();
        const result = await runSuite({ target, options: { level: "full", only: PER_OPERATION_GROUPS, timeoutMs: 10_000, concurrency: 8 }, operations: tables.get(times)! });
        const seconds = (performance.now() - started) / 1000;
        if (result.kind !== "completed") throw new Error(`the preflight stopped the run: ${result.failure.lines.join(" ")}`);
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
      MULTIPLIERS.map((m) => `${m}x ${t(m).toFixed(2)} s (${requests[m]} requests, ${((t(m) * 1000) / Math.max(1, requests[m])).toFixed(2)} ms/request)`).join(", ") +
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
