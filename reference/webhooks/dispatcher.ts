// Delivers webhook events, at least once, with every endpoint (registered webhook) isolated from the
// others (x-custody-webhook-delivery: isolation, circuit-breaker, disabling):
//
// - One queue per endpoint (endpoint-queues.ts). Each pass goes round robin over the endpoints with a
//   delivery due and starts at most one attempt per endpoint per turn, so a burst to one endpoint cannot
//   crowd out the others.
// - An endpoint holds at most maxInFlightPerEndpoint attempts, and one until it has answered, after a
//   time-out and while probing: a hanging endpoint ties up one socket of its own.
// - Endpoints in a failure streak take slots from their own pool, so they never take a slot from an
//   endpoint that answers.
// - The breaker and the disabling rule (endpoint-health.ts) are stored on the webhook record in the same
//   transaction as the attempt they follow.
//
// The store is the queue: deliveries are created in the same transaction as their event and every
// attempt's outcome is committed, so a restart with --data picks up exactly where it stopped, breaker
// states included. An attempt cut short by shutdown is not recorded and is made again after the restart
// (at-least-once: a receiver may see an event twice and dedupes by the event id header).
import { unixSeconds } from "../../runtime/http/hmac.ts";
import {
  canonicalJson,
  signWebhook,
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_HMAC_HEADER,
  type WebhookProfile,
  webhookHmac,
} from "../../runtime/webhooks/signature.ts";
import { eventBody, NOT_ATTEMPTED_DISABLED } from "../domain/events.ts";
import { deliveryKeys } from "../domain/indexes.ts";
import {
  type ApiKeyRecord,
  C,
  type DeliveryRecord,
  type EndpointHealth,
  type EventRecord,
  type WebhookRecord,
  type WorkspaceRecord,
} from "../domain/records.ts";
import type { StateStore, Tx } from "../store/state-store.ts";
import { deliveryAfterAttempt, notAttempted, outcomeOf } from "./delivery-outcome.ts";
import { gateOf, healthAfterAttempt, inFlightCap, sameHealth, slotPool } from "./endpoint-health.ts";
import { EndpointQueues } from "./endpoint-queues.ts";
import { type PostResult, postWebhook } from "./http-post.ts";
import type { DeliveryPolicy } from "./policy.ts";

export interface DispatcherOptions {
  profile: WebhookProfile;
  policy: DeliveryPolicy;
  /** How much of a receiver's answer is kept in the log. */
  maxResponseBodyBytes: number;
  random?: () => number;
}

const USER_AGENT = "custody-sandbox-webhooks/0.1";
/** Attempts one pass starts before it yields (each signs and opens a connection synchronously, about 0.5 ms). */
const LAUNCHES_PER_PASS = 16;

/** Which turn of a pass an endpoint belongs to: 0 answered 2xx last, 1 not tried yet, 2 failing. */
function turnOf(health: EndpointHealth | undefined): 0 | 1 | 2 {
  if (health === undefined) return 1;
  return health.last_outcome === "ok" ? 0 : 2;
}

/** What a pass needs of an endpoint's health, derived once per change of its webhook record. */
interface EndpointView {
  health: EndpointHealth | undefined;
  tier: 0 | 1 | 2;
  /** gateOf(health): no attempt starts before it. */
  gate: number;
}

interface Flight {
  abort: AbortController;
  done: Promise<void>;
  webhookId: string;
  pool: "answering" | "failing";
}

