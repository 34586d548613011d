// Deleting a webhook stops its deliveries (seed 6).

import { requeueAndAwait } from "../../provision/delivery.ts";
import { createWalletAndWait } from "../../provision/wallet.ts";
import { registerWebhook } from "../../provision/webhook.ts";
import type { CheckContext } from "../../run/context.ts";
import type { HttpExchange } from "../../transport/probe.ts";
import { carriesEventId, eventIdOf, eventTypeOf, type ReceivedDelivery } from "../../transport/receiver.ts";
import type { Check } from "../check.ts";
import { expectSuccess, failWith } from "../expect.ts";
import { fail, skip } from "../outcome.ts";
import { inFlightGrace, namesOtherWebhook, newEventLeak, watchAfterDelete } from "./after-delete.ts";
import { expectSeedRecord } from "./delivery-log.ts";
import { deliveryEvidence } from "./received.ts";

export const deleteStopsDelivery: Check = {
  id: "webhooks.delete-stops-delivery",
  skipsWithout: ["webhook", "delivery", "event"],
  statements: ["s2.8.webhook-delete-result", "s3.delete-result-deleted", "s4.op7-delete-webhook"],
  group: "webhooks",
  title:
    "Operation 7 answers the webhook's WebhookDeleteResult with status deleted, and nothing is delivered to that webhook afterwards",
  severity: "MUST",
  seedRef: "§2.8; §4 operation 7",
  level: "seed",
  requires: ["receiver", "workspace"],
  // At --level seed operation 7 deletes --webhook-id itself, which the checks of its deliveries, the
  // isolation checks and the viewer's refused delete aim at first. At full level it deletes a webhook
  // of its own and judges only that webhook's channel, so it runs beside them (its watch after the
  // delete overlaps theirs).
  afterAtSeed: [
    "webhooks.resend-same-event",
    "webhooks.delivery-signature",
    "webhooks.tampered-body-rejected",
    "webhooks.delivery-logged",
    "isolation.reads-refused",
    "isolation.writes-refused",
    "role.viewer-cannot-change-settings",
    "scope.balances-read-only",
    "webhooks.wallet-created-name",
  ],
  // At seed level: the requeue awaited before the delete (at most half of --timeout-ms), the grace (at
  // most half) and the watch (at most all of it).
  timeoutScale: 3,
  sends:
    "deleteWebhook (at full level of a second webhook of the run, then createWallet to cause an event; at seed level resendWebhookDelivery of --delivery-id awaited first, to measure the delivery lag at the delete, then deleteWebhook of --webhook-id and resendWebhookDelivery of --delivery-id, which must be a delivery of that webhook; after a grace for a delivery in flight (twice the slower requeue's lag, at least 2 s), watches twice the longest interval between earlier deliveries, at most --timeout-ms)",
  run: (ctx) => (ctx.level === "full" ? deleteOwnWebhook(ctx) : deleteGivenWebhook(ctx)),
};

/**
 * Full level: a second webhook of ours is deleted, then a new event is made. A delivery already on
 * its way when the delete returned may still arrive, once; a repeat of an event on that webhook, or
 * the new event, arriving after the delete is a leak.
 */
async function deleteOwnWebhook(ctx: CheckContext): Promise<void> {
  const receiver = await ctx.need("receiver");
  const primary = await ctx.need("webhook");
  const workspaceId = await ctx.need("workspace");
  const doomed = await registerWebhook(ctx.suite, `deleted${Date.now().toString(36)}`, ctx.signal);
  const ex = await ctx.call("deleteWebhook", { params: { workspace_id: workspaceId, webhook_id: doomed.id } });
  expectDeleted(ctx, ex, doomed.id);
  const afterDelete = receiver.mark();
  const wallet = await createWalletAndWait(ctx.suite, ctx.suite.marker.name("after-delete-wallet"), ctx.signal);
  const reachedPrimary = await receiver.waitFor(
    (d) => d.channel === primary.channel && eventTypeOf(d) === "wallet.created" && d.body.includes(wallet.walletId),
    ctx.timeoutMs,
    ctx.signal,
  );
  if (!reachedPrimary) skip("no new event reached the primary webhook either, so deletion cannot be told apart");
  // One event goes to every webhook at about the same time: a copy for the deleted one would be close behind.
  await ctx.sleep(Math.min(1_000, ctx.timeoutMs / 4));
  const leak = leakAfterDelete(receiver.deliveries, doomed.channel!, afterDelete, (d) =>
    d.body.includes(wallet.walletId),
  );
  if (leak)
    fail(
      `webhook ${doomed.id} still received ${String(eventTypeOf(leak.delivery))} after it was deleted (${leak.why})`,
      deliveryEvidence(leak.delivery),
    );
}

/**
 * The first delivery to `channel` that arrived after the delete returned (its seq at or above
 * `afterDelete`, the receiver's mark then) and is a leak: an event made after the delete (`isNew`), or
 * an event that had already reached that channel (a retry or a requeue). A first arrival of an older
 * event was in flight when the delete returned: not a leak.
 */
export function leakAfterDelete(
  deliveries: readonly ReceivedDelivery[],
  channel: string,
  afterDelete: number,
  isNew: (d: ReceivedDelivery) => boolean,
): { delivery: ReceivedDelivery; why: string } | undefined {
  const onChannel = deliveries.filter((d) => d.channel === channel);
  for (const [index, d] of onChannel.entries()) {
    if (d.seq < afterDelete) continue;
    if (isNew(d)) return { delivery: d, why: "an event made after the delete" };
    const id = eventIdOf(d);
    if (id !== undefined && onChannel.slice(0, index).some((e) => eventIdOf(e) === id))
      return { delivery: d, why: `event ${id} delivered again` };
  }
  return undefined;
}

