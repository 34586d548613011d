// The pieces of per-endpoint delivery without a network: the breaker and disabling rule
// (endpoint-health.ts), the per-endpoint queues and their round-robin order (endpoint-queues.ts), the
// policy read from the spec (policy.ts), and the explicit production retry schedule (backoff.ts).
import { describe, expect, it } from "vitest";
import { webhookDelivery } from "../generated/webhooks.ts";
import type { EndpointHealth } from "../reference/domain/records.ts";
import { maxRetryDelayMs } from "../reference/webhooks/backoff.ts";
import {
  gateOf,
  healthAfterAttempt,
  inFlightCap,
  sameHealth,
  slotPool,
} from "../reference/webhooks/endpoint-health.ts";
import { EndpointQueues } from "../reference/webhooks/endpoint-queues.ts";
import { deliveryPolicy, PRODUCTION_POLICY, SANDBOX_POLICY } from "../reference/webhooks/policy.ts";

const policy = deliveryPolicy({
  overrides: { breaker: { openAfterFailures: 3, probeDelaysMs: [1_000, 5_000] }, disableAfterMs: 60_000 },
});
const t = (s: number) => new Date(Date.UTC(2025, 0, 1) + s * 1000);
const fail = (h: EndpointHealth | undefined, start: number, end = start, outcome: "failed" | "timeout" = "failed") =>
  healthAfterAttempt(h, { outcome, startedAt: t(start), endedAt: t(end) }, policy);
const succeed = (h: EndpointHealth | undefined, at: number) =>
  healthAfterAttempt(h, { outcome: "ok", startedAt: t(at), endedAt: t(at) }, policy);

describe("endpoint health", () => {
  it("opens the breaker after the threshold of consecutive failures, for the first probe delay", () => {
    let h = fail(undefined, 0).health;
    expect(h).toMatchObject({
      state: "healthy",
      consecutive_failures: 1,
      failing_since: t(0).toISOString(),
      last_outcome: "failed",
    });
    h = fail(h, 1).health;
    expect(h.state).toBe("healthy");
    h = fail(h, 2).health;
    expect(h).toMatchObject({
      state: "backing_off",
      consecutive_failures: 3,
      openings: 1,
      backoff_until: t(3).toISOString(),
    });
    expect(gateOf(h)).toBe(t(3).getTime());
  });

  it("counts an attempt that started before the breaker opened without moving the probe; a failed probe reopens it for the next delay, the last one repeating", () => {
    let h = fail(fail(fail(undefined, 0).health, 1).health, 2).health;
    const stale = fail(h, 2.5, 2.6).health;
    expect(stale).toMatchObject({
      state: "backing_off",
      consecutive_failures: 4,
      backoff_until: h.backoff_until,
      openings: 1,
    });
    h = fail(stale, 3, 3).health; // the probe
    expect(h).toMatchObject({ state: "backing_off", openings: 2, backoff_until: t(8).toISOString() });
    h = fail(h, 8, 8).health;
    expect(h).toMatchObject({ openings: 3, backoff_until: t(13).toISOString() });
  });

  it("shortens a probe delay by up to the schedule's jitter, so endpoints that failed together are not probed together", () => {
    const jittered = deliveryPolicy({
      retry: { jitter: 0.5 },
      overrides: { breaker: { openAfterFailures: 1, probeDelaysMs: [1_000] } },
    });
    const waitFor = (random: number) =>
      Date.parse(
        healthAfterAttempt(undefined, { outcome: "failed", startedAt: t(0), endedAt: t(0), random }, jittered).health
          .backoff_until as string,
      ) - t(0).getTime();
    expect([waitFor(0), waitFor(0.5), waitFor(0.999999)]).toEqual([1_000, 750, 500]);
  });

  it("closes on a 2xx and forgets the streak; slots: one until answered, after a time-out and for a probe, the failing pool during a streak", () => {
    const open = fail(fail(fail(undefined, 0).health, 1).health, 2).health;
    expect(inFlightCap(open, policy)).toBe(1);
    expect(slotPool(open)).toBe("failing");
    const closed = succeed(open, 4).health;
    expect(closed).toEqual({ state: "healthy", last_outcome: "ok", consecutive_failures: 0, openings: 0 });
    expect(gateOf(closed)).toBe(-Infinity);
    expect([inFlightCap(closed, policy), slotPool(closed)]).toEqual([policy.maxInFlightPerEndpoint, "answering"]);
    // A new endpoint: the answering pool, but one attempt until it has answered.
    expect([inFlightCap(undefined, policy), slotPool(undefined)]).toEqual([1, "answering"]);
    // An endpoint that answers, if not 2xx, keeps its share (the breaker deals with it); one that hangs gets one.
    const answered = fail(undefined, 0).health;
    expect([inFlightCap(answered, policy), slotPool(answered)]).toEqual([policy.maxInFlightPerEndpoint, "failing"]);
    const hung = fail(undefined, 0, 10, "timeout").health;
    expect([hung.last_outcome, inFlightCap(hung, policy), slotPool(hung)]).toEqual(["timeout", 1, "failing"]);
  });

  it("disables when every attempt failed for the disabling period, and a disabled endpoint stays so until enabled", () => {
    let h = fail(undefined, 0).health;
    h = fail(h, 30).health;
    const { health, disabled } = fail(h, 59, 60);
    expect(disabled).toBe(true);
    expect(health).toMatchObject({
      state: "disabled",
      disabled_at: t(60).toISOString(),
      failing_since: t(0).toISOString(),
    });
    expect(health.disabled_reason).toMatch(/every attempt failed for 60 s/);
    expect(gateOf(health)).toBe(Infinity);
    expect(succeed(health, 61)).toEqual({ health, disabled: false });
    // One success inside the period starts the clock again.
    const reset = fail(succeed(fail(undefined, 0).health, 30).health, 59, 60);
    expect(reset.disabled).toBe(false);
    expect(reset.health.failing_since).toBe(t(59).toISOString());
  });

  it("tells a changed record from the same one (the webhook is written only on a change)", () => {
    const h = fail(undefined, 0).health;
    expect(sameHealth(h, { ...h })).toBe(true);
    expect(sameHealth(h, { ...h, consecutive_failures: 2 })).toBe(false);
    expect(sameHealth(undefined, h)).toBe(false);
  });
});

