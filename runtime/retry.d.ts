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
export declare function isRetryableStatus(status: number): boolean;
/** Connection errors and timeouts, 408, 429 and 5xx are worth retrying; anything else is an answer. */
export declare function defaultRetryOn(outcome: RetryOutcome): boolean;
export declare const DEFAULT_MAX_RETRY_AFTER_MS = 60000;
export declare const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy>;
/** Exponential backoff with full jitter: a random delay in [0, min(max, min * 2^(attempt-1))]. */
export declare function backoffDelayMs(policy: Pick<RetryPolicy, "minDelayMs" | "maxDelayMs">, attempt: number, random?: () => number): number;
export declare function sleep(ms: number, signal: AbortSignal | undefined): Promise<void>;
/** Retry-After (delta-seconds or HTTP date) or retry-after-ms, in ms; see retryAfterHeaderMs. */
export declare function retryAfterMs(headers: Record<string, string>, nowMs?: number): number | undefined;
/** The default policy with a caller's overrides; false means no retries at all. */
export declare function retryPolicy(override: Partial<RetryPolicy> | false | undefined): RetryPolicy;
/**
 * How long to wait before attempt `attempt + 1`: the server's Retry-After when it gave one (up to
 * maxRetryAfterMs; "stop" beyond it), else the jittered backoff.
 */
export declare function nextDelayMs(policy: RetryPolicy, attempt: number, headers: Record<string, string> | undefined, nowMs?: number): number | "stop";
