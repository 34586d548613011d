// What every section gets: where the project is, how thorough to be, where to put temporary files.
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ResultEntry } from "./stats.ts";

export const PROJECT_ROOT = fileURLToPath(new URL("../", import.meta.url));
/** Ignored by git (.tmp* in .gitignore); inside the project so generated code can import runtime/. */
export const BENCH_TMP = join(PROJECT_ROOT, ".tmp-bench");

export interface BenchContext {
  root: string;
  quick: boolean;
  /** Progress for people; goes to stderr so stdout stays the table. */
  log(message: string): void;
  /** A fresh, empty directory under .tmp-bench/. */
  scratch(name: string): string;
}

export interface SectionResult {
  entries: ResultEntry[];
  /** Lines printed under the table: policies, choices, caveats. */
  notes: string[];
}

export type Section = (ctx: BenchContext) => Promise<SectionResult>;

export function createContext(quick: boolean): BenchContext {
  return {
    root: PROJECT_ROOT,
    quick,
    log: (message) => process.stderr.write(`  ${message}\n`),
    scratch(name) {
      const dir = join(BENCH_TMP, name);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      return dir;
    },
  };
}