/**
 * Seed level: --delivery-id is requeued and awaited (the delivery lag now), --webhook-id deleted, then
 * --delivery-id requeued again: its event must not arrive, nor
 * any event on the deleted webhook's URL (the channel its deliveries came in on) after a grace for one
 * already in flight (inFlightGrace), unless it names another webhook. How long to watch comes from the receiver's own
 * history: two of the longest intervals between the deliveries it got there before the delete (a
 * deployment whose events are further apart than a fixed wait would pass), bounded by --timeout-ms.
 */
async function deleteGivenWebhook(ctx: CheckContext): Promise<void> {
  const receiver = await ctx.need("receiver");
  const webhook = await ctx.need("webhook");
  const workspaceId = await ctx.need("workspace");
  const delivery = await ctx.need("delivery");
  // Nothing arriving after the delete proves nothing unless the requeued delivery arrived before it.
  const first = await ctx.settle("event");
  if (!first.ok) skip(first.reason, first.needs);
  const channel = first.value.channel;
  const known = delivery.eventId ?? first.value.requeuedEventId ?? eventIdOf(first.value);
  const watch = watchAfterDelete(
    receiver.deliveries.filter((d) => d.channel === channel),
    ctx.timeoutMs,
    known,
  );
  // The deployment's delivery lag as the delete goes out. The requeue at the start of the webhooks group
  // can have been much quicker: on a 2-core machine that got busy since, a paced event made just before
  // the delete reached the receiver after a grace drawn from it. The same delivery, requeued again and
  // awaited here, tells the lag now.
  const lagBound = Math.round(ctx.timeoutMs / 2);
  const lagNow = await requeueAndAwait(ctx.suite, workspaceId, delivery.deliveryId, lagBound);
  if (!lagNow)
    skip(
      `requeueing --delivery-id ${delivery.deliveryId} again just before the delete brought nothing within ${lagBound} ms: its late arrival after the delete could not be told from a leak`,
    );
  const ex = await ctx.call("deleteWebhook", { params: { workspace_id: workspaceId, webhook_id: webhook.id } });
  expectDeleted(ctx, ex, webhook.id);
  // What arrived before this (the requeue awaited above among it, in the same millisecond as this on a
  // quick deployment) is not after the delete; the grace below is a duration, so it keeps the time too.
  const afterDelete = receiver.mark();
  const deletedAt = Date.now();
  const resend = await ctx.call("resendWebhookDelivery", {
    params: { workspace_id: workspaceId, delivery_id: delivery.deliveryId },
  });
  const record = resend.response.status < 300 ? deliveryRecordIn(resend.response.text) : {};
  // The requeued delivery is another webhook's (seed 2.7 names its webhook_id): its arrival is that
  // webhook's and says nothing of the deleted one.
  if (record.webhookId !== undefined && record.webhookId !== webhook.id) {
    skip(
      `--delivery-id ${delivery.deliveryId} is a delivery of webhook ${record.webhookId} (operation 6's answer), not of the deleted --webhook-id ${webhook.id}: give a delivery of that webhook to show that it gets nothing after deletion`,
    );
  }
  const eventId = record.eventId ?? known;
  // The grace for a delivery in flight comes first, so that the whole watch still sees the pace.
  const grace = inFlightGrace(Math.max(first.value.requeueLagMs ?? 0, lagNow.lagMs), ctx.timeoutMs);
  await ctx.sleep(grace.ms + watch.ms);
  ctx.fact(
    "watched",
    `${grace.ms + watch.ms} ms after the delete: ${grace.ms} ms for a delivery in flight (${grace.why}), then ${watch.ms} ms (${watch.why})`,
  );
  const requeued = receiver.deliveries.find(
    (d) => d.seq >= afterDelete && eventId !== undefined && carriesEventId(d, eventId),
  );
  if (requeued)
    fail(
      `webhook ${webhook.id} still received the requeued event ${eventId} after it was deleted (watched ${watch.ms} ms: ${watch.why})`,
      deliveryEvidence(requeued),
    );
  const onUrl = receiver.deliveries.filter((d) => d.channel === channel && !namesOtherWebhook(d, webhook.id));
  const leak = newEventLeak(onUrl, afterDelete, deletedAt + grace.ms, eventId);
  if (leak)
    fail(
      `webhook ${webhook.id} still received event ${leak.id} after it was deleted: ${leak.why} (watched ${watch.ms} ms: ${watch.why})`,
      deliveryEvidence(leak.delivery),
    );
}

/** event_id and webhook_id of operation 6's WebhookDelivery record (seed 2.7), those it names. */
function deliveryRecordIn(text: string): { eventId?: string; webhookId?: string } {
  const named = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
  try {
    const data = (JSON.parse(text) as { data?: { event_id?: unknown; webhook_id?: unknown } }).data;
    return { eventId: named(data?.event_id), webhookId: named(data?.webhook_id) };
  } catch {
    return {};
  }
}

/** Operation 7's answer: a WebhookDeleteResult (seed 2.8) of the webhook asked for, status "deleted" (seed 3). */
function expectDeleted(ctx: CheckContext, ex: HttpExchange, webhookId: string): void {
  const data = expectSuccess(ex, ctx.operation("deleteWebhook")) as Record<string, unknown>;
  expectSeedRecord(
    ex,
    data,
    "WebhookDeleteResult",
    { [webhookId]: ["webhook_id", "id"] },
    "the delete result (operation 7)",
  );
  if (data?.status !== "deleted")
    failWith(ex, `deleteWebhook answered status ${JSON.stringify(data?.status)}, not "deleted"`);
}
