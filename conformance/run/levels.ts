// The level table: which checks a level puts in scope. Decided here once; the runner selects by it
// and the verdict counts every MUST check in scope (run or not).
import type { Check } from "../checks/check.ts";
import type { Group, Level } from "../checks/types.ts";

export interface LevelRule {
  /** True when the check belongs to this level's certification. */
  includes(check: Check): boolean;
  description: string;
}

export const LEVELS: Record<Level, LevelRule> = {
  seed: {
    includes: (check) => check.level === "seed",
    description: "only what the seed states, through the operations it specifies",
  },
  full: {
    includes: () => true,
    description: "the seed, plus the operations and choices the spec assumes where the seed is silent",
  },
};

export interface Selection {
  /** Every check the level puts in scope. */
  inScope: Check[];
  /** Those the run executes (all of inScope unless --only narrows it). */
  selected: Check[];
  /** In scope but left out by --only: never run, so never certified. */
  notSelected: Check[];
}

export function selectChecks(catalog: readonly Check[], level: Level, only?: readonly Group[]): Selection {
  const inScope = catalog.filter((c) => LEVELS[level].includes(c));
  const selected = inScope.filter((c) => !only || only.includes(c.group));
  const notSelected = inScope.filter((c) => only && !only.includes(c.group));
  return { inScope, selected, notSelected };
}
