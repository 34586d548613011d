// custody as a user gets it, made once per `vitest run`: `npm pack` (prepack builds dist/), then an empty
// project that installs the tarball and the dev tools its users add (typescript, @types/node, Prism).
// Test files run in separate processes: the first to ask packs and installs under a lock (an atomic
// mkdir); the others wait for its result file. The folder comes from test/support/pack-share.ts.
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../../lib/package-root.ts";
import { runOnce } from "./run-once.ts";

const ROOT = packageRoot(import.meta.url);

const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
/** What a user adds beside custody: a compiler for the generated code, and Prism for `custody mock`. */
export const USER_DEV_TOOLS = ["typescript", "@types/node", "@types/ws", "@stoplight/prism-cli"];

export interface PackedInstall {
  /** The folder holding the tarball and the project. */
  work: string;
  tarball: string;
  /** An empty project (package.json of type module) with the tarball and the dev tools installed. */
  project: string;
}

export function run(
  cmd: string,
  args: string[],
  cwd: string,
  timeoutMs = 300_000,
  extraEnv: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, CUSTODY_COMPILED: undefined, ...extraEnv };
    execFile(cmd, args, { cwd, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

async function packAndInstall(work: string): Promise<PackedInstall> {
  const own = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  // prepack builds dist/ emit-only: the type check of the sources is `npm run typecheck`'s, in CI beside npm test.
  const packed = await run(NPM, ["pack", "--silent", "--pack-destination", work], ROOT, 300_000, {
    CUSTODY_BUILD_NO_CHECK: "1",
  });
  if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`);
  const tarball = join(work, packed.stdout.trim().split("\n").pop() as string);
  const project = join(work, "app");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  // The versions custody itself is tested with (typescript is also one of its dependencies).
  const devs = USER_DEV_TOOLS.map((name) => `${name}@${own.devDependencies[name] ?? own.dependencies[name]}`);
  const flags = ["--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts"];
  const installed = await run(NPM, ["install", ...flags, tarball, ...devs], project);
  if (installed.code !== 0) throw new Error(`npm install of the tarball failed:\n${installed.stderr}`);
  return { work, tarball, project };
}

/** The shared install: made by the first caller of the run, read by the others. */
export async function packedInstall(): Promise<PackedInstall> {
  // CUSTODY_PACKED_WORK: a folder an earlier run packed and installed into (work/…tgz, work/app), for
  // trying a page again without packing; npm test never sets it.
  const reuse = process.env.CUSTODY_PACKED_WORK;
  if (reuse) return JSON.parse(readFileSync(join(reuse, "install.json"), "utf8")) as PackedInstall;
  return runOnce("install", async (work) => {
    const done = await packAndInstall(work);
    writeFileSync(join(work, "install.json"), JSON.stringify(done));
    return done;
  });
}
