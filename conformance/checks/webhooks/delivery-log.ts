// The delivery log and requeueing a delivery (seed 6).

import type { EventFixture } from "../../provision/registry.ts";
import { firstString } from "../../provision/util.ts";
import type { HttpExchange } from "../../transport/probe.ts";
import { carriesEventId, eventIdOf } from "../../transport/receiver.ts";
import type { Check } from "../check.ts";
import { expectSuccess, failWith } from "../expect.ts";
import { findInList } from "../list-reader.ts";
import { fail, skip } from "../outcome.ts";
import { identityProblem } from "../record-identity.ts";
import type { SeedTableName } from "../seed-tables.ts";
import { seedProblems } from "../seed-walk.ts";
import { deliveryEvidence } from "./received.ts";

export const deliveryLogged: Check = {
  id: "webhooks.delivery-logged",
  skipsWithout: ["delivery"],
  statements: ["s1.deliveries-logged", "s2.7.webhook-delivery", "s3.delivery-status-pending", "s6.delivery-recorded"],
  awaits: ["delivery"],
  group: "webhooks",
  title: "The delivery is logged with event_type, event_id, status and payload",
  severity: "MUST",
  seedRef: "§2.7; §6",
  level: "full",
  requires: ["receiver"],
  sends: "listWebhookDeliveries of the run's webhook",
  async run(ctx) {
    const result = await ctx.settle("delivery");
    if (!result.ok) {
      if (result.failure) throw result.failure;
      skip(result.reason);
    }
    const workspaceId = await ctx.need("workspace");
    const webhook = await ctx.need("webhook");
    const { item, ex } = await findInList(
      ctx,
      "listWebhookDeliveries",
      { params: { workspace_id: workspaceId }, query: { webhook_id: webhook.id } },
      (d) => firstString(d, "id", "delivery_id") === result.value.deliveryId,
    );
    if (!item) failWith(ex, `delivery ${result.value.deliveryId} is not listed`);
    const problems: string[] = [];
    if (item.event_type !== "wallet.created") problems.push(`event_type is ${JSON.stringify(item.event_type)}`);
    if (item.event_id !== result.value.eventId)
      problems.push(`event_id is ${JSON.stringify(item.event_id)}, delivered ${result.value.eventId}`);
    if (!["pending", "delivered", "failed"].includes(String(item.status)))
      problems.push(`status is ${JSON.stringify(item.status)}`);
    if (typeof item.payload !== "object" || item.payload === null) problems.push("payload is not an object");
    if (problems.length > 0) failWith(ex, `logged delivery: ${problems.join("; ")}`);
  },
};

export const resendSameEvent: Check = {
  id: "webhooks.resend-same-event",
  skipsWithout: ["event"],
  statements: [
    "s1.deliveries-logged",
    "s1.deliveries-requeued",
    "s2.7.webhook-delivery",
    "s3.delivery-status-pending",
    "s4.op6-resend-delivery",
    "s6.requeue-returns-record",
  ],
  awaits: ["event"],
  group: "webhooks",
  title:
    "Operation 6 answers the delivery's WebhookDelivery record (seed types, with its status) and the same event (its event_id) arrives again",
  severity: "MUST",
  seedRef: "§4 operation 6; §6",
  level: "seed",
  requires: ["receiver", "workspace", "delivery"],
  after: ["webhooks.delivery-signature"],
  sends: "resendWebhookDelivery of a delivery, then waits for the same event id at the receiver",
  async run(ctx) {
    const receiver = await ctx.need("receiver");
    const workspaceId = await ctx.need("workspace");
    const delivery = await ctx.need("delivery");
    const first = await ctx.need("event");
    const mark = receiver.mark();
    const ex = await ctx.call("resendWebhookDelivery", {
      params: { workspace_id: workspaceId, delivery_id: delivery.deliveryId },
    });
    const data = expectSuccess(ex, ctx.operation("resendWebhookDelivery")) as Record<string, unknown>;
    expectSeedRecord(
      ex,
      data,
      "WebhookDelivery",
      { [delivery.deliveryId]: ["id", "delivery_id"] },
      "the requeued delivery (operation 6)",
    );
    if (typeof data?.status !== "string")
      failWith(
        ex,
        "the requeued delivery record has no status (seed 6: operation 6 returns the record with its status)",
      );
    const eventId = requeuedEventId(ex, data, delivery.eventId, first);
    ctx.fact("event", `the event known before the requeue: ${eventId}`);
    // Within the check's own limit, with room left to say what came instead.
    const waitMs = Math.floor(ctx.timeoutMs * 0.8);
    const again = await receiver.waitFor((d) => d.seq >= mark && carriesEventId(d, eventId), waitMs, ctx.signal);
    if (again) return;
    const other = receiver.deliveries.find((d) => d.seq >= mark);
    if (other)
      fail(
        `after requeueing, event ${eventId} did not arrive again within ${waitMs} ms; a delivery of event ${eventIdOf(other) ?? "(no id)"} came instead (a requeue re-delivers the same event)`,
        deliveryEvidence(other, { requeue_response: ex.evidence.response }),
      );
    failWith(
      ex,
      `event ${eventId} did not arrive again within ${waitMs} ms of requeueing (0.8 × --timeout-ms; the seed sets no delivery latency: a slower deployment needs a larger --timeout-ms)`,
    );
  },
};

/**
 * The event a requeue must deliver again, known before this requeue: the delivery log's (full level),
 * else the event operation 6 named when the run first requeued the delivery (seed level), else the one
 * the receiver got for that delivery. A first requeue that named one event and delivered another, or
 * a second that names another event than the first (a new event each time), fails: operation 6
 * "requeues that delivery" (§4), whose event_id (§2.7) does not change. With no id anywhere the check
 * cannot compare and skips with the reason; it never passes on an id it could not find.
 */
function requeuedEventId(
  ex: HttpExchange,
  record: Record<string, unknown>,
  logged: string | undefined,
  first: EventFixture,
): string {
  const recorded = typeof record?.event_id === "string" && record.event_id ? record.event_id : undefined;
  const named = first.requeuedEventId;
  if (named && !carriesEventId(first, named)) {
    fail(
      `the first requeue of the delivery (operation 6) named event_id ${named}, but delivered event ${eventIdOf(first) ?? "(no id)"}`,
      deliveryEvidence(first),
    );
  }
  const [known, source] = logged
    ? [logged, "the delivery log"]
    : named
      ? [named, "the first requeue's answer"]
      : [eventIdOf(first), "the delivery the receiver got for it"];
  if (recorded && known && recorded !== known) {
    failWith(
      ex,
      `operation 6 answered event_id ${JSON.stringify(recorded)}, but the delivery's event is ${known} (${source}): a requeue re-delivers the same event, never a new one`,
    );
  }
  const id = known ?? recorded;
  if (!id)
    skip(
      "no event id to compare: the record of operation 6 has no event_id and the delivery names none (no webhook-id or x-webhook-event-id header, no event_id or id in its body)",
    );
  return id;
}

/** A seed record (2.7, 2.8) at every depth, and the one asked for. */
export function expectSeedRecord(
  ex: HttpExchange,
  data: unknown,
  table: SeedTableName,
  identity: Record<string, string[]>,
  what: string,
): void {
  const problems = seedProblems(data, table);
  if (problems.length > 0) failWith(ex, `${what}: ${problems.slice(0, 3).join("; ")}`);
  const other = identityProblem(data, identity);
  if (other) failWith(ex, `${what} is another record: ${other}`);
}
