// Generation benchmark: `custody generate` (all of types, zod, client, server, ...) on our spec and on
// GitHub's REST description. Each run is a fresh child process (what a user running the CLI pays),
// one warm-up then the median of three; peak memory is the child's maxRSS. Prints JSON.
//   node --import tsx bench/generate.ts [--runs 3] [--spec FILE ...]
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

export interface GenerateBenchCase {
  name: string;
  spec: string;
  rpcSpec?: string;
}

export interface GenerateBenchResult {
  name: string;
  spec: string;
  operations: number;
  /** Median of the runs: time inside generate() (parse, validate, model, emit, write). */
  generateMs: number;
  /** Median wall time of the whole child process (Node start, module loading, generate). */
  processMs: number;
  /** Highest peak RSS over the runs, in MB. */
  peakRssMb: number;
  runs: { generateMs: number; processMs: number; rssMb: number }[];
}

export const DEFAULT_CASES: GenerateBenchCase[] = [
  { name: "ours", spec: join(ROOT, "spec/openapi.yaml"), rpcSpec: join(ROOT, "spec/openrpc.json") },
  { name: "github", spec: join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json") },
];

interface ChildReport {
  generateMs: number;
  rssMb: number;
  operations: number;
}

/** Child mode: one generation into a fresh directory, reported as one JSON line. */
async function child(spec: string, rpcSpec: string | undefined, outDir: string): Promise<void> {
  const { generate } = await import("../generator/index.ts");
  const result = await generate({ specPath: spec, rpcSpecPath: rpcSpec, outDir });
  const report: ChildReport = {
    generateMs: result.durationMs,
    rssMb: process.resourceUsage().maxRSS / 1024,
    operations: result.operations,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

function runChild(testCase: GenerateBenchCase, outDir: string): Promise<ChildReport & { processMs: number }> {
  const args = ["--import", "tsx", fileURLToPath(import.meta.url), "--child", testCase.spec, outDir];
  if (testCase.rpcSpec) args.push(testCase.rpcSpec);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: ROOT, maxBuffer: 1024 * 1024 }, (error, stdout, stderr) => {
      const processMs = performance.now() - started;
      if (error) return reject(new Error(`generate ${testCase.name} failed: ${stderr.trim() || error.message}`));
      const line = stdout.trim().split("\n").pop() ?? "";
      resolve({ ...(JSON.parse(line) as ChildReport), processMs });
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const round = (n: number) => Math.round(n * 10) / 10;

export async function benchGenerate(
  cases: GenerateBenchCase[] = DEFAULT_CASES,
  runs = 3,
): Promise<GenerateBenchResult[]> {
  const results: GenerateBenchResult[] = [];
  const work = await mkdtemp(join(ROOT, ".tmp-bench-generate-"));
  try {
    for (const testCase of cases) {
      const samples: GenerateBenchResult["runs"] = [];
      let operations = 0;
      for (let i = 0; i <= runs; i++) {
        const outDir = join(work, `${testCase.name}-${i}`); // fresh: every run writes every file
        const report = await runChild(testCase, outDir);
        await rm(outDir, { recursive: true, force: true });
        operations = report.operations;
        if (i === 0) continue; // warm-up (disk cache, compile cache)
        samples.push({
          generateMs: round(report.generateMs),
          processMs: round(report.processMs),
          rssMb: round(report.rssMb),
        });
      }
      results.push({
        name: testCase.name,
        spec: testCase.spec.startsWith(ROOT) ? testCase.spec.slice(ROOT.length) : testCase.spec,
        operations,
        generateMs: round(median(samples.map((s) => s.generateMs))),
        processMs: round(median(samples.map((s) => s.processMs))),
        peakRssMb: round(Math.max(...samples.map((s) => s.rssMb))),
        runs: samples,
      });
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return results;
}

async function main(argv: string[]): Promise<void> {
  if (argv[0] === "--child") return child(argv[1], argv[3], argv[2]);
  let runs = 3;
  const specs: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--runs") runs = Number(argv[++i]);
    else if (argv[i] === "--spec") specs.push(argv[++i]);
  }
  const cases = specs.length > 0 ? specs.map((spec, i) => ({ name: `spec${i + 1}`, spec })) : DEFAULT_CASES;
  const results = await benchGenerate(cases, runs);
  console.log(JSON.stringify({ bench: "generate", node: process.version, results }, null, 2));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  });
}
