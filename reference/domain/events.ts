// Events: one record per event, and in the same transaction one pending delivery per active webhook
// of the workspace that subscribed to the event type. Because both are committed with the change that
// caused them, a crash can never leave a change without its deliveries (the dispatcher picks up every
// pending delivery on start).
import type { StateStore, Tx } from "../store/state-store.ts";
import { newId } from "./ids.ts";
import { C, type DeliveryRecord, type EventRecord, type EventType, type WebhookRecord } from "./records.ts";

export function publishEvent(
  tx: Tx,
  store: StateStore,
  at: Date,
  workspaceId: string,
  type: EventType,
  data: EventRecord["data"],
): EventRecord {
  // The type/data pairing is the caller's (each publisher passes the data its event type declares).
  const event = { id: newId("evt"), type, created_at: at.toISOString(), workspace_id: workspaceId, data } as EventRecord;
  tx.put(C.events, event);
  const subscribers = store.list<WebhookRecord>(
    C.webhooks,
    (w) => w.workspace_id === workspaceId && w.status === "active" && w.event_types.includes(type),
  );
  for (const webhook of subscribers) tx.put(C.deliveries, newDelivery(webhook, event, at));
  return event;
}

export function newDelivery(webhook: WebhookRecord, event: EventRecord, at: Date): DeliveryRecord {
  const now = at.toISOString();
  return {
    id: newId("dlv"),
    workspace_id: webhook.workspace_id,
    webhook_id: webhook.id,
    event_id: event.id,
    event_type: event.type,
    status: "pending",
    attempt_count: 0,
    series_attempts: 0,
    next_attempt_at: now,
    attempts: [],
    created_at: now,
    updated_at: now,
  };
}

/** The JSON body sent to receivers: exactly the event's public fields. */
export function eventBody(event: EventRecord): EventRecord {
  return { id: event.id, type: event.type, created_at: event.created_at, workspace_id: event.workspace_id, data: event.data } as EventRecord;
}
