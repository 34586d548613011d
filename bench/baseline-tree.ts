// An older revision of custody, unpacked beside the current one so a section can run both in the same
// bench run (interleaved) and print the ratio: the tree comes from `git archive` (no worktree is
// registered, nothing in the repository changes) and shares this checkout's node_modules.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { BENCH_TMP } from "./context.ts";

/** The directory of `ref`'s tree under .tmp-bench/, unpacked once; throws with the reason when git cannot. */
export function baselineTree(root: string, ref: string): string {
  const dir = join(BENCH_TMP, `baseline-${ref}`);
  if (existsSync(join(dir, "bin/custody.js"))) return dir;
  mkdirSync(dir, { recursive: true });
  try {
    const archive = execFileSync("git", ["-C", root, "archive", "--format=tar", ref], { maxBuffer: 512 * 1024 * 1024 });
    execFileSync("tar", ["-x", "-C", dir], { input: archive });
  } catch (error) {
    throw new Error(`cannot unpack ${ref} (git archive): ${(error as Error).message.split("\n")[0]}`);
  }
  if (!existsSync(join(dir, "node_modules"))) symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}
