// How a check says what happened. Checks throw CheckFailed / CheckSkipped from deep inside helpers,
// so the reason and the evidence travel to the report without each check plumbing them. Both carry
// a kind (types.ts) so the verdict and the reports never have to parse messages.
import type { Evidence, FailureKind, Outcome, SkipKind } from "./types.ts";

export class CheckFailed extends Error {
  override name = "CheckFailed";
  constructor(
    message: string,
    readonly evidence?: Evidence,
    readonly kind: FailureKind = "violation",
  ) {
    super(message);
  }
}

export class CheckSkipped extends Error {
  override name = "CheckSkipped";
  constructor(
    message: string,
    /** The flag or fixture that would let the check run. */
    readonly needs?: string,
    readonly kind: SkipKind = needs ? "input" : "inapplicable",
  ) {
    super(message);
  }
}

/** The flag (and variable) that raises certify's response body limit; named wherever the limit is hit. */
export const BODY_LIMIT_FLAG = "--max-body-mib";

/**
 * An answer larger than certify's body limit: certify's own limit, never the deployment's failure.
 * The check did not run to the end, so it is skipped (a MUST skipped leaves the run incomplete, exit
 * 3) and the skip names the flag that raises the limit.
 */
export class BodyLimitReached extends CheckSkipped {
  override name = "BodyLimitReached";
  constructor(what: string, detail: string) {
    super(
      `${what} is larger than certify's response body limit (${detail}); raise it with ${BODY_LIMIT_FLAG} (or CUSTODY_MAX_BODY_MIB): the check did not run to the end`,
      BODY_LIMIT_FLAG,
      "limit",
    );
  }
}

export function passed(message?: string): Outcome {
  return message === undefined ? { status: "passed" } : { status: "passed", message };
}

export function fail(message: string, evidence?: Evidence): never {
  throw new CheckFailed(message, evidence);
}

/** A skip; `needs` names the flag or fixture that would let the check run. */
export function skip(reason: string, needs?: string): never {
  throw new CheckSkipped(reason, needs);
}

/** Turns whatever a check threw into an outcome; an unexpected error is a crash with its message. */
export function outcomeOf(err: unknown): Outcome {
  if (err instanceof CheckFailed)
    return { status: "failed", message: err.message, kind: err.kind, evidence: err.evidence };
  if (err instanceof CheckSkipped) return skippedOutcome(err);
  const message = err instanceof Error ? err.message : String(err);
  return { status: "failed", kind: "crash", message: `check crashed: ${message}` };
}

export function skippedOutcome(err: CheckSkipped): Outcome {
  const out: Outcome = { status: "skipped", message: err.message, kind: err.kind };
  if (err.needs) out.needs = err.needs;
  return out;
}
