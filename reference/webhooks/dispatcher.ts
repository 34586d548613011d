// Delivers webhook events, at least once. Every pending delivery in the store is attempted when its
// next_attempt_at is due: POST of the event JSON, signed with the workspace's Ed25519 key in the
// configured profile. A 2xx answer delivers it; anything else (non-2xx, timeout, refused or reset
// connection) is recorded on the delivery and retried on the backoff schedule until maxAttempts, then
// the delivery is `failed` (operation 6 can requeue it).
//
// The store is the queue: deliveries are created in the same transaction as their event and every
// attempt's outcome is committed, so a restart with --data picks up exactly where it stopped. An attempt
// cut short by shutdown is not recorded and is made again after the restart (at-least-once: a receiver
// may see an event twice and dedupes by webhook-id / event id).
import { unixSeconds } from "../../runtime/hmac.ts";
import { canonicalJson, signWebhook, webhookHmac, WEBHOOK_EVENT_ID_HEADER, WEBHOOK_HMAC_HEADER, type WebhookProfile } from "../../runtime/webhook-signature.ts";
import { eventBody } from "../domain/events.ts";
import { C, type ApiKeyRecord, type DeliveryAttempt, type DeliveryRecord, type EventRecord, type WebhookRecord, type WorkspaceRecord } from "../domain/records.ts";
import type { StateStore } from "../store/state-store.ts";
import { retryDelayMs, type RetrySchedule } from "./backoff.ts";
import { postWebhook, type PostResult } from "./http-post.ts";

export interface DispatcherOptions {
  profile: WebhookProfile;
  retry: RetrySchedule;
  /** Time allowed for one attempt (connect, headers and body). */
  timeoutMs: number;
  /** How much of a receiver's answer is kept in the log. */
  maxResponseBodyBytes: number;
  /** Attempts in flight at once. */
  concurrency: number;
  /** Attempts in flight per webhook, so one hanging receiver cannot take every slot. */
  perWebhookConcurrency: number;
  random?: () => number;
}

export const DEFAULT_DISPATCHER_OPTIONS: Omit<DispatcherOptions, "retry" | "profile"> = {
  // The spec's x-custody-webhook-delivery timeout.
  timeoutMs: 10_000,
  maxResponseBodyBytes: 1_024,
  concurrency: 16,
  perWebhookConcurrency: 4,
};

/** Attempts kept per delivery record; older ones are summarized by attempt_count. */
const MAX_ATTEMPTS_KEPT = 50;
const USER_AGENT = "custody-sandbox-webhooks/0.1";

