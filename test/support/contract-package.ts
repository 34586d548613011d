// This contract generated as a package (--package, vendored runtime) and built with plain tsc, once per
// `vitest run` for every test file that runs the built package (test/generator-zod-mini.test.ts,
// test/sdk-runtimes.test.ts): the first caller builds under a lock (an atomic mkdir) in the run's shared
// folder (test/support/pack-share.ts); the others wait for its result file. The package's node_modules
// is a link to the project's, so zod, undici and ws resolve as they would in a user's project.
import { execFile } from "node:child_process";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generate, parsePackageSpec, type ZodFlavour } from "../../generator/index.ts";
import { TSC_NODE_FLAGS } from "../../generator/typecheck.ts";
import { runOnce } from "./run-once.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");

export interface BuiltPackage {
  /** The package's folder (src/, dist/, test/, package.json). */
  dir: string;
  /** tsc's exit code and what it printed (nothing when the build is clean). */
  code: number;
  output: string;
}

/** The contract's package in this zod flavour, built with tsc: made by the first caller of the run. */
export function contractPackage(zod: ZodFlavour): Promise<BuiltPackage> {
  return runOnce(`contract-${zod}`, (dir) => build(zod, dir));
}

async function build(zod: ZodFlavour, dir: string): Promise<BuiltPackage> {
  const specs = { specPath: join(ROOT, "spec/openapi.yaml"), rpcSpecPath: join(ROOT, "spec/openrpc.json") };
  const pkg = parsePackageSpec(`@acme/wallet-${zod}@1.0.0`);
  await generate({ ...specs, outDir: dir, package: pkg, zod, runtime: "vendor" });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  const built = await new Promise<{ code: number; output: string }>((done) => {
    execFile(
      process.execPath,
      [...TSC_NODE_FLAGS, TSC, "-p", "tsconfig.json"],
      { cwd: dir, maxBuffer: 64 * 1024 * 1024 },
      (e, o, r) => done({ code: e ? 1 : 0, output: `${o}${r}` }),
    );
  });
  return { dir, ...built };
}
