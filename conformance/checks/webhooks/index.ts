// Webhooks (seed 6, 2.7–2.9): the verification key, real signed deliveries to our own receiver,
// requeue with operation 6 and deletion with operation 7. The profile the deployment's signatures
// matched is reported as a fact.
import type { CheckContext } from "../../context.ts";
import { expectSuccess, failWith } from "../../expect.ts";
import { findInList } from "../../list-reader.ts";
import { createWalletAndWait } from "../../fixtures/wallet.ts";
import { registerWebhook } from "../../fixtures/webhook.ts";
import { EVENT_TYPES, firstString } from "../../fixtures/util.ts";
import { fail, skip } from "../../outcome.ts";
import type { HttpExchange } from "../../probe.ts";
import { carriesEventId, eventIdOf, eventTypeOf, type ReceivedDelivery } from "../../receiver.ts";
import { identityProblem } from "../../record-identity.ts";
import type { SeedTableName } from "../../seed-tables.ts";
import { seedProblems } from "../../seed-walk.ts";
import type { Check } from "../../check.ts";
import type { Evidence } from "../../types.ts";
import { ed25519PublicKey, findSignatureScheme } from "./signature-scheme.ts";

/**
 * Operation 8, validated: its key's 32 raw bytes. The contract publishes base64 of the raw key; at
 * seed level base64 of the key's SPKI DER form is as much "a base64-encoded Ed25519 public key" (§2.9).
 */
async function verificationKey(ctx: CheckContext): Promise<Uint8Array> {
  const workspaceId = await ctx.need("workspace");
  const ex = await ctx.call("getWebhookVerificationKey", { params: { workspace_id: workspaceId } });
  const data = expectSuccess(ex, ctx.operation("getWebhookVerificationKey")) as { public_key?: unknown };
  const key = data?.public_key;
  if (typeof key !== "string") failWith(ex, "public_key is not a string");
  const seed = ctx.level === "seed";
  const raw = ed25519PublicKey(key, seed);
  if (!raw) {
    const length = Buffer.from(key, "base64").length;
    failWith(ex, `public_key is not base64 of a 32-byte Ed25519 key${seed ? " or of its 44-byte SPKI DER form" : " (the contract's raw form)"} (decodes to ${length} bytes)`);
  }
  return raw;
}