export class WebhookDispatcher {
  private readonly inFlight = new Map<string, { abort: AbortController; done: Promise<void>; webhookId: string }>();
  /**
   * Ids of the deliveries that are `pending`, kept up to date from the store's commits, so that a look
   * at the queue costs the pending deliveries and not every delivery ever made (delivered and failed ones
   * pile up; scanning them after every attempt made a burst of deliveries quadratic).
   */
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private scheduled = false;
  private closed = false;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly store: StateStore,
    private readonly now: () => Date,
    private readonly opts: DispatcherOptions,
  ) {}

  start(): void {
    for (const d of this.store.list<DeliveryRecord>(C.deliveries)) if (d.status === "pending") this.pending.add(d.id);
    this.unsubscribe = this.store.onCommit((ops) => {
      let touched = false;
      for (const op of ops) {
        if (!("c" in op) || op.c !== C.deliveries) continue;
        touched = true;
        if ("v" in op && (op.v as DeliveryRecord).status === "pending") this.pending.add(op.id);
        else this.pending.delete(op.id);
      }
      if (touched) this.wake();
    });
    this.wake();
  }

  /** Schedules a look at the queue on the next turn (coalesced; never runs inside a commit). */
  wake(): void {
    if (this.closed || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.schedule();
    });
  }

  /** Stops new attempts and aborts the ones in flight (they are not recorded, so they run again later). */
  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    for (const f of this.inFlight.values()) f.abort.abort();
    await Promise.all([...this.inFlight.values()].map((f) => f.done));
  }

  private schedule(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const nowMs = this.now().getTime();
    const queue: { d: DeliveryRecord; due: number }[] = [];
    for (const id of this.pending) {
      const d = this.inFlight.has(id) ? undefined : this.store.get<DeliveryRecord>(C.deliveries, id);
      if (d?.status === "pending") queue.push({ d, due: d.next_attempt_at ? Date.parse(d.next_attempt_at) : nowMs });
    }
    queue.sort((a, b) => a.due - b.due);
    const perWebhook = new Map<string, number>();
    for (const f of this.inFlight.values()) perWebhook.set(f.webhookId, (perWebhook.get(f.webhookId) ?? 0) + 1);
    for (const { d, due } of queue) {
      if (this.inFlight.size >= this.opts.concurrency) return; // a finishing attempt wakes us again
      if (due > nowMs) {
        this.timer = setTimeout(() => this.schedule(), Math.min(due - nowMs, 2 ** 31 - 1));
        this.timer.unref?.();
        return;
      }
      const busy = perWebhook.get(d.webhook_id) ?? 0;
      if (busy >= this.opts.perWebhookConcurrency) continue; // its own finishing attempt wakes us
      perWebhook.set(d.webhook_id, busy + 1);
      this.launch(d);
    }
  }

  private launch(d: DeliveryRecord): void {
    const abort = new AbortController();
    const done = this.attempt(d.id, abort.signal)
      .catch(() => undefined)
      .finally(() => {
        this.inFlight.delete(d.id);
        this.wake();
      });
    this.inFlight.set(d.id, { abort, done, webhookId: d.webhook_id });
  }

  private async attempt(id: string, signal: AbortSignal): Promise<void> {
    const d = this.store.get<DeliveryRecord>(C.deliveries, id);
    if (!d || d.status !== "pending") return;
    const webhook = this.store.get<WebhookRecord>(C.webhooks, d.webhook_id);
    const event = this.store.get<EventRecord>(C.events, d.event_id);
    const workspace = this.store.get<WorkspaceRecord>(C.workspaces, d.workspace_id);
    if (!webhook || webhook.status !== "active" || !event || !workspace) {
      this.finishWithout(d, !webhook || webhook.status !== "active" ? "cancelled: the webhook was deleted" : "the event or workspace no longer exists");
      return;
    }
    // One serialization for both profiles: canonical JSON is valid JSON, and the bytes signed by
    // standard-webhooks are exactly the bytes sent.
    const body = canonicalJson(eventBody(event, webhook));
    const signature = signWebhook({ profile: this.opts.profile, privateKey: workspace.webhook_private_key, id: event.id, timestamp: unixSeconds(this.now().getTime()), body });
    // canonical-json has no id header of its own; receivers de-duplicate on this one (the spec's choice).
    if (this.opts.profile === "canonical-json") {
      signature[WEBHOOK_EVENT_ID_HEADER] = event.id;
      // The real service's SDK also verifies with the API secret (WebhookService.verifyEvent): hex
      // HMAC-SHA256 over the same canonical JSON, keyed with the secret of the key that registered the webhook.
      const registrar = this.store.get<ApiKeyRecord>(C.apiKeys, webhook.created_by);
      if (registrar && registrar.status === "active") signature[WEBHOOK_HMAC_HEADER] = webhookHmac(registrar.secret, body);
    }
    const startedAt = this.now();
    const result = await postWebhook({
      url: webhook.url,
      body,
      headers: { "content-type": "application/json", "user-agent": USER_AGENT, ...signature },
      timeoutMs: this.opts.timeoutMs,
      maxBodyBytes: this.opts.maxResponseBodyBytes,
      signal,
    });
    if (signal.aborted) return;
    this.record(id, startedAt, result);
  }

  private record(id: string, startedAt: Date, result: PostResult): void {
    const d = this.store.get<DeliveryRecord>(C.deliveries, id);
    if (!d) return;
    const at = this.now();
    const ok = result.error === undefined && result.status !== undefined && result.status >= 200 && result.status < 300;
    const attempt: DeliveryAttempt = {
      number: d.attempt_count + 1,
      at: startedAt.toISOString(),
      duration_ms: result.durationMs,
      ...(result.status !== undefined ? { response_status: result.status } : {}),
      ...(!ok ? { error: result.error ?? `receiver answered HTTP ${result.status}` } : {}),
    };
    const base = {
      ...d,
      attempt_count: d.attempt_count + 1,
      series_attempts: d.series_attempts + 1,
      last_attempt_at: startedAt.toISOString(),
      attempts: [...d.attempts, attempt].slice(-MAX_ATTEMPTS_KEPT),
      updated_at: at.toISOString(),
    };
    delete (base as Partial<DeliveryRecord>).response_status;
    delete (base as Partial<DeliveryRecord>).response_body;
    delete (base as Partial<DeliveryRecord>).error;
    delete (base as Partial<DeliveryRecord>).next_attempt_at;
    if (result.status !== undefined) base.response_status = result.status;
    if (result.body !== undefined) base.response_body = result.body;
    let next: DeliveryRecord;
    if (d.status !== "pending") {
      // Cancelled (webhook deleted) while this attempt was on the wire: log it, change nothing else.
      next = { ...base, status: d.status, ...(d.error ? { error: d.error } : {}) };
    } else if (ok) {
      next = { ...base, status: "delivered", delivered_at: at.toISOString() };
    } else if (base.series_attempts >= this.opts.retry.maxAttempts) {
      next = { ...base, status: "failed", error: attempt.error as string };
    } else {
      const delay = retryDelayMs(this.opts.retry, base.series_attempts, this.opts.random);
      next = { ...base, status: "pending", error: attempt.error as string, next_attempt_at: new Date(at.getTime() + delay).toISOString() };
    }
    this.store.transact((tx) => {
      tx.put(C.deliveries, next);
    });
  }

  private finishWithout(d: DeliveryRecord, reason: string): void {
    const { next_attempt_at: _dropped, ...rest } = d;
    this.store.transact((tx) => {
      tx.put<DeliveryRecord>(C.deliveries, { ...rest, status: "failed", error: reason, updated_at: this.now().toISOString() });
    });
  }
}
