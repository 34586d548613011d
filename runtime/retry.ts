// When a call is tried again: the policy (which outcomes, how many times, how long between), the
// backoff, and the server's Retry-After. Used by the HTTP transport for idempotent requests.
import { TransportError } from "./errors.ts";

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
  maxDelayMs: number;
  /** Whether this outcome is worth another attempt (only ever asked for idempotent calls). */
  retryOn: (outcome: RetryOutcome) => boolean;
}

/** Network errors and timeouts, 429 and 5xx are worth retrying; anything else is an answer. */
export function defaultRetryOn(outcome: RetryOutcome): boolean {
  if (outcome.status !== undefined) return outcome.status === 429 || outcome.status >= 500;
  return outcome.error instanceof TransportError && (outcome.error.kind === "network" || outcome.error.kind === "timeout");
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  retries: 2,
  minDelayMs: 100,
  maxDelayMs: 2000,
  retryOn: defaultRetryOn,
});

/** Exponential backoff with full jitter: a random delay in [0, min(max, min * 2^(attempt-1))]. */
export function backoffDelayMs(policy: Pick<RetryPolicy, "minDelayMs" | "maxDelayMs">, attempt: number, random = Math.random): number {
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

/** Retry-After in seconds (the HTTP-date form is not worth the trouble here). */
export function retryAfterMs(headers: Record<string, string>): number | undefined {
  const value = headers["retry-after"];
  return value !== undefined && /^\d{1,6}$/.test(value.trim()) ? Number(value.trim()) * 1000 : undefined;
}

/** The default policy with a caller's overrides; false means no retries at all. */
export function retryPolicy(override: Partial<RetryPolicy> | false | undefined): RetryPolicy {
  return override === false ? { ...DEFAULT_RETRY_POLICY, retries: 0 } : { ...DEFAULT_RETRY_POLICY, ...override };
}
