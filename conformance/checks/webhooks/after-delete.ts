// Seed level, after operation 7: how long to watch the deleted webhook's URL, and which delivery
// there is a leak. The seed shows neither the deployment's pace of events nor whether other webhooks
// share the URL, so both are read from what the receiver got before the delete.
import { eventIdOf, type ReceivedDelivery } from "../../transport/receiver.ts";

/**
 * An event that reached the deleted webhook's URL after the delete (and a grace for one in flight, up
 * to `graceEndsAt`, a time) as many times as each event did before it (the deliveries below
 * `afterDelete`, the receiver's mark when the delete returned): other webhooks may deliver to the same
 * URL, so every event then arrives once per webhook, and one fewer once this one is gone. The requeued
 * event is left out of the count (each requeue delivers it once more).
 */
export function newEventLeak(
  onUrl: readonly ReceivedDelivery[],
  afterDelete: number,
  graceEndsAt: number,
  requeuedId?: string,
): { id: string; delivery: ReceivedDelivery; why: string } | undefined {
  const copies = (list: readonly ReceivedDelivery[]) => {
    const counts = new Map<string, ReceivedDelivery[]>();
    list.forEach((d, i) => {
      const id = eventIdOf(d) ?? `(no id #${i})`;
      if (id !== requeuedId) counts.set(id, [...(counts.get(id) ?? []), d]);
    });
    return counts;
  };
  const before = [...copies(onUrl.filter((d) => d.seq < afterDelete)).values()];
  const perEvent = Math.max(1, ...before.map((c) => c.length));
  for (const [id, list] of copies(onUrl.filter((d) => d.seq >= afterDelete && d.receivedAt >= graceEndsAt))) {
    if (list.length >= perEvent)
      return {
        id,
        delivery: list[0],
        why: `it arrived ${list.length} time(s) on that URL, as many as each event did before the delete (${perEvent})`,
      };
  }
  return undefined;
}

/** The least grace for a delivery in flight (1 s proved too short once on a busy 2-core machine). */
const IN_FLIGHT_MS = 2_000;

/**
 * A delivery already on its way when the delete returned may land this long after it: twice the time
 * a requeued delivery took to arrive (the deployment's delivery lag, measured on this run: the slower of
 * the requeue at the start of the webhooks group and the one just before the delete), at least 2 s, at
 * most half of --timeout-ms. A fixed grace (2 s, capped at a third of the watch) failed a
 * deployment that addresses each event only to the webhooks live when it is made
 * (test/support/seed-only-target.ts) on a busy 2-core machine: its event made just before the delete
 * landed after the grace.
 */
export function inFlightGrace(requeueLagMs: number | undefined, timeoutMs: number): { ms: number; why: string } {
  const wanted = Math.max(IN_FLIGHT_MS, 2 * (requeueLagMs ?? 0));
  const ms = Math.round(Math.min(wanted, timeoutMs / 2));
  const lag = requeueLagMs === undefined ? "the requeue's lag unknown" : `the slower requeue took ${requeueLagMs} ms`;
  return { ms, why: `${lag}; twice that, at least ${IN_FLIGHT_MS} ms, at most half of --timeout-ms` };
}

/**
 * How long to watch after the delete: twice the longest interval between the first arrivals of the
 * events the receiver got on that URL before it (the requeued one left out: certify caused those), at
 * least 2 s, at most --timeout-ms; with fewer than two such intervals there is no pace to go by, and
 * the whole --timeout-ms is watched.
 */
export function watchAfterDelete(
  before: readonly ReceivedDelivery[],
  timeoutMs: number,
  requeuedId?: string,
): { ms: number; why: string } {
  const firsts = new Map<string, number>();
  before.forEach((d, i) => {
    const id = eventIdOf(d) ?? `(no id #${i})`;
    if (id !== requeuedId && !firsts.has(id)) firsts.set(id, d.receivedAt);
  });
  const times = [...firsts.values()].sort((a, b) => a - b);
  if (times.length < 3)
    return {
      ms: timeoutMs,
      why: `${times.length} event(s) of the deployment's own before the delete, too few to show its pace: the whole --timeout-ms`,
    };
  const longest = times.slice(1).reduce((max, t, i) => Math.max(max, t - times[i]), 0);
  const wanted = Math.max(Math.min(2_000, timeoutMs / 2), 2 * longest);
  const ms = Math.round(Math.min(wanted, timeoutMs));
  return {
    ms,
    why: `2 × ${longest} ms, the longest interval between the ${
      times.length
    } events the receiver got there before the delete${
      wanted > timeoutMs ? `, bounded by --timeout-ms ${timeoutMs}` : ""
    }`,
  };
}

/** True when the delivery names a webhook (webhook_id at any depth of its body) and none of them is `webhookId`. */
export function namesOtherWebhook(d: ReceivedDelivery, webhookId: string): boolean {
  const named: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (depth > 6 || typeof v !== "object" || v === null) return;
    if (Array.isArray(v)) return v.forEach((item) => walk(item, depth + 1));
    const r = v as Record<string, unknown>;
    if (typeof r.webhook_id === "string") named.push(r.webhook_id);
    for (const value of Object.values(r)) walk(value, depth + 1);
  };
  walk(d.event, 0);
  return named.length > 0 && !named.includes(webhookId);
}