function deliveryEvidence(d: ReceivedDelivery, extra?: unknown): Evidence {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(d.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : v;
  return { details: { received_delivery: { channel: d.channel, headers, body: d.body.slice(0, 4096) }, ...(extra as object) } };
}

/** The scheme the delivery's signature verifies in: custody's profiles, and at seed level any it can find. */
function signatureScheme(ctx: CheckContext, key: Uint8Array, d: ReceivedDelivery) {
  return findSignatureScheme(key, d, { required: ctx.config.webhookProfile, search: ctx.level === "seed" });
}

export const verificationKeyCheck: Check = {
  id: "webhooks.verification-key",
  statements: ["s1.deliveries-signed", "s2.9.webhook-verification-key", "s4.op8-webhook-verification-key", "s6.signed-ed25519"],
  group: "webhooks",
  title: "Operation 8 gives a base64 Ed25519 public key (32 raw bytes; at seed level its SPKI DER form too)",
  severity: "MUST",
  seedRef: "§2.9; §6",
  level: "seed",
  requires: ["workspace"],
  async run(ctx) {
    await verificationKey(ctx);
  },
};

export const registration: Check = {
  id: "webhooks.registration",
  skipsWithout: ["webhook"],
  statements: ["s1.webhooks-registered", "s6.webhook-delivery"],
  awaits: ["webhook"],
  group: "webhooks",
  title: "createWebhook registers a webhook that listWebhooks then shows",
  severity: "MUST",
  seedRef: "§1 (workspaces register webhooks); assumed: createWebhook, listWebhooks",
  level: "full",
  requires: ["receiver"],
  async run(ctx) {
    const result = await ctx.settle("webhook");
    if (!result.ok) {
      if (result.failure) throw result.failure;
      skip(result.reason);
    }
    const workspaceId = await ctx.need("workspace");
    const { item, ex } = await findInList(ctx, "listWebhooks", { params: { workspace_id: workspaceId } }, (w) => firstString(w, "id", "webhook_id") === result.value.id);
    if (!item) failWith(ex, `webhook ${result.value.id} is not in listWebhooks`);
  },
};

export const deliverySignature: Check = {
  id: "webhooks.delivery-signature",
  skipsWithout: ["event"],
  statements: ["s1.deliveries-logged", "s1.deliveries-signed", "s6.webhook-delivery", "s6.signed-ed25519"],
  awaits: ["event"],
  group: "webhooks",
  title: "A real delivery verifies with the key of operation 8 (reports the signature profile)",
  severity: "MUST",
  seedRef: "§6 (deliveries are signed, Ed25519)",
  level: "seed",
  requires: ["receiver", "workspace"],
  async run(ctx) {
    const event = await ownedEvent(ctx);
    const key = await verificationKey(ctx);
    // With --webhook-profile the deployment must sign that way; otherwise the headers say which, and
    // at seed level (the seed shows neither header nor content) any scheme certify can find will do.
    const required = ctx.config.webhookProfile;
    const found = signatureScheme(ctx, key, event);
    if (!found.ok) {
      const why = `the delivery does not verify with the published key: ${found.reason}${found.profile ? ` (profile ${found.profile}${required ? ", required by --webhook-profile" : ""})` : ""}`;
      // A signature is there, in headers of no profile custody knows, over content certify cannot
      // name: not a seed break it can show. Headers of a known profile that do not verify are one.
      if (ctx.level === "seed" && !required && found.signatureSeen && found.profile === undefined) skip(`${why}. The seed shows neither the header nor the signed content; if yours is one of custody's profiles, name it with --webhook-profile`);
      fail(why, deliveryEvidence(event));
    }
    ctx.fact("profile", found.scheme.profile ?? found.scheme.description);
  },
};

export const eventShape: Check = {
  id: "webhooks.event-shape",
  skipsWithout: ["event"],
  statements: ["s6.webhook-delivery"],
  awaits: ["event"],
  group: "webhooks",
  title: "A delivered event is JSON {webhook_id, resource_id, url, payload, event} with its event id in a header",
  severity: "MUST",
  seedRef: "§6; assumed: event body",
  level: "full",
  requires: ["receiver"],
  async run(ctx) {
    const event = await ownedEvent(ctx);
    const e = event.event;
    if (!e) fail("the delivery body is not a JSON object", deliveryEvidence(event));
    const problems: string[] = [];
    for (const field of ["webhook_id", "resource_id", "url"] as const) if (typeof e[field] !== "string" || !e[field]) problems.push(`${field} is not a string`);
    if (typeof e.event !== "string" || !(EVENT_TYPES as readonly string[]).includes(e.event)) problems.push(`event ${JSON.stringify(e.event)} is not an event type`);
    if (typeof e.payload !== "object" || e.payload === null || Array.isArray(e.payload)) problems.push("payload is not an object");
    if (eventIdOf(event) === undefined) problems.push("no event id (x-webhook-event-id or webhook-id header)");
    if (problems.length > 0) fail(`delivered event: ${problems.join("; ")}`, deliveryEvidence(event));
  },
};

export const tamperedBodyRejected: Check = {
  id: "webhooks.tampered-body-rejected",
  skipsWithout: ["event"],
  statements: ["s1.deliveries-signed", "s6.signed-ed25519"],
  awaits: ["event"],
  group: "webhooks",
  title: "The delivery signature binds the body: a tampered body (or id, or timestamp) fails verification",
  severity: "MUST",
  seedRef: "§6 (the receiver verifies the signed payload)",
  level: "seed",
  requires: ["receiver", "workspace"],
  async run(ctx) {
    const event = await ownedEvent(ctx);
    const key = await verificationKey(ctx);
    const found = signatureScheme(ctx, key, event);
    if (!found.ok) skip(`the untampered delivery does not verify either (${found.reason}); see webhooks.delivery-signature`);
    const { scheme } = found;
    const tampered = tamperBody(event.body);
    const attempts: Array<[string, boolean]> = [["a changed body", scheme.verifies(tampered)]];
    if (scheme.profile === "standard-webhooks") {
      const ts = Number(event.headers["webhook-timestamp"]);
      attempts.push(["a changed webhook-id", scheme.verifies(event.body, { ...event.headers, "webhook-id": `${String(event.headers["webhook-id"])}x` })]);
      attempts.push(["a changed webhook-timestamp", scheme.verifies(event.body, { ...event.headers, "webhook-timestamp": String(ts - 1) })]);
    }
    const accepted = attempts.filter(([, verified]) => verified).map(([what]) => what);
    if (accepted.length > 0) fail(`the signature still verifies with ${accepted.join(", ")}`, deliveryEvidence(event, { tampered_body: tampered, scheme: scheme.description }));
  },
};

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
  async run(ctx) {
    const result = await ctx.settle("delivery");
    if (!result.ok) {
      if (result.failure) throw result.failure;
      skip(result.reason);
    }
    const workspaceId = await ctx.need("workspace");
    const webhook = await ctx.need("webhook");
    const { item, ex } = await findInList(ctx, "listWebhookDeliveries", { params: { workspace_id: workspaceId }, query: { webhook_id: webhook.id } }, (d) => firstString(d, "id", "delivery_id") === result.value.deliveryId);
    if (!item) failWith(ex, `delivery ${result.value.deliveryId} is not listed`);
    const problems: string[] = [];
    if (item.event_type !== "wallet.created") problems.push(`event_type is ${JSON.stringify(item.event_type)}`);
    if (item.event_id !== result.value.eventId) problems.push(`event_id is ${JSON.stringify(item.event_id)}, delivered ${result.value.eventId}`);
    if (!["pending", "delivered", "failed"].includes(String(item.status))) problems.push(`status is ${JSON.stringify(item.status)}`);
    if (typeof item.payload !== "object" || item.payload === null) problems.push("payload is not an object");
    if (problems.length > 0) failWith(ex, `logged delivery: ${problems.join("; ")}`);
  },
};

