// After operation 7 at seed level: the grace for a delivery in flight follows the deployment's own
// delivery lag (the requeue's), within bounds; a leak is judged only after it.
import { describe, expect, it } from "vitest";
import { inFlightGrace, newEventLeak } from "../conformance/checks/webhooks/after-delete.ts";
import type { ReceivedDelivery } from "../conformance/transport/receiver.ts";

const GRACES: Array<[lagMs: number | undefined, timeoutMs: number, graceMs: number]> = [
  [undefined, 8_000, 2_000], // no lag measured: the least grace
  [300, 8_000, 2_000], // a quick deployment: still the least grace
  [1_500, 8_000, 3_000], // twice the lag
  [3_000, 8_000, 4_000], // at most half of --timeout-ms
  [undefined, 3_000, 1_500], // the least grace bounded by half of --timeout-ms too
];

function delivery(id: string, receivedAt: number): ReceivedDelivery {
  return { receivedAt, headers: {}, event: { id }, body: `{"id":"${id}"}` } as unknown as ReceivedDelivery;
}

describe("after the delete", () => {
  it.each(GRACES)("a requeue lag of %s ms under --timeout-ms %s gives %s ms of grace", (lag, timeout, grace) => {
    expect(inFlightGrace(lag, timeout).ms).toBe(grace);
  });

  it("a new event inside the grace is in flight; one after it is a leak", () => {
    const before = [delivery("a", 0), delivery("b", 2_500)];
    const deletedAt = 3_000;
    const grace = inFlightGrace(1_500, 8_000).ms;
    expect(newEventLeak([...before, delivery("c", deletedAt + 2_900)], deletedAt, deletedAt + grace)).toBeUndefined();
    expect(newEventLeak([...before, delivery("d", deletedAt + 3_100)], deletedAt, deletedAt + grace)?.id).toBe("d");
  });
});
