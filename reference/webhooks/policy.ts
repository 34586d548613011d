// How the sandbox delivers webhooks: time-out, retries, per-endpoint isolation, circuit breaker and
// disabling. The production values are the spec's (x-custody-webhook-delivery, read through
// generated/webhooks.ts so there is one source); the sandbox schedule shortens only the delays, so that
// retries, probes and disabling happen while a developer watches. Decided here once.
import { webhookDelivery as SPEC } from "../../generated/webhooks.ts";
import { type RetrySchedule, validateRetrySchedule } from "./backoff.ts";

export interface BreakerPolicy {
  /** Consecutive failed attempts that open the breaker. */
  openAfterFailures: number;
  /** Wait before the n-th probe of a streak (the last one repeats). */
  probeDelaysMs: readonly number[];
}

export interface DeliveryPolicy {
  /** Time allowed for one attempt (connect, headers and body). */
  timeoutMs: number;
  retry: RetrySchedule;
  /** Attempts in flight for an endpoint that answers (2xx or not). */
  maxInFlightPerEndpoint: number;
  /** Attempts in flight for an endpoint that has not answered yet, timed out last, or is probing. */
  maxInFlightUntilAnswered: number;
  /**
   * Attempt slots of endpoints that answer (or have not been tried), and of endpoints in a failure
   * streak: two pools, so failing endpoints never take a slot from one that answers. Only a burst of
   * more new endpoints than `answeringSlots` that all hang could delay a healthy one, for one time-out.
   */
  answeringSlots: number;
  failingSlots: number;
  breaker: BreakerPolicy;
  /** An endpoint whose every attempt failed for this long is disabled. */
  disableAfterMs: number;
}

export type DeliverySchedule = "sandbox" | "production";

const SECOND = 1_000;
const seconds = (list: readonly number[]) => list.map((s) => s * SECOND);

/** The spec's guarantees, as they hold in production. */
export const PRODUCTION_POLICY: DeliveryPolicy = {
  timeoutMs: SPEC.attempts["timeout-seconds"] * SECOND,
  retry: {
    maxAttempts: SPEC.attempts["max-attempts"],
    // The schedule lists the first attempt's 0 too; retries start after it.
    delaysMs: seconds(SPEC.attempts["retry-schedule-seconds"].slice(1)),
    initialDelayMs: 0,
    maxDelayMs: 0,
    factor: 1,
    jitter: 0,
  },
  maxInFlightPerEndpoint: SPEC.isolation["max-in-flight-per-endpoint"],
  maxInFlightUntilAnswered: SPEC.isolation["max-in-flight-until-answered"],
  answeringSlots: 256,
  failingSlots: 64,
  breaker: {
    openAfterFailures: SPEC["circuit-breaker"]["open-after-consecutive-failures"],
    probeDelaysMs: seconds(SPEC["circuit-breaker"]["probe-after-seconds"]),
  },
  disableAfterMs: SPEC.disabling["after-failing-seconds"] * SECOND,
};

/**
 * The sandbox's default: the spec's time-out, attempt count, isolation and breaker threshold, with
 * delays a developer can watch: retries after 1, 2, 4, 8, 16 s (each shortened by up to 50 % jitter),
 * probes after 1, 2, 5, 10 s, disabling after 10 minutes of failures instead of 5 days.
 */
export const SANDBOX_POLICY: DeliveryPolicy = {
  ...PRODUCTION_POLICY,
  retry: {
    maxAttempts: PRODUCTION_POLICY.retry.maxAttempts,
    initialDelayMs: 1_000,
    maxDelayMs: 60_000,
    factor: 2,
    jitter: 0.5,
  },
  breaker: { ...PRODUCTION_POLICY.breaker, probeDelaysMs: seconds([1, 2, 5, 10]) },
  disableAfterMs: 10 * 60 * SECOND,
};

export interface PolicyChoice {
  schedule?: DeliverySchedule;
  retry?: Partial<RetrySchedule>;
  timeoutMs?: number;
  /** Anything else, for tests and benchmarks (breaker, disabling, slots). */
  overrides?: Partial<Omit<DeliveryPolicy, "retry" | "timeoutMs" | "breaker">> & { breaker?: Partial<BreakerPolicy> };
}

/** The policy a deployment runs with: a schedule, then the overrides, validated. */
export function deliveryPolicy(choice: PolicyChoice = {}): DeliveryPolicy {
  const base = choice.schedule === "production" ? PRODUCTION_POLICY : SANDBOX_POLICY;
  const { breaker, ...rest } = choice.overrides ?? {};
  const policy: DeliveryPolicy = {
    ...base,
    ...rest,
    retry: validateRetrySchedule({ ...base.retry, ...choice.retry }),
    timeoutMs: choice.timeoutMs ?? base.timeoutMs,
    breaker: { ...base.breaker, ...breaker },
  };
  return validatePolicy(policy);
}

function validatePolicy(p: DeliveryPolicy): DeliveryPolicy {
  const positiveInt = (n: number) => Number.isInteger(n) && n >= 1;
  const problems = [
    !(p.timeoutMs > 0) && "timeoutMs must be positive",
    !positiveInt(p.maxInFlightPerEndpoint) && "maxInFlightPerEndpoint must be an integer >= 1",
    !(positiveInt(p.maxInFlightUntilAnswered) && p.maxInFlightUntilAnswered <= p.maxInFlightPerEndpoint) &&
      "maxInFlightUntilAnswered must be 1..maxInFlightPerEndpoint",
    !(positiveInt(p.answeringSlots) && positiveInt(p.failingSlots)) &&
      "answeringSlots and failingSlots must be integers >= 1",
    !positiveInt(p.breaker.openAfterFailures) && "breaker.openAfterFailures must be an integer >= 1",
    !(p.breaker.probeDelaysMs.length > 0 && p.breaker.probeDelaysMs.every((d) => d >= 0)) &&
      "breaker.probeDelaysMs must list delays >= 0",
    !(p.disableAfterMs > 0) && "disableAfterMs must be positive",
  ].filter((x): x is string => typeof x === "string");
  if (problems.length > 0) throw new Error(`invalid webhook delivery policy: ${problems.join("; ")}`);
  return p;
}
