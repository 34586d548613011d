// Type-checks generated output with the project's compiler settings (tsc --noEmit), for tests and
// for checking a generation by hand. The output must live inside the project so that `zod` and
// runtime/ resolve; a throwaway tsconfig extending the root one is written next to it.
import { execFile } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const PROJECT_ROOT = fileURLToPath(new URL("../", import.meta.url));

/**
 * Node flags for a tsc run: the garbage collector on the main thread only. tsc allocates fast, and V8's
 * parallel collector threads cost it about a quarter more CPU for no shorter run (the generated SDK:
 * 8.7 → 6.3 CPU-s, 5.8 → 4.8 s). Not allowed in NODE_OPTIONS, so each spawn of tsc passes it.
 */
export const TSC_NODE_FLAGS: readonly string[] = ["--single-threaded-gc"];

export interface TypecheckResult {
  ok: boolean;
  /** tsc's diagnostics, one per line. */
  output: string;
}

/** Runs tsc over every .ts file under `dirs` (each inside the project). */
export async function typecheck(
  dirs: readonly string[],
  options: { maxOldSpaceMb?: number } = {},
): Promise<TypecheckResult> {
  const configPath = join(PROJECT_ROOT, `.tmp-typecheck-${process.pid}-${Date.now()}.json`);
  const include = dirs.map((d) => `${relative(PROJECT_ROOT, resolve(d)).split(sep).join("/")}/**/*.ts`);
  await writeFile(configPath, JSON.stringify({ extends: "./tsconfig.json", include }));
  const tsc = join(PROJECT_ROOT, "node_modules", "typescript", "bin", "tsc");
  const nodeArgs = [...TSC_NODE_FLAGS];
  if (options.maxOldSpaceMb) nodeArgs.push(`--max-old-space-size=${options.maxOldSpaceMb}`);
  try {
    return await new Promise((done) => {
      execFile(
        process.execPath,
        [...nodeArgs, tsc, "--noEmit", "-p", configPath],
        { cwd: PROJECT_ROOT, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          done({ ok: error === null, output: `${stdout}${stderr}`.trim() });
        },
      );
    });
  } finally {
    await rm(configPath, { force: true });
  }
}
