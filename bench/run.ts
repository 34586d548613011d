// `npm run bench [-- --quick] [-- --only generation,serving,client,gateway,crypto,certify,certify-fuzz,withdrawals,webhook-isolation,chains]`
// Runs the sections, prints one table of ratios (> 1: ours is better), writes bench/results.json
// (the entries), bench/results.md (the table with date and machine) and, after a run of every
// section, the table in bench/README.md and docs/measurements/benchmarks.md.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { benchCertify } from "./certify.ts";
import { benchCertifyFuzz } from "./certify-fuzz.ts";
import { benchChains } from "./chains.ts";
import { createContext, type Section } from "./context.ts";
import { benchCrypto } from "./crypto.ts";
import { benchGateway } from "./gateway.ts";
import { benchGeneration } from "./generation.ts";
import { benchSdk } from "./sdk.ts";
import { benchClient, benchServing } from "./serving.ts";
import { benchShip } from "./ship.ts";
import type { ResultEntry } from "./stats.ts";
import { consoleTable, markdownTable } from "./table.ts";
import { benchWebhookIsolation } from "./webhook-isolation.ts";
import { benchWithdrawals } from "./withdrawals.ts";

const SECTIONS: Record<string, Section> = {
  generation: benchGeneration,
  serving: benchServing,
  client: benchClient,
  gateway: benchGateway,
  crypto: benchCrypto,
  certify: benchCertify,
  "certify-fuzz": benchCertifyFuzz,
  withdrawals: benchWithdrawals,
  "webhook-isolation": benchWebhookIsolation,
  chains: benchChains,
  ship: benchShip,
  sdk: benchSdk,
};

const USAGE = `usage: npm run bench -- [--quick] [--only ${Object.keys(SECTIONS).join(",")}]
  --quick   fewer and shorter runs (peers on large specs still run once)
  --only    run these sections only (comma separated)`;

export interface BenchArgs {
  quick: boolean;
  sections: string[];
}

export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  const args: BenchArgs = { quick: false, sections: Object.keys(SECTIONS) };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--quick") args.quick = true;
    else if (arg === "--only" || arg.startsWith("--only=")) {
      const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : argv[++i];
      const names = (value ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      const unknown = names.filter((n) => !(n in SECTIONS));
      if (names.length === 0 || unknown.length > 0)
        throw new Error(`--only: unknown section ${unknown.join(", ") || "(none given)"}\n${USAGE}`);
      args.sections = Object.keys(SECTIONS).filter((n) => names.includes(n));
    } else throw new Error(`unknown option '${arg}'\n${USAGE}`);
  }
  return args;
}

function machine(): string {
  const cpu = cpus();
  return `${cpu[0]?.model.trim() ?? "unknown CPU"} × ${cpu.length}, ${(totalmem() / 2 ** 30).toFixed(0)} GB RAM, Node ${process.version}, ${process.platform}`;
}

const README_START = "<!-- bench:results:start -->";
const README_END = "<!-- bench:results:end -->";

function updateReadme(path: string, block: string): boolean {
  if (!existsSync(path)) return false;
  const text = readFileSync(path, "utf8");
  const start = text.indexOf(README_START);
  const end = text.indexOf(README_END);
  if (start === -1 || end < start) return false;
  writeFileSync(path, `${text.slice(0, start + README_START.length)}\n${block}\n${text.slice(end)}`);
  return true;
}

async function main(argv: string[]): Promise<number> {
  let args: BenchArgs;
  try {
    args = parseBenchArgs(argv);
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const ctx = createContext(args.quick);
  const entries: ResultEntry[] = [];
  const notes: string[] = [];
  const started = new Date();
  for (const name of args.sections) {
    process.stderr.write(`== ${name}\n`);
    const t0 = performance.now();
    try {
      const result = await SECTIONS[name](ctx);
      entries.push(...result.entries);
      notes.push(...result.notes);
    } catch (error) {
      // One broken section must not hide the others' figures.
      notes.push(`${name}: failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    process.stderr.write(`   (${((performance.now() - t0) / 1000).toFixed(0)} s)\n`);
  }
  const header = `${started.toISOString().slice(0, 10)} · ${machine()} · ${args.quick ? "--quick" : "full"} run · sections: ${args.sections.join(", ")}`;
  console.log(`\n${header}\nratio > 1: ours is better (times and memory: baseline/ours; throughput: ours/baseline)\n`);
  console.log(consoleTable(entries));
  if (notes.length) console.log(`\n${notes.map((n) => `- ${n}`).join("\n")}`);

  const dir = join(ctx.root, "bench");
  // A run of some sections keeps the other sections' figures (matched by entry name).
  const previous =
    args.sections.length === Object.keys(SECTIONS).length || !existsSync(join(dir, "results.json"))
      ? []
      : (JSON.parse(readFileSync(join(dir, "results.json"), "utf8")) as ResultEntry[]);
  const kept = previous.filter((p) => !entries.some((e) => e.name === p.name));
  writeFileSync(join(dir, "results.json"), `${JSON.stringify([...kept, ...entries], null, 2)}\n`);
  const everySection = args.sections.length === Object.keys(SECTIONS).length;
  if (!everySection) {
    // results.md and bench/README.md hold one whole run with its notes; a partial run leaves them be.
    console.log("wrote bench/results.json (this run's entries replace those of the same name)");
    return 0;
  }
  const block = [`_${header}_`, "", markdownTable(entries), "", ...notes.map((n) => `- ${n}`)].join("\n");
  writeFileSync(join(dir, "results.md"), `${block}\n`);
  for (const page of ["bench/README.md", "docs/measurements/benchmarks.md"])
    if (updateReadme(join(ctx.root, page), block)) console.log(`\n${page}: results table updated`);
  console.log("wrote bench/results.json and bench/results.md");
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