describe("endpoint queues", () => {
  it("orders each endpoint's deliveries by due time, then by queueing order; moves and removes lazily", () => {
    const q = new EndpointQueues();
    q.put("d1", "A", 100);
    q.put("d2", "A", 50);
    q.put("d3", "A", 50);
    expect(q.head("A")).toEqual({ id: "d2", due: 50 });
    q.put("d2", "A", 200); // retried later
    expect(q.head("A")).toEqual({ id: "d3", due: 50 });
    q.remove("d3");
    expect(q.head("A")).toEqual({ id: "d1", due: 100 });
    expect(q.idsOf("A").sort()).toEqual(["d1", "d2"]);
    q.remove("d1");
    q.remove("d2");
    expect(q.head("A")).toBeUndefined();
    expect(q.size).toBe(0);
    expect(q.rotation()).toEqual([]);
  });

  it("starts each round-robin pass at the next endpoint, so none always goes first", () => {
    const q = new EndpointQueues();
    for (const e of ["A", "B", "C"]) q.put(`${e}1`, e, 0);
    expect([q.rotation(), q.rotation(), q.rotation(), q.rotation()]).toEqual([
      ["A", "B", "C"],
      ["B", "C", "A"],
      ["C", "A", "B"],
      ["A", "B", "C"],
    ]);
  });
});

describe("delivery policy", () => {
  it("takes the production guarantees from the spec (generated/webhooks.ts), and the sandbox changes only delays", () => {
    expect(PRODUCTION_POLICY.timeoutMs).toBe(webhookDelivery.attempts["timeout-seconds"] * 1000);
    expect(PRODUCTION_POLICY.retry.maxAttempts).toBe(webhookDelivery.attempts["max-attempts"]);
    expect([1, 2, 3, 4, 5, 6].map((n) => maxRetryDelayMs(PRODUCTION_POLICY.retry, n) / 1000)).toEqual([
      30, 120, 600, 3600, 21600, 21600,
    ]);
    expect(PRODUCTION_POLICY.breaker.openAfterFailures).toBe(
      webhookDelivery["circuit-breaker"]["open-after-consecutive-failures"],
    );
    expect(PRODUCTION_POLICY.disableAfterMs).toBe(5 * 24 * 3600 * 1000);
    const { retry: _r, breaker: sb, disableAfterMs: _d, ...sandboxRest } = SANDBOX_POLICY;
    const { retry: _p, breaker: pb, disableAfterMs: _e, ...productionRest } = PRODUCTION_POLICY;
    expect(sandboxRest).toEqual(productionRest);
    expect(sb.openAfterFailures).toBe(pb.openAfterFailures);
    expect(SANDBOX_POLICY.retry.maxAttempts).toBe(PRODUCTION_POLICY.retry.maxAttempts);
    expect(deliveryPolicy({ schedule: "production" })).toEqual(PRODUCTION_POLICY);
  });

  it("refuses a policy that cannot work, naming what is wrong", () => {
    expect(() => deliveryPolicy({ overrides: { maxInFlightUntilAnswered: 9 } })).toThrow(
      /maxInFlightUntilAnswered must be 1..maxInFlightPerEndpoint/,
    );
    expect(() => deliveryPolicy({ overrides: { breaker: { probeDelaysMs: [] } } })).toThrow(/probeDelaysMs/);
    expect(() => deliveryPolicy({ retry: { maxAttempts: 0 } })).toThrow(/maxAttempts/);
  });
});