export class WebhookDispatcher {
  private readonly inFlight = new Map<string, Flight>();
  private readonly perEndpoint = new Map<string, number>();
  private readonly perPool = { answering: 0, failing: 0 };
  private readonly queues = new EndpointQueues();
  /** Endpoint → its view; dropped when its webhook record commits (a pass then derives it again). */
  private readonly views = new Map<string, EndpointView>();
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private scheduled = false;
  private closed = false;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly store: StateStore,
    private readonly now: () => Date,
    private readonly opts: DispatcherOptions,
  ) {}

  start(): void {
    // The pending bucket of the index, not every delivery ever made: a restart costs what is in flight.
    for (const d of this.store.scan<DeliveryRecord>(C.deliveries, deliveryKeys.pending)) this.enqueue(d);
    this.unsubscribe = this.store.onCommit((ops) => {
      let touched = false;
      for (const op of ops) {
        if (!("c" in op)) continue;
        if (op.c === C.webhooks) {
          touched = true; // enabled, disabled, deleted, health: the gates moved
          this.views.delete(op.id);
          if ("v" in op && (op.v as WebhookRecord).status === "deleted") this.abortFlightsOf(op.id);
        }
        if (op.c !== C.deliveries) continue;
        touched = true;
        if (this.inFlight.has(op.id)) continue; // its attempt's end re-reads it
        if ("v" in op && (op.v as DeliveryRecord).status === "pending") this.enqueue(op.v as DeliveryRecord);
        else this.queues.remove(op.id);
      }
      if (touched) this.wake();
    });
    this.wake();
  }

  /** Schedules a look at the queues on the next turn (coalesced; never runs inside a commit). */
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

  /**
   * A deleted webhook gets nothing more (operation 7): attempts still connecting are cut, so only a
   * request whose bytes were already on the wire can reach it. They are not recorded (the deletion
   * already marked their deliveries failed).
   */
  private abortFlightsOf(webhookId: string): void {
    for (const f of this.inFlight.values()) if (f.webhookId === webhookId) f.abort.abort();
  }

  /** Pending deliveries of an endpoint that wait in its queue (not counting the ones on the wire). */
  queuedFor(webhookId: string): string[] {
    return this.queues.idsOf(webhookId);
  }

  private viewOf(webhookId: string): EndpointView {
    let view = this.views.get(webhookId);
    if (!view) {
      const health = this.store.get<WebhookRecord>(C.webhooks, webhookId)?.health;
      this.views.set(webhookId, (view = { health, tier: turnOf(health), gate: gateOf(health) }));
    }
    return view;
  }

  private enqueue(d: DeliveryRecord): void {
    this.queues.put(d.id, d.webhook_id, d.next_attempt_at ? Date.parse(d.next_attempt_at) : this.now().getTime());
  }

  /**
   * One pass: round robin over the endpoints, one attempt per endpoint per turn, until nothing can
   * start or the pass has started LAUNCHES_PER_PASS attempts (then it yields to the event loop and goes
   * on in the next pass, so answers that arrived meanwhile are read). Endpoints whose last attempt got
   * a 2xx take their turn first, then endpoints not tried yet, then endpoints in a failure streak: a
   * wave of probes or of first attempts to new endpoints never delays a healthy delivery.
   */
  private schedule(): void {
    if (this.closed) return;
    const nowMs = this.now().getTime();
    let nextWake = Infinity;
    let budget = LAUNCHES_PER_PASS;
    const tiers: [string[], string[], string[]] = [[], [], []];
    for (const id of this.queues.rotation()) {
      const view = this.viewOf(id);
      // A breaker's window or a disabled endpoint: skipped without a look at its queue.
      if (view.gate > nowMs) {
        if (view.gate !== Infinity) nextWake = Math.min(nextWake, view.gate);
        continue;
      }
      tiers[view.tier].push(id);
    }
    for (const endpoints of tiers) {
      for (let launched = true; launched && budget > 0; ) {
        launched = false;
        for (const webhookId of endpoints) {
          if (budget === 0) break;
          const { health } = this.viewOf(webhookId);
          if ((this.perEndpoint.get(webhookId) ?? 0) >= inFlightCap(health, this.opts.policy)) continue; // its attempt's end wakes us
          const head = this.queues.head(webhookId);
          if (!head) continue;
          if (head.due > nowMs) {
            nextWake = Math.min(nextWake, head.due);
            continue;
          }
          const pool = slotPool(health);
          if (
            this.perPool[pool] >=
            (pool === "answering" ? this.opts.policy.answeringSlots : this.opts.policy.failingSlots)
          )
            continue;
          this.queues.remove(head.id);
          this.launch(head.id, webhookId, pool);
          launched = true;
          budget--;
        }
      }
    }
    if (budget === 0) this.wake();
    this.armTimer(nextWake, nowMs);
  }

  private armTimer(at: number, nowMs: number): void {
    if (at === this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = at;
    if (at === Infinity) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.timerAt = Infinity;
        this.schedule();
      },
      Math.min(Math.max(0, at - nowMs), 2 ** 31 - 1),
    );
    this.timer.unref?.();
  }

  private launch(id: string, webhookId: string, pool: Flight["pool"]): void {
    const abort = new AbortController();
    this.perEndpoint.set(webhookId, (this.perEndpoint.get(webhookId) ?? 0) + 1);
    this.perPool[pool]++;
    const done = this.attempt(id, abort.signal)
      .catch(() => undefined)
      .finally(() => {
        this.inFlight.delete(id);
        const left = (this.perEndpoint.get(webhookId) ?? 1) - 1;
        if (left > 0) this.perEndpoint.set(webhookId, left);
        else this.perEndpoint.delete(webhookId);
        this.perPool[pool]--;
        // Whatever the attempt (or a resend meanwhile) left pending goes back into its queue.
        const d = this.store.get<DeliveryRecord>(C.deliveries, id);
        if (!this.closed && d?.status === "pending") this.enqueue(d);
        this.wake();
      });
    this.inFlight.set(id, { abort, done, webhookId, pool });
  }

  private async attempt(id: string, signal: AbortSignal): Promise<void> {
    const d = this.store.get<DeliveryRecord>(C.deliveries, id);
    if (d?.status !== "pending") return;
    const webhook = this.store.get<WebhookRecord>(C.webhooks, d.webhook_id);
    const event = this.store.get<EventRecord>(C.events, d.event_id);
    const workspace = this.store.get<WorkspaceRecord>(C.workspaces, d.workspace_id);
    if (webhook?.status !== "active" || !event || !workspace) {
      const reason =
        webhook?.status !== "active" ? "cancelled: the webhook was deleted" : "the event or workspace no longer exists";
      this.store.transact((tx) => void tx.put(C.deliveries, notAttempted(d, reason, this.now())));
      return;
    }
    const startedAt = this.now();
    const result = await postWebhook({
      url: webhook.url,
      // Serialized and signed once connected: a refused connection costs neither.
      request: () => {
        const body = canonicalJson(eventBody(event, webhook));
        return { body, headers: this.headers(webhook, event, workspace, body, this.now()) };
      },
      timeoutMs: this.opts.policy.timeoutMs,
      maxBodyBytes: this.opts.maxResponseBodyBytes,
      signal,
    });
    if (signal.aborted) return;
    this.record(id, startedAt, result);
  }

  private headers(
    webhook: WebhookRecord,
    event: EventRecord,
    workspace: WorkspaceRecord,
    body: string,
    at: Date,
  ): Record<string, string> {
    // One serialization for both profiles: canonical JSON is valid JSON, and the bytes signed by
    // standard-webhooks are exactly the bytes sent.
    const signature = signWebhook({
      profile: this.opts.profile,
      privateKey: workspace.webhook_private_key,
      id: event.id,
      timestamp: unixSeconds(at.getTime()),
      body,
    });
    // canonical-json has no id header of its own; receivers de-duplicate on this one (the spec's choice).
    if (this.opts.profile === "canonical-json") {
      signature[WEBHOOK_EVENT_ID_HEADER] = event.id;
      // The real service's SDK also verifies with the API secret (WebhookService.verifyEvent): hex
      // HMAC-SHA256 over the same canonical JSON, keyed with the secret of the key that registered the webhook.
      const registrar = this.store.get<ApiKeyRecord>(C.apiKeys, webhook.created_by);
      if (registrar && registrar.status === "active")
        signature[WEBHOOK_HMAC_HEADER] = webhookHmac(registrar.secret, body);
    }
    return { "content-type": "application/json", "user-agent": USER_AGENT, ...signature };
  }

  /** The attempt, the delivery's next state and the endpoint's health, in one transaction. */
  private record(id: string, startedAt: Date, result: PostResult): void {
    const d = this.store.get<DeliveryRecord>(C.deliveries, id);
    if (!d) return;
    const endedAt = this.now();
    this.store.transact((tx) => {
      let next = deliveryAfterAttempt(d, startedAt, endedAt, result, this.opts.policy.retry, this.opts.random);
      const webhook = tx.get<WebhookRecord>(C.webhooks, d.webhook_id);
      if (webhook?.status === "active") {
        const { health, disabled } = healthAfterAttempt(
          webhook.health,
          { outcome: outcomeOf(result), startedAt, endedAt, random: (this.opts.random ?? Math.random)() },
          this.opts.policy,
        );
        if (!sameHealth(webhook.health, health))
          tx.adopt<WebhookRecord>(C.webhooks, { ...webhook, health, updated_at: endedAt.toISOString() });
        if (disabled) this.failQueued(tx, webhook.id, endedAt);
        // A disabled endpoint gets no retry either (an attempt that was on the wire when it was disabled).
        if (health.state === "disabled" && next.status === "pending")
          next = notAttempted(next, `${next.error}; not retried: the webhook is disabled`, endedAt);
      }
      // Built above from immutable parts: stored without a copy (a delivery carries up to 50 attempts).
      tx.adopt(C.deliveries, next);
    });
  }

  /** A disabled endpoint gets nothing: what waits in its queue is logged as not attempted. */
  private failQueued(tx: Tx, webhookId: string, at: Date): void {
    for (const queuedId of this.queues.idsOf(webhookId)) {
      const q = tx.get<DeliveryRecord>(C.deliveries, queuedId);
      if (q?.status === "pending") tx.put(C.deliveries, notAttempted(q, NOT_ATTEMPTED_DISABLED, at));
    }
  }
}
