// Crash safety of money movement: `custody sandbox --data DIR` killed twice with SIGKILL while clients
// request and approve withdrawals, deposits arrive and webhooks are delivered; restarted on the same data
// each time. Every approved withdrawal must end completed or failed, exactly once on chain; balances
// must equal the chain; every deposit is recorded once; every logged event is delivered.
import { describe, expect, it } from "vitest";
import { runCrash } from "../scripts/crash-run.ts";

describe("crash safety", () => {
  it("survives two SIGKILLs during withdrawals and deliveries", async () => {
    const f = await runCrash({ killAtMs: [3_000, 8_000], tailMs: 3_000, clients: 3, settleMs: 45_000 });
    expect(f.details).toEqual([]);
    expect(f.withdrawals).toBeGreaterThan(0);
    expect(f.deposits).toBeGreaterThan(3);
    expect({
      stuck: f.stuck,
      doubleSpent: f.doubleSpent,
      chainMismatch: f.chainMismatch,
      balanceMismatch: f.balanceMismatch,
    }).toEqual({ stuck: 0, doubleSpent: 0, chainMismatch: 0, balanceMismatch: 0 });
    expect({
      depositsMissedOrDouble: f.depositsMissedOrDouble,
      eventsLost: f.eventsLost,
      eventsUnknown: f.eventsUnknown,
      eventTrailErrors: f.eventTrailErrors,
    }).toEqual({ depositsMissedOrDouble: 0, eventsLost: 0, eventsUnknown: 0, eventTrailErrors: 0 });
    expect(f.completed + f.failed).toBe(f.withdrawals);
  });
});