export const resendSameEvent: Check = {
  id: "webhooks.resend-same-event",
  skipsWithout: ["event"],
  statements: ["s1.deliveries-logged", "s1.deliveries-requeued", "s2.7.webhook-delivery", "s3.delivery-status-pending", "s4.op6-resend-delivery", "s6.requeue-returns-record"],
  awaits: ["event"],
  group: "webhooks",
  title: "Operation 6 answers the delivery's WebhookDelivery record (seed types, with its status) and the same event (its event_id) arrives again",
  severity: "MUST",
  seedRef: "§4 operation 6; §6",
  level: "seed",
  requires: ["receiver", "workspace", "delivery"],
  after: ["webhooks.delivery-signature"],
  async run(ctx) {
    const receiver = await ctx.need("receiver");
    const workspaceId = await ctx.need("workspace");
    const delivery = await ctx.need("delivery");
    const first = await ctx.need("event");
    const since = Date.now();
    const ex = await ctx.call("resendWebhookDelivery", { params: { workspace_id: workspaceId, delivery_id: delivery.deliveryId } });
    const data = expectSuccess(ex, ctx.operation("resendWebhookDelivery")) as Record<string, unknown>;
    expectSeedRecord(ex, data, "WebhookDelivery", { [delivery.deliveryId]: ["id", "delivery_id"] }, "the requeued delivery (operation 6)");
    if (typeof data?.status !== "string") failWith(ex, "the requeued delivery record has no status (seed 6: operation 6 returns the record with its status)");
    const eventId = requeuedEventId(ex, data, delivery.eventId, first);
    // Within the check's own limit, with room left to say what came instead.
    const waitMs = Math.floor(ctx.timeoutMs * 0.8);
    const again = await receiver.waitFor((d) => d.receivedAt >= since && carriesEventId(d, eventId), waitMs, ctx.signal);
    if (again) return;
    const other = receiver.deliveries.find((d) => d.receivedAt >= since);
    if (other) fail(`after requeueing, event ${eventId} did not arrive again within ${waitMs} ms; a delivery of event ${eventIdOf(other) ?? "(no id)"} came instead (a requeue re-delivers the same event)`, deliveryEvidence(other, { requeue_response: ex.evidence.response }));
    failWith(ex, `event ${eventId} did not arrive again within ${waitMs} ms of requeueing (0.8 × --timeout-ms; the seed sets no delivery latency: a slower deployment needs a larger --timeout-ms)`);
  },
};

