// Retry schedule of one delivery. Either a list of delays (the spec's production schedule,
// x-custody-webhook-delivery.attempts.retry-schedule-seconds) or exponential backoff: the n-th retry
// waits min(maxDelayMs, initialDelayMs × factor^(n-1)). Either way the delay is reduced by a random
// fraction of up to `jitter` (0.5: somewhere in [d/2, d]), so receivers that fail together are not hit
// again in lockstep, while every delay stays within a bound a test can check.
export interface RetrySchedule {
  /** Attempts per (re)queue, the first one included; after the last failure the delivery is `failed`. */
  maxAttempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
  factor: number;
  /** 0 = no jitter, 1 = full jitter. */
  jitter: number;
  /** The delay before retry n is delaysMs[n-1] (the last one repeats); replaces the exponential rule. */
  delaysMs?: readonly number[];
}

/** Upper bound of the delay after the `failedAttempts`-th failed attempt (1-based). */
export function maxRetryDelayMs(schedule: RetrySchedule, failedAttempts: number): number {
  const n = Math.max(1, failedAttempts);
  if (schedule.delaysMs && schedule.delaysMs.length > 0)
    return schedule.delaysMs[Math.min(n, schedule.delaysMs.length) - 1];
  return Math.min(schedule.maxDelayMs, schedule.initialDelayMs * schedule.factor ** (n - 1));
}

export function retryDelayMs(
  schedule: RetrySchedule,
  failedAttempts: number,
  random: () => number = Math.random,
): number {
  const bound = maxRetryDelayMs(schedule, failedAttempts);
  return Math.round(bound * (1 - schedule.jitter * random()));
}

export function validateRetrySchedule(s: RetrySchedule): RetrySchedule {
  const ok =
    Number.isInteger(s.maxAttempts) &&
    s.maxAttempts >= 1 &&
    s.maxAttempts <= 100 &&
    s.initialDelayMs >= 0 &&
    s.maxDelayMs >= s.initialDelayMs &&
    s.factor >= 1 &&
    s.jitter >= 0 &&
    s.jitter <= 1 &&
    (s.delaysMs === undefined || s.delaysMs.every((d) => Number.isFinite(d) && d >= 0));
  if (!ok)
    throw new Error(
      "invalid webhook retry schedule (maxAttempts 1..100, 0 <= initialDelayMs <= maxDelayMs, factor >= 1, 0 <= jitter <= 1, delaysMs >= 0)",
    );
  return s;
}
