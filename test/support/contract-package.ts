// This contract generated as a package (--package, vendored runtime) in both zod flavours and built with
// plain tsc, once per `vitest run` for every test file that runs the built packages
// (test/generator-zod-mini.test.ts, test/sdk-runtimes.test.ts): the first caller builds under a lock (an
// atomic mkdir) in the run's shared folder (test/support/pack-share.ts); the others wait for its result
// file. Both packages build in one `tsc -b` process, which reads TypeScript's libraries and @types/node
// once for the two (15 CPU-s instead of 23 for two tsc -p). Each package's node_modules is a link to the
// project's, so zod, undici and ws resolve as they would in a user's project.
import { execFile } from "node:child_process";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generate, parsePackageSpec, type ZodFlavour } from "../../generator/index.ts";
import { TSC_NODE_FLAGS } from "../../generator/typecheck.ts";
import { runOnce } from "./run-once.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");
const FLAVOURS: readonly ZodFlavour[] = ["classic", "mini"];

export interface BuiltPackage {
  /** The package's folder (src/, dist/, test/, package.json). */
  dir: string;
  /** tsc's exit code and what it printed for this package (nothing when its build is clean). */
  code: number;
  output: string;
}

/** The contract's package in this zod flavour, built with tsc: made by the first caller of the run. */
export async function contractPackage(zod: ZodFlavour): Promise<BuiltPackage> {
  return (await runOnce("contract-packages", build))[zod];
}

async function build(dir: string): Promise<Record<ZodFlavour, BuiltPackage>> {
  const specs = { specPath: join(ROOT, "spec/openapi.yaml"), rpcSpecPath: join(ROOT, "spec/openrpc.json") };
  for (const zod of FLAVOURS) {
    const pkg = parsePackageSpec(`@acme/wallet-${zod}@1.0.0`);
    await generate({ ...specs, outDir: join(dir, zod), package: pkg, zod, runtime: "vendor" });
    symlinkSync(join(ROOT, "node_modules"), join(dir, zod, "node_modules"), "dir");
  }
  const configs = FLAVOURS.map((zod) => `${zod}/tsconfig.json`);
  const built = await new Promise<{ code: number; output: string }>((done) => {
    execFile(
      process.execPath,
      [...TSC_NODE_FLAGS, TSC, "-b", ...configs],
      { cwd: dir, maxBuffer: 64 * 1024 * 1024 },
      (e, o, r) => done({ code: e ? 1 : 0, output: `${o}${r}` }),
    );
  });
  const lines = built.output.split("\n").filter((line) => line.trim());
  // A diagnostic starts with its file's path (relative to dir); a line of no package's is each package's.
  const of = (zod: ZodFlavour) =>
    lines.filter((l) => l.startsWith(`${zod}/`) || !FLAVOURS.some((f) => l.startsWith(`${f}/`)));
  const result = {} as Record<ZodFlavour, BuiltPackage>;
  for (const zod of FLAVOURS) {
    const output = of(zod).join("\n");
    result[zod] = { dir: join(dir, zod), code: built.code !== 0 && output ? 1 : 0, output };
  }
  return result;
}
