// Webhook registrations of a workspace, the delivery log reads, requeue (operation 6), delete
// (operation 7), the verification key (operation 8), and enabling a webhook and requeueing what it
// missed (x-custody-webhook-delivery.disabling).
import { badRequest, notFound } from "../../runtime/errors.ts";
import { publicKeyBase64 } from "../../runtime/webhooks/signature.ts";
import { assertWorkspace, findInWorkspace, inWorkspace } from "../domain/access.ts";
import type { DomainContext } from "../domain/context.ts";
import { newId } from "../domain/ids.ts";
import { deliveryKeys, webhookKeys } from "../domain/indexes.ts";
import type { PageQuery } from "../domain/paging.ts";
import {
  type Actor,
  C,
  type DeliveryRecord,
  type EventType,
  type WebhookRecord,
  type WorkspaceRecord,
} from "../domain/records.ts";
import { checkWebhookUrl, type UrlPolicy } from "./url-policy.ts";

export class WebhookRegistry {
  constructor(
    private readonly ctx: DomainContext,
    private readonly urlPolicy: UrlPolicy,
  ) {}

  create(
    actor: Actor,
    workspaceId: string,
    input: { url: string; event_types: EventType[]; description?: string },
  ): WebhookRecord {
    assertWorkspace(actor, workspaceId);
    const problem = checkWebhookUrl(input.url, this.urlPolicy);
    if (problem) throw badRequest(problem);
    if (input.event_types.length === 0) throw badRequest("event_types: at least one event type");
    // The spec: url has format uri (RFC 3986: ASCII only) and event_types has uniqueItems.
    if (/[^\x21-\x7e]/.test(input.url))
      throw badRequest("url: a URI has ASCII characters only (percent-encode the others)");
    if (new Set(input.event_types).size !== input.event_types.length)
      throw badRequest("event_types: each event type at most once");
    const at = this.ctx.now().toISOString();
    const record: WebhookRecord = {
      id: newId(),
      workspace_id: actor.workspaceId,
      url: input.url,
      event_types: [...new Set(input.event_types)],
      ...(input.description !== undefined ? { description: input.description } : {}),
      status: "active",
      created_by: actor.keyId,
      created_at: at,
      updated_at: at,
    };
    return this.ctx.store.transact((tx) => tx.put(C.webhooks, record));
  }

  /** One page of the active registrations, oldest first; deleted ones are gone from the list (their deliveries stay in the log). */
  page(actor: Actor, workspaceId: string, page: PageQuery): WebhookRecord[] {
    assertWorkspace(actor, workspaceId);
    return this.ctx.store.page<WebhookRecord>(
      C.webhooks,
      webhookKeys.activeOfWorkspace(actor.workspaceId),
      page.offset,
      page.limit,
    );
  }

  /**
   * Marks the webhook deleted and cancels its pending deliveries (status failed, error says why), so it
   * receives nothing more. Deleting twice answers the same result.
   */
  delete(actor: Actor, workspaceId: string, webhookId: string): WebhookRecord {
    assertWorkspace(actor, workspaceId);
    const webhook = findInWorkspace<WebhookRecord>(this.ctx.store, actor, C.webhooks, webhookId, "webhook");
    if (webhook.status === "deleted") return webhook;
    const at = this.ctx.now().toISOString();
    const deleted: WebhookRecord = { ...webhook, status: "deleted", deleted_at: at, updated_at: at };
    const pending = [
      ...this.ctx.store.scan<DeliveryRecord>(
        C.deliveries,
        deliveryKeys.ofWorkspace(webhook.workspace_id, { webhook_id: webhookId, status: "pending" }),
      ),
    ];
    return this.ctx.store.transact((tx) => {
      const saved = tx.put(C.webhooks, deleted);
      for (const d of pending) {
        const { next_attempt_at: _dropped, ...rest } = d;
        tx.put<DeliveryRecord>(C.deliveries, {
          ...rest,
          status: "failed",
          error: "cancelled: the webhook was deleted",
          updated_at: at,
        });
      }
      return saved;
    });
  }

  /** One page of the delivery log, oldest first, optionally one webhook's and one status's (an index bucket each). */
  deliveries(
    actor: Actor,
    workspaceId: string,
    filter: { webhook_id?: string; status?: string },
    page: PageQuery,
  ): DeliveryRecord[] {
    assertWorkspace(actor, workspaceId);
    return this.ctx.store.page<DeliveryRecord>(
      C.deliveries,
      deliveryKeys.ofWorkspace(actor.workspaceId, filter),
      page.offset,
      page.limit,
    );
  }