/**
 * The event a requeue must deliver again: the record's own `event_id` (seed 2.7), else the id the
 * delivery log gave, else the one the first delivery carried. With none, the check cannot compare
 * and skips with the reason; it never passes on an id it could not find.
 */
function requeuedEventId(ex: HttpExchange, record: Record<string, unknown>, logged: string | undefined, first: ReceivedDelivery): string {
  const recorded = typeof record?.event_id === "string" && record.event_id ? record.event_id : undefined;
  if (recorded && logged && recorded !== logged) failWith(ex, `operation 6 answered event_id ${JSON.stringify(recorded)}, but the delivery's event is ${logged}`);
  const id = recorded ?? logged ?? eventIdOf(first);
  if (!id) skip("no event id to compare: the record of operation 6 has no event_id and the delivery names none (no webhook-id or x-webhook-event-id header, no event_id or id in its body)");
  return id;
}

/** A seed record (2.7, 2.8) at every depth, and the one asked for. */
function expectSeedRecord(ex: HttpExchange, data: unknown, table: SeedTableName, identity: Record<string, string[]>, what: string): void {
  const problems = seedProblems(data, table);
  if (problems.length > 0) failWith(ex, `${what}: ${problems.slice(0, 3).join("; ")}`);
  const other = identityProblem(data, identity);
  if (other) failWith(ex, `${what} is another record: ${other}`);
}

export const deleteStopsDelivery: Check = {
  id: "webhooks.delete-stops-delivery",
  skipsWithout: ["webhook", "delivery", "event"],
  statements: ["s2.8.webhook-delete-result", "s3.delete-result-deleted", "s4.op7-delete-webhook"],
  group: "webhooks",
  title: "Operation 7 answers the webhook's WebhookDeleteResult with status deleted, and nothing is delivered to that webhook afterwards",
  severity: "MUST",
  seedRef: "§2.8; §4 operation 7",
  level: "seed",
  requires: ["receiver", "workspace"],
  after: ["webhooks.resend-same-event", "webhooks.delivery-signature", "webhooks.tampered-body-rejected", "webhooks.delivery-logged"],
  // At --level seed operation 7 deletes --webhook-id itself, which the isolation checks and the
  // viewer's refused delete aim at first.
  afterAtSeed: ["isolation.reads-refused", "isolation.writes-refused", "role.viewer-cannot-change-settings"],
  timeoutScale: 2,
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
  const deletedAt = Date.now();
  const wallet = await createWalletAndWait(ctx.suite, ctx.suite.marker.name("after-delete-wallet"), ctx.signal);
  const reachedPrimary = await receiver.waitFor(
    (d) => d.channel === primary.channel && eventTypeOf(d) === "wallet.created" && d.body.includes(wallet.walletId),
    ctx.timeoutMs,
    ctx.signal,
  );
  if (!reachedPrimary) skip("no new event reached the primary webhook either, so deletion cannot be told apart");
  // One event goes to every webhook at about the same time: a copy for the deleted one would be close behind.
  await ctx.sleep(Math.min(1_000, ctx.timeoutMs / 4));
  const leak = leakAfterDelete(receiver.deliveries, doomed.channel!, deletedAt, (d) => d.body.includes(wallet.walletId));
  if (leak) fail(`webhook ${doomed.id} still received ${String(eventTypeOf(leak.delivery))} after it was deleted (${leak.why})`, deliveryEvidence(leak.delivery));
}

/**
 * The first delivery to `channel` after `deletedAt` that is a leak: an event made after the delete
 * (`isNew`), or an event that had already reached that channel (a retry or a requeue). A first
 * arrival of an older event was in flight when the delete returned: not a leak.
 */
