// When a call is tried again: the policy (which outcomes, how many times, how long between), the
// backoff, and the server's Retry-After. Used by the HTTP transport for requests safe to repeat
// (idempotent methods, and calls carrying an idempotency key).
import { retryAfterHeaderMs, TransportError } from "../errors.ts";

export interface RetryOutcome {
  /** HTTP status when a response arrived. */
  status?: number;
  /** The TransportError when none did. */
  error?: unknown;
  /** 1 for the first attempt. */
  attempt: number;
}

export interface RetryPolicy {
  /** Extra attempts after the first. */
  retries: number;
  minDelayMs: number;
  /** Ceiling of the backoff (a Retry-After the server sends is honoured up to maxRetryAfterMs instead). */
  maxDelayMs: number;
  /**
   * The longest Retry-After honoured (default 60 s). A longer one is not waited for: the answer is
   * returned as it is, so the caller gets the RateLimitError (or 5xx error) with the wait it asked for.
   */
  maxRetryAfterMs: number;
  /** Whether this outcome is worth another attempt (only ever asked for requests safe to repeat). */
  retryOn: (outcome: RetryOutcome) => boolean;
}

/** Statuses that say "try again": request timeout, too many requests, and every server failure. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Connection errors and timeouts, 408, 429 and 5xx are worth retrying; anything else is an answer. */
export function defaultRetryOn(outcome: RetryOutcome): boolean {
  if (outcome.status !== undefined) return isRetryableStatus(outcome.status);
  return (
    outcome.error instanceof TransportError && (outcome.error.kind === "network" || outcome.error.kind === "timeout")
  );
}

export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  retries: 2,
  minDelayMs: 100,
  maxDelayMs: 2000,
  maxRetryAfterMs: DEFAULT_MAX_RETRY_AFTER_MS,
  retryOn: defaultRetryOn,
});

/** Exponential backoff with full jitter: a random delay in [0, min(max, min * 2^(attempt-1))]. */
export function backoffDelayMs(
  policy: Pick<RetryPolicy, "minDelayMs" | "maxDelayMs">,
  attempt: number,
  random = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.minDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Retry-After (delta-seconds or HTTP date) or retry-after-ms, in ms; see retryAfterHeaderMs. */
export function retryAfterMs(headers: Record<string, string>, nowMs: number = Date.now()): number | undefined {
  return retryAfterHeaderMs(headers, nowMs);
}

/** The default policy with a caller's overrides; false means no retries at all. */
export function retryPolicy(override: Partial<RetryPolicy> | false | undefined): RetryPolicy {
  return override === false ? { ...DEFAULT_RETRY_POLICY, retries: 0 } : { ...DEFAULT_RETRY_POLICY, ...override };
}

/**
 * How long to wait before attempt `attempt + 1`: the server's Retry-After when it gave one (up to
 * maxRetryAfterMs; "stop" beyond it), else the jittered backoff.
 */
export function nextDelayMs(
  policy: RetryPolicy,
  attempt: number,
  headers: Record<string, string> | undefined,
  nowMs: number = Date.now(),
): number | "stop" {
  const asked = headers === undefined ? undefined : retryAfterHeaderMs(headers, nowMs);
  if (asked === undefined) return backoffDelayMs(policy, attempt);
  return asked > policy.maxRetryAfterMs ? "stop" : asked;
}
