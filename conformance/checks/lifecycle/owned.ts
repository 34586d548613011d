// A prerequisite this run created itself (a record it was given is not the lifecycle's to judge).

import type { FixtureValues } from "../../provision/registry.ts";
import type { CheckContext } from "../../run/context.ts";
import { skip } from "../outcome.ts";
import type { Prerequisite } from "../types.ts";

/** The prerequisite this check owns: its setup failure is this check's failure. */
export async function owned<K extends Prerequisite>(ctx: CheckContext, name: K): Promise<FixtureValues[K]> {
  const result = await ctx.settle(name);
  if (result.ok) return result.value;
  if (result.failure) throw result.failure;
  skip(result.reason);
}
