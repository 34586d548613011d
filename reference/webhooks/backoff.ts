// Retry schedule of webhook deliveries: exponential backoff with jitter. The n-th retry waits
// min(maxDelayMs, initialDelayMs × factor^(n-1)), reduced by a random fraction of up to `jitter`
// (0.5: somewhere in [d/2, d]), so receivers that fail together are not hit again in lockstep, while
// every delay stays within a bound a test can check.
export interface RetrySchedule {
  /** Attempts per (re)queue, the first one included; after the last failure the delivery is `failed`. */
  maxAttempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
  factor: number;
  /** 0 = no jitter, 1 = full jitter. */
  jitter: number;
}

/**
 * The sandbox's schedule: the spec's attempt count (x-custody-webhook-delivery: 6) with delays shortened
 * for local development (1, 2, 4, 8, 16 s instead of up to 6 h), as the spec allows.
 */
export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = {
  maxAttempts: 6,
  initialDelayMs: 1_000,
  maxDelayMs: 60_000,
  factor: 2,
  jitter: 0.5,
};

/** Upper bound of the delay after the `failedAttempts`-th failed attempt (1-based). */
export function maxRetryDelayMs(schedule: RetrySchedule, failedAttempts: number): number {
  const exp = schedule.initialDelayMs * schedule.factor ** Math.max(0, failedAttempts - 1);
  return Math.min(schedule.maxDelayMs, exp);
}

export function retryDelayMs(schedule: RetrySchedule, failedAttempts: number, random: () => number = Math.random): number {
  const bound = maxRetryDelayMs(schedule, failedAttempts);
  return Math.round(bound * (1 - schedule.jitter * random()));
}

export function validateRetrySchedule(s: RetrySchedule): RetrySchedule {
  const ok =
    Number.isInteger(s.maxAttempts) && s.maxAttempts >= 1 && s.maxAttempts <= 100 &&
    s.initialDelayMs >= 0 && s.maxDelayMs >= s.initialDelayMs && s.factor >= 1 && s.jitter >= 0 && s.jitter <= 1;
  if (!ok) throw new Error("invalid webhook retry schedule (maxAttempts 1..100, 0 <= initialDelayMs <= maxDelayMs, factor >= 1, 0 <= jitter <= 1)");
  return s;
}
