// This contract generated as a package (--package, vendored runtime) and built with plain tsc, once per
// `vitest run` for every test file that runs the built package (test/generator-zod-mini.test.ts,
// test/sdk-runtimes.test.ts): the first caller builds under a lock (an atomic mkdir) in the run's shared
// folder (test/support/pack-share.ts); the others wait for its result file. The package's node_modules
// is a link to the project's, so zod, undici and ws resolve as they would in a user's project.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, symlinkSync, watch, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { inject } from "vitest";
import { generate, parsePackageSpec, type ZodFlavour } from "../../generator/index.ts";

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
export async function contractPackage(zod: ZodFlavour): Promise<BuiltPackage> {
  const share = join(inject("packShare"), `contract-${zod}`);
  const result = join(`${share}.json`);
  try {
    mkdirSync(share);
  } catch {
    await whenExists(result);
    const done = JSON.parse(readFileSync(result, "utf8")) as BuiltPackage | { error: string };
    if ("error" in done) throw new Error(`the shared build of the contract's package failed: ${done.error}`);
    return done;
  }
  try {
    const done = await build(zod, share);
    publish(result, done);
    return done;
  } catch (error) {
    publish(result, { error: (error as Error).message });
    throw error;
  }
}

async function build(zod: ZodFlavour, dir: string): Promise<BuiltPackage> {
  const specs = { specPath: join(ROOT, "spec/openapi.yaml"), rpcSpecPath: join(ROOT, "spec/openrpc.json") };
  const pkg = parsePackageSpec(`@acme/wallet-${zod}@1.0.0`);
  await generate({ ...specs, outDir: dir, package: pkg, zod, runtime: "vendor" });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  const built = await new Promise<{ code: number; output: string }>((done) => {
    execFile(process.execPath, [TSC, "-p", "tsconfig.json"], { cwd: dir, maxBuffer: 64 * 1024 * 1024 }, (e, o, r) =>
      done({ code: e ? 1 : 0, output: `${o}${r}` }),
    );
  });
  return { dir, ...built };
}

/** Resolves when `file` exists, watching its folder (no polling). */
function whenExists(file: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(join(file, ".."), () => {
      if (existsSync(file)) {
        watcher.close();
        resolve();
      }
    });
    if (existsSync(file)) {
      watcher.close();
      resolve();
    }
  });
}

/** Written whole, then renamed into place: a waiting process never reads half of it. */
function publish(file: string, value: unknown): void {
  writeFileSync(`${file}.part`, JSON.stringify(value));
  renameSync(`${file}.part`, file);
}
