// The --fuzz flags of `custody certify` (declared in commands/certify.ts): their values checked and turned into fuzz options.

import type { Check } from "../conformance/checks/check.ts";
import type { FuzzOptions } from "../conformance/checks/fuzz/index.ts";
import type { Level } from "../conformance/checks/types.ts";
import { randomSeed } from "../conformance/fuzz/prng.ts";
import type { OperationInfo } from "../conformance/run/operations.ts";
import { UsageError } from "./usage-error.ts";

export interface FuzzFlagValues {
  fuzz?: string;
  seed?: string;
  "fuzz-time"?: string;
  "allow-writes"?: boolean;
  sandbox?: boolean;
}

/** The fuzz options, or undefined without --fuzz; a wrong value is a usage error naming the flag. */
export function fuzzOptionsOf(v: FuzzFlagValues): FuzzOptions | undefined {
  if (v.fuzz === undefined) {
    for (const flag of ["seed", "fuzz-time", "allow-writes"] as const) {
      if (v[flag] !== undefined) throw new UsageError(`--${flag} needs --fuzz N`);
    }
    return undefined;
  }
  if (!/^\d+$/.test(v.fuzz) || Number(v.fuzz) <= 0 || Number(v.fuzz) > 100_000)
    throw new UsageError(`--fuzz must be a number of cases from 1 to 100000, not "${v.fuzz}"`);
  let timeSeconds: number | undefined;
  if (v["fuzz-time"] !== undefined) {
    if (!/^\d+(\.\d+)?$/.test(v["fuzz-time"]) || Number(v["fuzz-time"]) <= 0)
      throw new UsageError(`--fuzz-time must be a positive number of seconds, not "${v["fuzz-time"]}"`);
    timeSeconds = Number(v["fuzz-time"]);
  }
  if (v.seed !== undefined && !/^[\w.-]{1,64}$/.test(v.seed))
    throw new UsageError(`--seed must be 1 to 64 letters, digits, '.', '_' or '-', not "${v.seed}"`);
  return {
    cases: Number(v.fuzz),
    seed: v.seed ?? randomSeed(),
    allowWrites: v["allow-writes"] === true || v.sandbox === true,
    ...(timeSeconds !== undefined ? { timeSeconds } : {}),
  };
}

/** The checks --fuzz adds to the catalog (their module loads only when --fuzz is given). */
export async function fuzzCatalog(
  options: FuzzOptions | undefined,
  operations: OperationInfo[],
  level: Level,
  before: readonly Check[] = [],
): Promise<Check[]> {
  if (!options) return [];
  const { fuzzChecks } = await import("../conformance/checks/fuzz/index.ts");
  return fuzzChecks(
    operations,
    options,
    level,
    before.map((c) => c.id),
  );
}

export function fuzzBanner(options: FuzzOptions): string {
  return `fuzz: ${options.cases} cases per operation, seed ${options.seed}${options.allowWrites ? ", writes allowed" : ", guarded operations get invalid cases only"}${options.timeSeconds ? `, at most ${options.timeSeconds} s` : ""}\n`;
}
