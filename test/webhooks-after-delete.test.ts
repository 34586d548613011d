// After operation 7 at seed level: the grace for a delivery in flight follows the deployment's own
// delivery lag (the requeue's), within bounds; a leak is judged only after it. "After the delete" is the
// receiver's order of arrival, not its clock: one millisecond can hold the requeued delivery awaited
// before the delete and the delete's answer (a quick deployment on loopback, 3 of 13 runs of
// test/certify-first-run.test.ts on a quiet machine, each a false leak).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { run } from "../cli/certify.ts";
import { inFlightGrace, newEventLeak } from "../conformance/checks/webhooks/after-delete.ts";
import type { Report } from "../conformance/report/model.ts";
import { loadGeneratedOperations } from "../conformance/run/operations.ts";
import { type ReceivedDelivery, WebhookReceiver } from "../conformance/transport/receiver.ts";
import { freePort } from "./support/free-port.ts";
import { seedLevelFlags } from "./support/seed-only-flags.ts";
import { startSeedOnlyTarget } from "./support/seed-only-target.ts";

const GRACES: Array<[lagMs: number | undefined, timeoutMs: number, graceMs: number]> = [
  [undefined, 8_000, 2_000], // no lag measured: the least grace
  [300, 8_000, 2_000], // a quick deployment: still the least grace
  [1_500, 8_000, 3_000], // twice the lag
  [3_000, 8_000, 4_000], // at most half of --timeout-ms
  [undefined, 3_000, 1_500], // the least grace bounded by half of --timeout-ms too
];

/** Deliveries in the order given (seq 0, 1, ...), each at its time. */
function arrivals(...list: Array<[id: string, receivedAt: number]>): ReceivedDelivery[] {
  return list.map(
    ([id, receivedAt], seq) => ({ seq, receivedAt, headers: {}, event: { id }, body: `{"id":"${id}"}` }) as never,
  );
}

const dir = mkdtempSync(join(tmpdir(), "custody-after-delete-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("after the delete", () => {
  it.each(GRACES)("a requeue lag of %s ms under --timeout-ms %s gives %s ms of grace", (lag, timeout, grace) => {
    expect(inFlightGrace(lag, timeout).ms).toBe(grace);
  });

  it("a new event inside the grace is in flight; one after it is a leak", () => {
    const deletedAt = 3_000;
    const grace = inFlightGrace(1_500, 8_000).ms;
    const inGrace = arrivals(["a", 0], ["b", 2_500], ["c", deletedAt + 2_900]);
    const late = arrivals(["a", 0], ["b", 2_500], ["d", deletedAt + 3_100]);
    expect(newEventLeak(inGrace, 2, deletedAt + grace)).toBeUndefined();
    expect(newEventLeak(late, 2, deletedAt + grace)?.id).toBe("d");
  });

  it("counts what arrived before the mark as before the delete, though its millisecond is the delete's", () => {
    // Two webhooks on one URL: the one event before the delete arrived twice, its second copy in the
    // delete's millisecond, before its answer. Once after the grace is then one webhook fewer: no leak.
    const deletedAt = 1_000;
    const list = arrivals(["b", deletedAt - 1], ["b", deletedAt], ["c", deletedAt + 2_500]);
    expect(newEventLeak(list, 2, deletedAt + 2_000)).toBeUndefined();
    // Had that copy counted as after the delete, the pace would be one copy per event, and "c" a leak.
    expect(newEventLeak(list, 1, deletedAt + 2_000)?.id).toBe("c");
  });
});

describe("the receiver's order of arrival", () => {
  it("numbers deliveries as they arrive, and mark() is the number the next one gets", async () => {
    const receiver = new WebhookReceiver("order-test");
    await receiver.start();
    try {
      expect(receiver.mark()).toBe(0);
      const post = (id: string) =>
        fetch(receiver.url("c"), { method: "POST", body: JSON.stringify({ id }) }).then((r) => r.text());
      await post("first");
      const mark = receiver.mark();
      await Promise.all([post("second"), post("third")]);
      expect(mark).toBe(1);
      expect(receiver.deliveries.map((d) => d.seq)).toEqual([0, 1, 2]);
      expect(receiver.deliveries.filter((d) => d.seq >= mark).map((d) => d.event?.id)).toEqual(
        expect.arrayContaining(["second", "third"]),
      );
    } finally {
      await receiver.close();
    }
  });
});

describe("webhooks.delete-stops-delivery on a clock that stands still", () => {
  it("passes a seed-only deployment: every delivery shares the delete's millisecond, none came after it", async () => {
    const port = await freePort();
    const t = await startSeedOnlyTarget(`http://127.0.0.1:${port}/incoming/custody`);
    const json = join(dir, "still-clock.json");
    // Every Date.now() of the run, the receiver's and the check's, answers the same millisecond: the
    // tie that a quick deployment makes now and then, made every time. Timers keep real time.
    vi.spyOn(Date, "now").mockReturnValue(Date.now());
    let out = "";
    try {
      const code = await run([...seedLevelFlags(t, port, 4_000), "--only", "webhooks", "--json", json], {
        env: {},
        operations: await loadGeneratedOperations(),
        stdout: (s) => (out += s),
        stderr: (s) => (out += s),
      });
      const report = JSON.parse(readFileSync(json, "utf8")) as Report;
      const check = report.checks.find((c) => c.id === "webhooks.delete-stops-delivery");
      expect(check?.status, `${check?.message}\n${out}`).toBe("passed");
      expect(report.checks.filter((c) => c.status === "failed").map((c) => c.id)).toEqual([]);
      expect(code, out).toBe(3); // one group of the run: not certified, incomplete
    } finally {
      vi.restoreAllMocks();
      await t.close();
    }
  });
});
