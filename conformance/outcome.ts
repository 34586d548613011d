// How a check says what happened. Checks throw CheckFailed / CheckSkipped from deep inside helpers,
// so the reason and the evidence travel to the report without each check plumbing them.
import type { Evidence, Outcome } from "./types.ts";

export class CheckFailed extends Error {
  override name = "CheckFailed";
  constructor(
    message: string,
    readonly evidence?: Evidence,
  ) {
    super(message);
  }
}

export class CheckSkipped extends Error {
  override name = "CheckSkipped";
}

export function passed(message?: string): Outcome {
  return message === undefined ? { status: "passed" } : { status: "passed", message };
}

export function fail(message: string, evidence?: Evidence): never {
  throw new CheckFailed(message, evidence);
}

export function skip(reason: string): never {
  throw new CheckSkipped(reason);
}

/** Turns whatever a check threw into an outcome; an unexpected error is a failure with its message. */
export function outcomeOf(err: unknown): Outcome {
  if (err instanceof CheckFailed) return { status: "failed", message: err.message, evidence: err.evidence };
  if (err instanceof CheckSkipped) return { status: "skipped", message: err.message };
  const message = err instanceof Error ? err.message : String(err);
  return { status: "failed", message: `check crashed: ${message}` };
}
