// What one attempt does to its delivery record: logged as an attempt, then delivered, retried on the
// schedule, or failed after the last attempt of its series.
import type { AttemptOutcome, DeliveryAttempt, DeliveryRecord } from "../domain/records.ts";
import { type RetrySchedule, retryDelayMs } from "./backoff.ts";
import type { PostResult } from "./http-post.ts";

/** Attempts kept per delivery record; older ones are summarized by attempt_count. */
const MAX_ATTEMPTS_KEPT = 50;

export function isSuccess(result: PostResult): boolean {
  return result.error === undefined && result.status !== undefined && result.status >= 200 && result.status < 300;
}

/** What the attempt says about the endpoint (endpoint-health.ts). */
export function outcomeOf(result: PostResult): AttemptOutcome {
  return isSuccess(result) ? "ok" : result.timedOut ? "timeout" : "failed";
}

export function deliveryAfterAttempt(
  d: DeliveryRecord,
  startedAt: Date,
  endedAt: Date,
  result: PostResult,
  retry: RetrySchedule,
  random?: () => number,
): DeliveryRecord {
  const ok = isSuccess(result);
  const attempt: DeliveryAttempt = {
    number: d.attempt_count + 1,
    at: startedAt.toISOString(),
    duration_ms: result.durationMs,
    ...(result.status !== undefined ? { response_status: result.status } : {}),
    ...(!ok ? { error: result.error ?? `receiver answered HTTP ${result.status}` } : {}),
  };
  const { response_status: _s, response_body: _b, error: _e, next_attempt_at: _n, ...kept } = d;
  const base: DeliveryRecord = {
    ...kept,
    attempt_count: d.attempt_count + 1,
    series_attempts: d.series_attempts + 1,
    last_attempt_at: startedAt.toISOString(),
    attempts: [...d.attempts, attempt].slice(-MAX_ATTEMPTS_KEPT),
    updated_at: endedAt.toISOString(),
    ...(result.status !== undefined ? { response_status: result.status } : {}),
    ...(result.body !== undefined ? { response_body: result.body } : {}),
  };
  // Cancelled (webhook deleted) while this attempt was on the wire: log it, change nothing else.
  if (d.status !== "pending") return { ...base, status: d.status, ...(d.error ? { error: d.error } : {}) };
  if (ok) return { ...base, status: "delivered", delivered_at: endedAt.toISOString() };
  if (base.series_attempts >= retry.maxAttempts) return { ...base, status: "failed", error: attempt.error as string };
  const delay = retryDelayMs(retry, base.series_attempts, random);
  return {
    ...base,
    status: "pending",
    error: attempt.error as string,
    next_attempt_at: new Date(endedAt.getTime() + delay).toISOString(),
  };
}

/** A delivery that gets no attempt (its webhook was deleted or is disabled). */
export function notAttempted(d: DeliveryRecord, reason: string, at: Date): DeliveryRecord {
  const { next_attempt_at: _dropped, ...rest } = d;
  return { ...rest, status: "failed", error: reason, updated_at: at.toISOString() };
}