  delivery(actor: Actor, workspaceId: string, deliveryId: string): DeliveryRecord {
    assertWorkspace(actor, workspaceId);
    return findInWorkspace<DeliveryRecord>(this.ctx.store, actor, C.deliveries, deliveryId, "webhook delivery");
  }

  /**
   * Operation 6: queues the delivery again, same record, same event (so the same webhook-id header),
   * due now, with a fresh retry budget. Not possible for a deleted webhook (it gets nothing more).
   */
  resend(actor: Actor, workspaceId: string, deliveryId: string): DeliveryRecord {
    const d = this.delivery(actor, workspaceId, deliveryId);
    const webhook = this.ctx.store.get<WebhookRecord>(C.webhooks, d.webhook_id);
    if (webhook?.status !== "active")
      throw notFound("the webhook of this delivery was deleted; it receives nothing more");
    const requeued = requeue(d, this.ctx.now().toISOString());
    return this.ctx.store.transact((tx) => tx.put(C.deliveries, requeued));
  }

  /**
   * enableWebhook: a fresh health record (healthy, breaker closed, failure streak forgotten). The
   * dispatcher sees the commit and sends what is due. Deliveries missed while disabled stay failed.
   */
  enable(actor: Actor, workspaceId: string, webhookId: string): WebhookRecord {
    const webhook = this.active(actor, workspaceId, webhookId);
    if (webhook.health === undefined) return webhook;
    const { health: _reset, ...rest } = webhook;
    const enabled: WebhookRecord = { ...rest, updated_at: this.ctx.now().toISOString() };
    return this.ctx.store.transact((tx) => tx.put(C.webhooks, enabled));
  }

  /**
   * requeueFailedWebhookDeliveries: every failed delivery of the webhook created in [since, until]
   * goes back to pending, each as operation 6 requeues one.
   */
  requeueFailed(
    actor: Actor,
    workspaceId: string,
    webhookId: string,
    window: { since: string; until?: string },
  ): { webhook_id: string; requeued: number; since: string; until: string } {
    const webhook = this.active(actor, workspaceId, webhookId);
    const now = this.ctx.now();
    const since = Date.parse(window.since);
    const until = window.until === undefined ? now.getTime() : Date.parse(window.until);
    if (Number.isNaN(since) || Number.isNaN(until)) throw badRequest("since and until must be date-times");
    if (since > until) throw badRequest("since is after until");
    // The webhook's failed bucket of the index, not every delivery of the deployment.
    const failed = this.ctx.store.scan<DeliveryRecord>(
      C.deliveries,
      deliveryKeys.ofWorkspace(webhook.workspace_id, { webhook_id: webhook.id, status: "failed" }),
    );
    const missed = [...failed].filter((d) => {
      const created = Date.parse(d.created_at);
      return created >= since && created <= until;
    });
    const at = now.toISOString();
    this.ctx.store.transact((tx) => {
      for (const d of missed) tx.put(C.deliveries, requeue(d, at));
    });
    return {
      webhook_id: webhook.id,
      requeued: missed.length,
      since: new Date(since).toISOString(),
      until: new Date(until).toISOString(),
    };
  }

  /** A webhook of the caller's workspace that is not deleted (404 otherwise). */
  private active(actor: Actor, workspaceId: string, webhookId: string): WebhookRecord {
    assertWorkspace(actor, workspaceId);
    const webhook = this.ctx.store.get<WebhookRecord>(C.webhooks, webhookId);
    if (!inWorkspace(actor, webhook) || webhook.status !== "active") throw notFound("webhook not found");
    return webhook;
  }

  verificationKey(actor: Actor, workspaceId: string): { public_key: string } {
    assertWorkspace(actor, workspaceId);
    const ws = this.ctx.store.get<WorkspaceRecord>(C.workspaces, actor.workspaceId);
    if (!ws) throw notFound("workspace not found");
    return { public_key: publicKeyBase64(ws.webhook_private_key) };
  }
}

/** The same record back in the queue: due now, a fresh retry budget, attempt_count kept (operation 6). */
function requeue(d: DeliveryRecord, at: string): DeliveryRecord {
  const { delivered_at: _was, ...rest } = d;
  return { ...rest, status: "pending", series_attempts: 0, next_attempt_at: at, updated_at: at };
}