export function leakAfterDelete(
  deliveries: readonly ReceivedDelivery[],
  channel: string,
  deletedAt: number,
  isNew: (d: ReceivedDelivery) => boolean,
): { delivery: ReceivedDelivery; why: string } | undefined {
  const onChannel = deliveries.filter((d) => d.channel === channel);
  for (const [index, d] of onChannel.entries()) {
    if (d.receivedAt < deletedAt) continue;
    if (isNew(d)) return { delivery: d, why: "an event made after the delete" };
    const id = eventIdOf(d);
    if (id !== undefined && onChannel.slice(0, index).some((e) => eventIdOf(e) === id)) return { delivery: d, why: `event ${id} delivered again` };
  }
  return undefined;
}

/**
 * Seed level: --webhook-id is deleted, then --delivery-id requeued: its event must not arrive. Other
 * webhooks may deliver to the same receiver, and deliveries already in flight may land: only the
 * requeued event (operation 6's event_id, else the one the run received) counts.
 */
async function deleteGivenWebhook(ctx: CheckContext): Promise<void> {
  const receiver = await ctx.need("receiver");
  const webhook = await ctx.need("webhook");
  const workspaceId = await ctx.need("workspace");
  const delivery = await ctx.need("delivery");
  // Nothing arriving after the delete proves nothing unless the requeued delivery arrived before it.
  const event = await ctx.settle("event");
  if (!event.ok) skip(event.reason, event.needs);
  const ex = await ctx.call("deleteWebhook", { params: { workspace_id: workspaceId, webhook_id: webhook.id } });
  expectDeleted(ctx, ex, webhook.id);
  const known = delivery.eventId ?? eventIdOf(event.value);
  const since = Date.now();
  const resend = await ctx.call("resendWebhookDelivery", { params: { workspace_id: workspaceId, delivery_id: delivery.deliveryId } });
  const record = resend.response.status < 300 ? deliveryRecordIn(resend.response.text) : {};
  // The requeued delivery is another webhook's (seed 2.7 names its webhook_id): its arrival is that
  // webhook's and says nothing of the deleted one.
  if (record.webhookId !== undefined && record.webhookId !== webhook.id) {
    skip(`--delivery-id ${delivery.deliveryId} is a delivery of webhook ${record.webhookId} (operation 6's answer), not of the deleted --webhook-id ${webhook.id}: give a delivery of that webhook to show that it gets nothing after deletion`);
  }
  const eventId = record.eventId ?? known;
  await ctx.sleep(Math.min(2_000, ctx.timeoutMs / 2));
  const leaked = receiver.deliveries.find((d) => d.receivedAt >= since && (eventId === undefined ? d.channel === "given" : eventIdOf(d) === eventId));
  if (leaked) fail(`a delivery${eventId ? ` of event ${eventId}` : ""} still arrived after webhook ${webhook.id} was deleted and its delivery requeued`, deliveryEvidence(leaked));
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
  expectSeedRecord(ex, data, "WebhookDeleteResult", { [webhookId]: ["webhook_id", "id"] }, "the delete result (operation 7)");
  if (data?.status !== "deleted") failWith(ex, `deleteWebhook answered status ${JSON.stringify(data?.status)}, not "deleted"`);
}

/** The signed delivery the run got (skipped with the reason when there is none). */
async function ownedEvent(ctx: CheckContext): Promise<ReceivedDelivery> {
  const result = await ctx.settle("event");
  if (result.ok) return result.value;
  // No delivery arrived although everything it needs was there: that is this check's failure.
  if (result.failure) throw result.failure;
  skip(result.reason, result.needs);
}

/** The body with one character of a string value changed, still valid JSON. */
export function tamperBody(body: string): string {
  const at = body.search(/"[^"]*[a-zA-Z0-9]/);
  if (at === -1) return `${body} `;
  const index = body.slice(at + 1).search(/[a-zA-Z0-9]/) + at + 1;
  const ch = body[index];
  const swapped = ch === "a" ? "b" : ch === "0" ? "1" : /[0-9]/.test(ch) ? "0" : "a";
  return body.slice(0, index) + swapped + body.slice(index + 1);
}

export const webhookChecks: Check[] = [
  verificationKeyCheck,
  registration,
  deliverySignature,
  eventShape,
  tamperedBodyRejected,
  deliveryLogged,
  resendSameEvent,
  deleteStopsDelivery,
];
