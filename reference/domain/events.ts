// Events: one record per event, and in the same transaction one delivery per active webhook of the
// workspace that subscribed to the event type (pending, or failed unattempted while it is disabled).
// Because both are committed with the change that caused them, a crash can never leave a change
// without its deliveries (the dispatcher picks up every pending delivery on start).
import type { WebhookEvent } from "../../generated/webhooks.ts";
import type { StateStore, Tx } from "../store/state-store.ts";
import { newId } from "./ids.ts";
import { webhookKeys } from "./indexes.ts";
import {
  C,
  type DeliveryRecord,
  type EventPayload,
  type EventRecord,
  type EventType,
  type WebhookRecord,
} from "./records.ts";

export function publishEvent(
  tx: Tx,
  store: StateStore,
  at: Date,
  workspaceId: string,
  type: EventType,
  data: EventPayload,
): EventRecord {
  // The type/payload pairing is the caller's (each publisher passes the payload its event type declares).
  const event: EventRecord = {
    id: newId(),
    type,
    created_at: at.toISOString(),
    workspace_id: workspaceId,
    resource_id: resourceIdOf(data),
    payload: data,
  };
  tx.put(C.events, event);
  for (const webhook of store.scan<WebhookRecord>(C.webhooks, webhookKeys.activeOfWorkspace(workspaceId))) {
    if (webhook.event_types.includes(type)) tx.adopt(C.deliveries, newDelivery(webhook, event, event.created_at));
  }
  return event;
}

/** Logged for a disabled webhook without an attempt (x-custody-webhook-delivery.disabling.effect). */
export const NOT_ATTEMPTED_DISABLED = "not attempted: the webhook is disabled";

/** The resource an event is about: a wallet's creation record names it by wallet_id, the rest by id. */
function resourceIdOf(payload: EventPayload): string {
  const p = payload as { id?: string; wallet_id?: string };
  return p.id ?? p.wallet_id ?? "";
}

/**
 * One delivery of `event` to `webhook`, created at `at` (ISO 8601): pending and due now, or failed
 * unattempted while the webhook is disabled. One object literal: an event fans out to every endpoint of
 * its workspace, so this runs hundreds of times per event.
 */
export function newDelivery(webhook: WebhookRecord, event: EventRecord, at: string): DeliveryRecord {
  const disabled = webhook.health?.state === "disabled";
  return {
    id: newId(),
    workspace_id: webhook.workspace_id,
    webhook_id: webhook.id,
    event_id: event.id,
    event_type: event.type,
    attempt_count: 0,
    series_attempts: 0,
    attempts: [],
    created_at: at,
    updated_at: at,
    ...(disabled ? { status: "failed", error: NOT_ATTEMPTED_DISABLED } : { status: "pending", next_attempt_at: at }),
  };
}

/**
 * The JSON body sent to one webhook: the real service's envelope (WebhookEvent of fystack/platform-sdk
 * src/types.ts), so its receivers and its verifier work unchanged.
 */
export function eventBody(event: EventRecord, webhook: Pick<WebhookRecord, "id" | "url">): WebhookEvent {
  return {
    webhook_id: webhook.id,
    resource_id: event.resource_id,
    url: webhook.url,
    payload: event.payload,
    event: event.type,
  } as WebhookEvent;
}
