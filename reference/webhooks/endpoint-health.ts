// The health of one endpoint (a registered webhook) and how each attempt changes it: the circuit
// breaker and the disabling rule of x-custody-webhook-delivery. Pure functions over EndpointHealth, so
// the dispatcher stores the result with the attempt in one transaction and tests need no network.
//
//   healthy ──(openAfterFailures consecutive failures)──► backing_off ──(2xx)──► healthy
//   backing_off ──(probe fails)──► backing_off, next probe delay
//   any ──(a failure when every attempt since failing_since failed for disableAfterMs)──► disabled
//   disabled ──(enableWebhook)──► healthy (a fresh record)
import type { AttemptOutcome, EndpointHealth } from "../domain/records.ts";
import type { DeliveryPolicy } from "./policy.ts";

export interface AttemptResult {
  outcome: AttemptOutcome;
  /** 0..1: shortens a probe delay by up to policy.retry.jitter of it, so endpoints that failed together are not probed together. */
  random?: number;
  /** When the attempt started and when it ended. */
  startedAt: Date;
  endedAt: Date;
}

/** The health after one attempt; `disabled` says whether this attempt disabled the endpoint. */
export function healthAfterAttempt(
  prev: EndpointHealth | undefined,
  attempt: AttemptResult,
  policy: DeliveryPolicy,
): { health: EndpointHealth; disabled: boolean } {
  if (prev?.state === "disabled") return { health: prev, disabled: false };
  if (attempt.outcome === "ok")
    return { health: { state: "healthy", last_outcome: "ok", consecutive_failures: 0, openings: 0 }, disabled: false };
  const at = attempt.endedAt.getTime();
  const failingSince = prev?.failing_since ?? attempt.startedAt.toISOString();
  const failures = (prev?.consecutive_failures ?? 0) + 1;
  if (at - Date.parse(failingSince) >= policy.disableAfterMs) {
    const since = Math.round((at - Date.parse(failingSince)) / 1000);
    return {
      health: {
        state: "disabled",
        last_outcome: attempt.outcome,
        consecutive_failures: failures,
        failing_since: failingSince,
        openings: prev?.openings ?? 0,
        disabled_at: attempt.endedAt.toISOString(),
        disabled_reason: `every attempt failed for ${since} s (since ${failingSince}), ${failures} in a row`,
      },
      disabled: true,
    };
  }
  const base: EndpointHealth = {
    state: "healthy",
    last_outcome: attempt.outcome,
    consecutive_failures: failures,
    failing_since: failingSince,
    openings: prev?.openings ?? 0,
  };
  if (prev?.state === "backing_off") {
    // An attempt launched before the breaker opened only counts; a probe (or later attempt) reopens it.
    const backoffUntil = Date.parse(prev.backoff_until ?? "");
    if (attempt.startedAt.getTime() < backoffUntil)
      return { health: { ...base, state: "backing_off", backoff_until: prev.backoff_until }, disabled: false };
    return { health: open(base, base.openings + 1, at, policy, attempt.random), disabled: false };
  }
  if (failures >= policy.breaker.openAfterFailures)
    return { health: open(base, 1, at, policy, attempt.random), disabled: false };
  return { health: base, disabled: false };
}

function open(base: EndpointHealth, openings: number, at: number, policy: DeliveryPolicy, random = 0): EndpointHealth {
  const delays = policy.breaker.probeDelaysMs;
  const wait = Math.round(delays[Math.min(openings, delays.length) - 1] * (1 - policy.retry.jitter * random));
  return { ...base, state: "backing_off", openings, backoff_until: new Date(at + wait).toISOString() };
}

/** When the endpoint may get its next attempt (ms); Infinity while disabled. */
export function gateOf(health: EndpointHealth | undefined): number {
  if (!health) return -Infinity;
  if (health.state === "disabled") return Infinity;
  if (health.state === "backing_off" && health.backoff_until) return Date.parse(health.backoff_until);
  return -Infinity;
}

/**
 * Attempts the endpoint may have in flight: the full share once it answers (2xx or not), one while it
 * has not answered yet, after a time-out (a hanging endpoint holds one socket), and for the probe of
 * an open breaker.
 */
export function inFlightCap(health: EndpointHealth | undefined, policy: DeliveryPolicy): number {
  const answers = health !== undefined && health.last_outcome !== "timeout" && health.state === "healthy";
  return answers ? policy.maxInFlightPerEndpoint : policy.maxInFlightUntilAnswered;
}

/** The pool an attempt to this endpoint takes its slot from: endpoints in a failure streak have their own. */
export function slotPool(health: EndpointHealth | undefined): "answering" | "failing" {
  return (health?.consecutive_failures ?? 0) > 0 ? "failing" : "answering";
}

/** Whether two health records say the same (the webhook record is written only on a change). */
export function sameHealth(a: EndpointHealth | undefined, b: EndpointHealth): boolean {
  if (a === undefined) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof EndpointHealth>;
  return [...keys].every((k) => a[k] === b[k]);
}
