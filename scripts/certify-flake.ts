// Flake run (not part of npm test): `custody certify --sandbox` N times in a row, then M times while
// other processes keep every core busy, each a fresh command as a user runs it. Prints each run (exit
// status, wall time, what failed) and the totals: runs certified / total, wall times (median, max).
// A correct deployment must certify every time; any other outcome is a flake to fix.
//
//   node --import tsx scripts/certify-flake.ts [--runs 20] [--loaded-runs 5] [--burners N] [--json FILE] [-- extra certify flags]
//
// --burners defaults to the number of cores; each burner is a busy loop in its own process.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(ROOT, "bin/custody.js");

interface Run {
  phase: "in a row" | "beside busy loops";
  index: number;
  exitCode: number | null;
  seconds: number;
  certified: boolean;
  /** Failed or skipped MUST checks, with their messages. */
  problems: string[];
  load: number;
}

const { values, positionals } = parseArgs({
  options: {
    runs: { type: "string", default: "20" },
    "loaded-runs": { type: "string", default: "5" },
    burners: { type: "string", default: String(availableParallelism()) },
    json: { type: "string" },
  },
  allowPositionals: true,
});
const runs = count(values.runs, "--runs");
const loadedRuns = count(values["loaded-runs"], "--loaded-runs");
const burners = count(values.burners, "--burners");

function count(raw: string | undefined, flag: string): number {
  const n = Number(raw);
  if (!/^\d+$/.test(String(raw)) || n < 0) {
    console.error(`certify-flake: ${flag} must be a whole number, not "${raw}"`);
    process.exit(2);
  }
  return n;
}

const dir = mkdtempSync(join(tmpdir(), "certify-flake-"));
const results: Run[] = [];
try {
  console.log(
    `certify-flake: ${runs} runs, then ${loadedRuns} with ${burners} busy process(es); ${availableParallelism()} cores; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  for (let i = 1; i <= runs; i++) results.push(report(await certifyOnce("in a row", i)));
  if (loadedRuns > 0) {
    const busy = Array.from({ length: burners }, burn);
    try {
      for (let i = 1; i <= loadedRuns; i++) results.push(report(await certifyOnce("beside busy loops", i)));
    } finally {
      for (const b of busy) b.kill("SIGKILL");
    }
  }
  const summary = summarize(results);
  console.log(summary.lines.join("\n"));
  if (values.json)
    writeFileSync(values.json, `${JSON.stringify({ runs: results, summary: summary.totals }, null, 2)}\n`);
  process.exitCode = summary.totals.certified === results.length ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}

async function certifyOnce(phase: Run["phase"], index: number): Promise<Run> {
  const file = join(dir, `${phase.replaceAll(" ", "-")}-${index}.json`);
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [BIN, "certify", "--sandbox", "--quiet", "--no-color", "--json", file, ...positionals],
    { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const exitCode = await new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const seconds = (performance.now() - started) / 1000;
  const run: Run = { phase, index, exitCode, seconds, certified: false, problems: [], load: loadavg()[0] };
  try {
    const r = JSON.parse(readFileSync(file, "utf8")) as {
      summary: { certified: boolean };
      checks: Array<{ id: string; severity: string; status: string; message: string | null }>;
    };
    run.certified = r.summary.certified && exitCode === 0;
    run.problems = r.checks
      .filter((c) => c.status !== "passed" && (c.severity === "MUST" || c.status === "failed"))
      .map((c) => `${c.id} ${c.status}: ${c.message ?? ""}`);
  } catch {
    run.problems = [`no report (exit ${exitCode}): ${stderr.trim().split("\n").slice(-2).join(" | ")}`];
  }
  return run;
}

function report(run: Run): Run {
  const mark = run.certified ? "certified" : `NOT certified (exit ${run.exitCode})`;
  console.log(
    `${run.phase} ${String(run.index).padStart(2)}: ${mark} in ${run.seconds.toFixed(1)} s (load ${run.load.toFixed(1)})`,
  );
  for (const p of run.problems) console.log(`    ${p}`);
  return run;
}

/** One busy loop per process, to keep a core saturated while certify runs. */
function burn(): ChildProcess {
  return spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" });
}

function summarize(all: Run[]) {
  const line = (phase: Run["phase"]) => {
    const list = all.filter((r) => r.phase === phase);
    if (list.length === 0) return undefined;
    const times = list.map((r) => r.seconds).sort((a, b) => a - b);
    const median = times[Math.floor((times.length - 1) / 2)];
    return `${phase}: ${list.filter((r) => r.certified).length} / ${list.length} certified; wall median ${median.toFixed(1)} s, max ${times[times.length - 1].toFixed(1)} s`;
  };
  const totals = { certified: all.filter((r) => r.certified).length, total: all.length };
  return {
    totals,
    lines: [
      "",
      ...[line("in a row"), line("beside busy loops")].filter((l): l is string => l !== undefined),
      `total: ${totals.certified} / ${totals.total} certified`,
    ],
  };
}
