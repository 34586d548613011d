// `npm run bench:diff`: `custody diff` on two versions of GitHub's REST description (the devDependency
// @octokit/openapi and an older release fetched with `npm pack`), as a fresh process each time, next
// to the floor (a process that only reads and parses both files) and the 5 s goal. Merges its rows
// into bench/results.json, replacing its own rows from an earlier run and keeping everyone else's.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BENCH_TMP, createContext, PROJECT_ROOT, type Section } from "./context.ts";
import { alternate, entry, median, type ResultEntry } from "./stats.ts";

const OLD_VERSION = "22.0.0";
const SPEC = "generated/api.github.com.json";
const GOAL_S = 5;

/** The older release's description, packed once into .tmp-bench/ (npm's cache serves it offline later). */
function olderDescription(log: (m: string) => void): string {
  const dir = join(BENCH_TMP, "diff", `octokit-openapi-${OLD_VERSION}`);
  const file = join(dir, "package", SPEC);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  log(`npm pack @octokit/openapi@${OLD_VERSION}`);
  const tarball = execFileSync(
    "npm",
    ["pack", `@octokit/openapi@${OLD_VERSION}`, "--pack-destination", dir, "--silent"],
    { encoding: "utf8" },
  )
    .trim()
    .split("\n")
    .pop() as string;
  execFileSync("tar", ["xzf", join(dir, tarball), "-C", dir, `package/${SPEC}`]);
  return file;
}

/** Wall time of a fresh node process, in seconds; fails on any exit code outside `ok`. */
function timed(args: string[], ok: number[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { cwd: PROJECT_ROOT, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("exit", (code) => {
      if (ok.includes(code ?? -1)) resolve((performance.now() - t0) / 1000);
      else reject(new Error(`${args.join(" ")} exited ${code}: ${stderr.trim().split("\n")[0]}`));
    });
  });
}

export const benchDiff: Section = async (ctx) => {
  const oldFile = olderDescription(ctx.log);
  const newFile = join(PROJECT_ROOT, "node_modules/@octokit/openapi", SPEC);
  const newVersion = (
    JSON.parse(readFileSync(join(PROJECT_ROOT, "node_modules/@octokit/openapi/package.json"), "utf8")) as {
      version: string;
    }
  ).version;
  const cli = join(PROJECT_ROOT, "bin/custody.js");
  const floor = `const fs=require("fs");JSON.parse(fs.readFileSync(${JSON.stringify(oldFile)},"utf8"));JSON.parse(fs.readFileSync(${JSON.stringify(newFile)},"utf8"))`;
  const runs = ctx.quick ? 3 : 5;
  ctx.log(
    `custody diff @octokit/openapi ${OLD_VERSION} → ${newVersion}: 1 warm-up + ${runs} runs, interleaved with the floor`,
  );
  const samples = await alternate(
    [
      { name: "ours", run: () => timed([cli, "diff", oldFile, newFile, "--format", "json"], [0, 1]) },
      { name: "floor", run: () => timed(["-e", floor], [0]) },
    ],
    { runs, warmups: 1 },
  );
  // Exit 1 (breaking changes found) is the expected answer here.
  const out = spawnSync(process.execPath, [cli, "diff", oldFile, newFile, "--format", "json"], {
    cwd: PROJECT_ROOT,
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  const report = JSON.parse(out.stdout) as { summary: Record<string, unknown>; changes: unknown[] };
  const s = report.summary;
  const name = `diff GitHub REST ${OLD_VERSION} → ${newVersion}: time`;
  const note = `${report.changes.length} changes (${s.breaking} breaking, ${s.warning} warning, ${s.info} info); whole CLI process, median of ${runs}`;
  const ours = median(samples.ours);
  return {
    entries: [
      entry(name, ours, `goal (${GOAL_S} s)`, GOAL_S, "s", note),
      entry(name, ours, "floor (node reads + parses both files)", median(samples.floor), "s"),
    ],
    notes: [`diff: ${note}`],
  };
};

async function main(): Promise<void> {
  const ctx = createContext(process.argv.includes("--quick"));
  const result = await benchDiff(ctx);
  const file = join(PROJECT_ROOT, "bench/results.json");
  const previous = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as ResultEntry[]) : [];
  const mine = new Set(result.entries.map((e) => `${e.name.replace(/ → .*$/, "")}\0${e.baseline_name}`));
  const kept = previous.filter(
    (e) => !(e.name.startsWith("diff GitHub REST") && mine.has(`${e.name.replace(/ → .*$/, "")}\0${e.baseline_name}`)),
  );
  writeFileSync(file, `${JSON.stringify([...kept, ...result.entries], null, 2)}\n`);
  for (const e of result.entries)
    console.log(`${e.name} · ours ${e.ours} s · ${e.baseline_name} ${e.baseline} s · ratio ${e.ratio}`);
  console.log(result.notes.join("\n"));
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop() as string)) await main();
