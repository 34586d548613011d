// A vitest reporter: at the end of the run, the ten test files that took longest (wall time, with the
// CPU time their worker and its child processes spent, from file-cpu.ts), the run's CPU in all, and
// every file's figures in
// test-output/file-durations.json (file-durations.scale.json for `npm run test:scale`, which runs after
// it in CI), so a slow file is seen in CI's log without a second run.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

export const OUTPUT_DIR = join(import.meta.dirname, "..", "..", "test-output");
/** Where this run's workers write their CPU figures: one folder per run, so two runs side by side do not mix. */
export const CPU_DIR_ENV = "CUSTODY_TEST_CPU_DIR";
const SHOWN = 10;

export interface FileFigures {
  file: string;
  wallMs: number;
  cpuMs?: number;
  /** CPU of the child processes the file started and waited for (tsc, npm, anvil). */
  childCpuMs?: number;
  tests: number;
  state: string;
  /** When the file started, from the start of the run: shows which files ran side by side. */
  startMs?: number;
}

export default class SlowestFiles implements Reporter {
  private readonly cpuDir = join(OUTPUT_DIR, `file-cpu-${process.pid}`);
  private readonly started = new Map<string, number>();
  private runStart = performance.now();

  constructor(private readonly options: { output?: string } = {}) {}

  onInit(): void {
    // Set before the workers start: they inherit the environment.
    process.env[CPU_DIR_ENV] = this.cpuDir;
  }

  onTestRunStart(): void {
    this.runStart = performance.now();
  }

  onTestModuleStart(module: TestModule): void {
    this.started.set(module.moduleId, performance.now() - this.runStart);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    if (modules.length === 0) return;
    const cpu = cpuByFile(this.cpuDir);
    rmSync(this.cpuDir, { recursive: true, force: true });
    const root = join(import.meta.dirname, "..", "..");
    const figures: FileFigures[] = modules.map((m) => ({
      file: relative(root, m.moduleId),
      wallMs: Math.round(wallOf(m)),
      cpuMs: cpu.get(m.moduleId)?.cpuMs,
      childCpuMs: cpu.get(m.moduleId)?.childCpuMs,
      tests: [...m.children.allTests()].length,
      state: m.state(),
      startMs: Math.round(this.started.get(m.moduleId) ?? 0),
    }));
    figures.sort((a, b) => b.wallMs - a.wallMs);
    mkdirSync(OUTPUT_DIR, { recursive: true });
    writeFileSync(
      join(OUTPUT_DIR, this.options.output ?? "file-durations.json"),
      `${JSON.stringify(figures, null, 2)}\n`,
    );
    console.log(formatSlowest(figures.slice(0, SHOWN)));
    console.log(formatTotals(figures));
    // vitest's own process (transforms, the reporters, the shared pack's setup): not in any file's figures.
    const own = process.cpuUsage();
    console.log(`CPU of vitest's main process: ${((own.user + own.system) / 1e6).toFixed(0)} s`);
  }
}

export function formatSlowest(figures: readonly FileFigures[]): string {
  const seconds = (ms: number | undefined) => (ms === undefined ? "     –" : `${(ms / 1000).toFixed(1).padStart(6)}`);
  const rows = figures.map(
    (f) => `  ${seconds(f.wallMs)} s  ${seconds(f.cpuMs)} s  ${seconds(f.childCpuMs)} s  ${f.file} (${f.tests} tests)`,
  );
  return [`\nslowest ${figures.length} test files (wall, CPU of the worker, CPU of its children):`, ...rows].join("\n");
}

/** The CPU the files spent in all: on a machine of N cores, the suite takes at least this / N. */
export function formatTotals(figures: readonly FileFigures[]): string {
  const sum = (pick: (f: FileFigures) => number | undefined) =>
    (figures.reduce((t, f) => t + (pick(f) ?? 0), 0) / 1000).toFixed(0);
  return `CPU of all ${figures.length} files: ${sum((f) => f.cpuMs)} s in the workers, ${sum((f) => f.childCpuMs)} s in their children`;
}

/** From the start of the file's worker setup to its last hook: import, collection and the tests. */
function wallOf(m: TestModule): number {
  const d = m.diagnostic();
  return d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration;
}

function cpuByFile(dir: string): Map<string, { cpuMs: number; childCpuMs: number }> {
  const out = new Map<string, { cpuMs: number; childCpuMs: number }>();
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    for (const line of readFileSync(join(dir, name), "utf8").split("\n")) {
      if (!line) continue;
      const { file, cpuMs, childCpuMs } = JSON.parse(line) as { file: string; cpuMs: number; childCpuMs: number };
      const before = out.get(file) ?? { cpuMs: 0, childCpuMs: 0 };
      out.set(file, { cpuMs: before.cpuMs + cpuMs, childCpuMs: before.childCpuMs + childCpuMs });
    }
  }
  return out;
}
