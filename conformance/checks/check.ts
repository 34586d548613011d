// A check: what it verifies, which seed statements it enforces, and how it runs. Kept apart from
// types.ts so that the vocabulary (types.ts) imports nothing and context.ts can use it freely.
import type { CheckContext } from "../run/context.ts";
import type { CheckIdentity, Outcome, Prerequisite } from "./types.ts";

export interface Check extends CheckIdentity {
  /** The seed statements (spec/trace.yaml ids) this check enforces; trace.ts derives the trace from them. */
  statements?: readonly string[];
  requires?: Prerequisite[];
  /** Prerequisites to let settle (whatever their outcome) before the time limit starts. */
  awaits?: Prerequisite[];
  /**
   * Prerequisites it cannot do without although it does not `require` them (it waits for them itself,
   * so that a step the target breaks is its own failure, or needs them only at one level): it skips
   * without them. An inner list is satisfied by any one of its members. certify --plan reads this.
   */
  skipsWithout?: Array<Prerequisite | Prerequisite[]>;
  /**
   * At --level seed, a MUST only when this prerequisite can be had (its flag given): without it the
   * check is skipped naming the flag and counts as a SHOULD, so the verdict does not wait for it.
   * The plan (plan.ts) and the runner decide it with `severityIn`.
   */
  mustOnlyWith?: Prerequisite;
  /** Ids of checks that must have finished first (ordering, e.g. delete after resend). */
  after?: string[];
  /** More such ids at --level seed only, where the check shares a given record with them. */
  afterAtSeed?: string[];
  /** Multiplies the per-check timeout for checks that wait on the chain. */
  timeoutScale?: number;
  /** What the check sends to the target, in one line (the check catalog page shows it before anyone runs it). */
  sends: string;
  /** Returns nothing on success; throws CheckFailed / CheckSkipped (see outcome.ts) or returns an Outcome. */
  run(ctx: CheckContext): Promise<Outcome | void>;
}
