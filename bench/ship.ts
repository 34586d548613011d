// What a user of the installed package pays: CLI start (`custody --help`, compiled dist/ against the
// tsx-on-sources start that was the only one before the build), `certify --sandbox` both ways, and
// the size of the tarball and of node_modules after installing it into an empty project.
import { execFileSync, spawn } from "node:child_process";
import { readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BenchContext, SectionResult } from "./context.ts";
import { alternate, entry, median, type ResultEntry } from "./stats.ts";

const INSTALLED_BUDGET_MB = 400;

function timeCommand(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { cwd, env, stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve((performance.now() - t0) / 1000) : reject(new Error(`${args.join(" ")} exited ${code}`)),
    );
  });
}

/** Bytes on disk under dir (files only, as du --apparent-size would count them). */
function sizeOf(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

/** The CLI and the two environments it is started in: compiled dist/ and tsx on the sources. */
interface Cli {
  bin: string;
  compiledEnv: NodeJS.ProcessEnv;
  sourceEnv: NodeJS.ProcessEnv;
}

/** Builds dist/; the CLI's path and both environments. */
function buildCli(ctx: BenchContext): Cli {
  const bin = join(ctx.root, "bin", "custody.js");
  ctx.log("building dist/");
  execFileSync(process.execPath, [join(ctx.root, "scripts", "build.mjs")], { cwd: ctx.root, stdio: "ignore" });
  const compiledEnv = { ...process.env, CUSTODY_COMPILED: "1" };
  const sourceEnv = { ...process.env, CUSTODY_COMPILED: undefined };
  return { bin, compiledEnv, sourceEnv };
}

/** `custody --help`, compiled against tsx and against node's own start. */
async function measureHelp(ctx: BenchContext, cli: Cli): Promise<ResultEntry[]> {
  const { bin, compiledEnv, sourceEnv } = cli;
  ctx.log("custody --help: compiled vs tsx");
  const runs = ctx.quick ? 7 : 21;
  const help = await alternate(
    [
      { name: "compiled", run: () => timeCommand([bin, "--help"], ctx.root, compiledEnv) },
      { name: "tsx", run: () => timeCommand([bin, "--help"], ctx.root, sourceEnv) },
      { name: "floor", run: () => timeCommand(["-e", "0"], ctx.root, sourceEnv) },
    ],
    { runs, warmups: 2 },
  );
  return [
    entry(
      "custody --help: start time",
      median(help.compiled),
      "tsx on the sources",
      median(help.tsx),
      "s",
      `median of ${runs}; goal under 0.15 s`,
    ),
    entry(
      "custody --help: start time",
      median(help.compiled),
      "floor: node -e 0",
      median(help.floor),
      "s",
      "what node itself needs to start on this machine",
    ),
  ];
}

/** `certify --sandbox`, compiled against tsx. */
async function measureCertify(ctx: BenchContext, cli: Cli): Promise<ResultEntry> {
  const { bin, compiledEnv, sourceEnv } = cli;
  ctx.log("certify --sandbox: compiled vs tsx");
  const certify = await alternate(
    [
      { name: "compiled", run: () => timeCommand([bin, "certify", "--sandbox", "--quiet"], ctx.root, compiledEnv) },
      { name: "tsx", run: () => timeCommand([bin, "certify", "--sandbox", "--quiet"], ctx.root, sourceEnv) },
    ],
    { runs: ctx.quick ? 1 : 3, warmups: 0 },
  );
  return entry(
    "certify --sandbox: wall time",
    median(certify.compiled),
    "tsx on the sources",
    median(certify.tsx),
    "s",
  );
}

/** `npm pack`, then the tarball installed into an empty project: its node_modules against the budget. */
function measureInstall(ctx: BenchContext): ResultEntry {
  ctx.log("npm pack + install into an empty project");
  const dir = ctx.scratch("ship");
  const name = execFileSync("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", dir], {
    cwd: ctx.root,
    encoding: "utf8",
  })
    .trim()
    .split("\n")
    .pop() as string;
  const tarball = join(dir, name);
  const files = execFileSync("tar", ["tzf", tarball], { encoding: "utf8" }).trim().split("\n").length;
  const app = join(dir, "app");
  execFileSync("mkdir", ["-p", app]);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true }));
  execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", tarball], {
    cwd: app,
    stdio: "ignore",
  });
  const installedMb = sizeOf(join(app, "node_modules")) / 1e6;
  const chainMb = ["@foundry-rs"].reduce((sum, pkg) => sum + sizeOf(join(app, "node_modules", pkg)) / 1e6, 0);
  return entry(
    "npm install custody tarball: node_modules",
    installedMb,
    "budget",
    INSTALLED_BUDGET_MB,
    "MB",
    `tarball: ${files} files, ${(statSync(tarball).size / 1e3).toFixed(0)} kB; of which the chain engine (anvil, @foundry-rs) ${chainMb.toFixed(0)} MB`,
  );
}

export async function benchShip(ctx: BenchContext): Promise<SectionResult> {
  const cli = buildCli(ctx);
  const entries = await measureHelp(ctx, cli);
  entries.push(await measureCertify(ctx, cli));
  entries.push(measureInstall(ctx));
  return {
    entries,
    notes: [
      "ship: compiled = dist/ from `npm run build` (CUSTODY_COMPILED=1 in the clone; what an installed custody runs); tsx = the TypeScript sources through tsx, as bin/custody.js ran before the build",
      "ship: installed size counts file bytes under node_modules of an empty project after `npm install <tarball>`, without the optional peers (Prism, @polkadot/rpc-provider)",
    ],
  };
}
