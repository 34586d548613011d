// The runner's own webhook receiver: a small node:http server that records every delivery
// (raw bytes and headers, exactly as received) so the checks can verify real signatures. The URLs it
// hands out carry the run's marker (marker.ts), so webhooks left by other runs are told apart.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { markerIn } from "../run/marker.ts";

const MAX_DELIVERY_BYTES = 1024 * 1024;

export interface ReceivedDelivery {
  /**
   * Which webhook of ours this is (the path segment after the run's marker); "given" for a webhook
   * registered by hand to --webhook-receiver-url, "foreign" for one another run registered.
   */
  channel: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  receivedAt: number;
  /**
   * Its place in the order of arrival: 0 for the receiver's first delivery. Whether a delivery came after
   * a request is told by this against mark(), not by receivedAt: one millisecond can hold a delivery and
   * the answer to a request sent after it (a requeued event awaited, then the webhook deleted).
   */
  seq: number;
  /** 1 for the first attempt of this event on this channel, 2 for its first retry, ... */
  attempt?: number;
  /** What the receiver answered when a failure plan made it fail ("error": 500, "drop": connection closed, "hang": no answer). */
  failedWith?: FailureStep;
  /** Parsed body when it is JSON. */
  event?: {
    event?: unknown;
    payload?: unknown;
    webhook_id?: unknown;
    resource_id?: unknown;
    url?: unknown;
    [k: string]: unknown;
  };
}

/**
 * A planned failure: "error" answers 500 and "drop" closes the connection without any answer (a network
 * failure to the sender; a receiver that refuses: the URL stays one the deployment can reach, so refusal
 * is a dropped connection rather than a closed port), both at once, so a failing receiver costs the
 * deployment nothing even when a run leaves it registered. "hang" answers nothing until the sender gives
 * up: only webhooks.endpoint-isolation uses it, on webhooks it deletes before it ends.
 */
export type FailureStep = "error" | "drop" | "hang";

/** How long a "hang" holds the request at most (longer than the spec's 10-second delivery time-out). */
const HANG_MS = 30_000;

export interface ReceiverOptions {
  host?: string;
  port?: number;
  /** Public URL the deployment should call (when it cannot reach host:port directly). */
  publicUrl?: string;
}

export class WebhookReceiver {
  readonly deliveries: ReceivedDelivery[] = [];
  private listeners = new Set<() => void>();
  /** Per channel: the failure plan, and the one event it applies to (the first the channel gets). */
  private readonly plans = new Map<string, { steps: FailureStep[]; eventId?: string }>();
  private readonly always = new Map<string, FailureStep>();
  private server: Server | undefined;
  private base = "";

  /** `token`: the run's marker, the first path segment of every URL handed out. */
  constructor(private readonly token = "custody-certify") {}

  async start(options: ReceiverOptions = {}): Promise<void> {
    this.server = createServer((req, res) => {
      this.accept(req).then(
        (status) => {
          if (status === "drop") return void req.socket.destroy();
          res.writeHead(status, { "content-type": "application/json" });
          res.end(status === 200 ? '{"received":true}' : '{"received":false}');
        },
        () => {
          res.writeHead(400);
          res.end();
        },
      );
    });
    const server = this.server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
    });
    const address = server.address() as AddressInfo;
    const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
    this.base = (options.publicUrl ?? `http://${host}:${address.port}`).replace(/\/+$/, "");
  }

  /**
   * Attempt n of the first event `channel` receives gets plan[n-1]; its later attempts, and every other
   * event, are answered 200. One event only: failing every event would make the endpoint look down as a
   * whole, and a deployment with a circuit breaker (x-custody-webhook-delivery) would rightly hold its
   * retries back.
   */
  failFirst(channel: string, plan: FailureStep[]): void {
    this.plans.set(channel, { steps: plan });
  }

  /** The event the failure plan of `channel` applies to, once the channel received one. */
  plannedEvent(channel: string): string | undefined {
    return this.plans.get(channel)?.eventId;
  }

  /** Every attempt on `channel` fails with `step` until forget(channel). */
  failAlways(channel: string, step: FailureStep): void {
    this.always.set(channel, step);
  }

  /** Drops the failure plans of `channel` (its later deliveries are answered 200). */
  forget(channel: string): void {
    this.plans.delete(channel);
    this.always.delete(channel);
  }

  /** The URL to register for one channel (a webhook of ours). */
  url(channel: string): string {
    return `${this.base}/${this.token}/${channel}`;
  }

  /** The seq the next delivery will get: deliveries with a seq at or above it arrive after this call. */
  mark(): number {
    return this.deliveries.length;
  }

  /** Resolves with the first delivery (already received or future) matching `predicate`, or undefined at the deadline. */
  waitFor(
    predicate: (d: ReceivedDelivery) => boolean,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<ReceivedDelivery | undefined> {
    const found = this.deliveries.find(predicate);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => {
      const done = (value: ReceivedDelivery | undefined) => {
        clearTimeout(timer);
        this.listeners.delete(listener);
        signal?.removeEventListener("abort", onAbort);
        resolve(value);
      };
      const listener = () => {
        const match = this.deliveries.find(predicate);
        if (match) done(match);
      };
      const onAbort = () => done(undefined);
      const timer = setTimeout(() => done(undefined), timeoutMs);
      this.listeners.add(listener);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async accept(req: IncomingMessage): Promise<number | "drop"> {
    const channel = this.channelOf(new URL(req.url ?? "/", "http://receiver").pathname);
    if (req.method !== "POST") {
      req.resume();
      return 404;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_DELIVERY_BYTES) return 413;
      chunks.push(chunk as Buffer);
    }
    const body = Buffer.concat(chunks).toString("utf8");
    // seq is its index in deliveries: nothing is awaited between here and the push below.
    const delivery: ReceivedDelivery = {
      channel,
      headers: { ...req.headers },
      body,
      receivedAt: Date.now(),
      seq: this.deliveries.length,
    };
    try {
      const parsed = JSON.parse(body) as unknown;
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed))
        delivery.event = parsed as ReceivedDelivery["event"];
    } catch {
      // Kept as raw text: the signature checks report a non-JSON event themselves.
    }
    const plan = this.plans.get(delivery.channel);
    const always = this.always.get(delivery.channel);
    if (plan || always) {
      const id = eventIdOf(delivery);
      delivery.attempt =
        1 + this.deliveries.filter((d) => d.channel === delivery.channel && eventIdOf(d) === id).length;
      if (plan && plan.eventId === undefined && id !== undefined) plan.eventId = id;
      delivery.failedWith = always ?? (plan && id === plan.eventId ? plan.steps[delivery.attempt - 1] : undefined);
    }
    this.deliveries.push(delivery);
    for (const listener of [...this.listeners]) listener();
    if (delivery.failedWith === "hang") {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, HANG_MS);
        req.socket.once("close", () => (clearTimeout(timer), resolve()));
      });
      return 504;
    }
    if (delivery.failedWith === "drop") return "drop";
    return delivery.failedWith === "error" ? 500 : 200;
  }

  /**
   * Webhooks of this run get /<token>/<channel>; another run's token is "foreign" (its webhook was left
   * registered); any other path is a webhook registered by hand to --webhook-receiver-url: "given".
   */
  private channelOf(path: string): string {
    const [first, second] = path.split("/").filter(Boolean);
    if (first === this.token && second && /^[A-Za-z0-9_-]+$/.test(second)) return second;
    if (first && markerIn(first)) return "foreign";
    return "given";
  }
}

/**
 * The event id of a delivery: the webhook-id header (standard-webhooks), the x-webhook-event-id header
 * (canonical-json, the spec's default), or in the body: the seed's own field `event_id` (2.7, 6),
 * then a top-level `id`.
 */
export function eventIdOf(d: ReceivedDelivery): string | undefined {
  return eventIdsOf(d)[0];
}

/** True when the delivery carries `eventId` in any of the places eventIdOf reads. */
export function carriesEventId(d: ReceivedDelivery, eventId: string): boolean {
  return eventIdsOf(d).includes(eventId);
}

/** Every event id the delivery names, most specific first; `event_id` is looked for at any depth of the body. */
function eventIdsOf(d: ReceivedDelivery): string[] {
  const ids: string[] = [];
  for (const name of ["webhook-id", "x-webhook-event-id"]) {
    const header = d.headers[name];
    if (typeof header === "string" && header) ids.push(header);
  }
  collectEventIds(d.event, ids, 0);
  if (typeof d.event?.id === "string" && d.event.id) ids.push(d.event.id);
  return ids;
}

function collectEventIds(value: unknown, into: string[], depth: number): void {
  if (depth > 8 || typeof value !== "object" || value === null) return;
  if (Array.isArray(value)) return value.forEach((item) => collectEventIds(item, into, depth + 1));
  const record = value as Record<string, unknown>;
  if (typeof record.event_id === "string" && record.event_id) into.push(record.event_id);
  for (const [key, inner] of Object.entries(record)) if (key !== "event_id") collectEventIds(inner, into, depth + 1);
}

/** The event type: `event` in the spec's envelope {webhook_id, resource_id, url, payload, event}. */
export function eventTypeOf(d: ReceivedDelivery): string | undefined {
  const t = d.event?.event;
  return typeof t === "string" ? t : undefined;
}

/** The resource an event carries: `payload` in the spec's envelope. */
export function eventPayloadOf(d: ReceivedDelivery): Record<string, unknown> {
  const p = d.event?.payload;
  return p && typeof p === "object" && !Array.isArray(p) ? (p as Record<string, unknown>) : {};
}

/** True when the event (anywhere in its data) mentions `needle`, compared case-insensitively. */
export function eventMentions(d: ReceivedDelivery, needle: string): boolean {
  return d.body.toLowerCase().includes(needle.toLowerCase());
}

/**
 * A deposit's event of `type` on `channel`: one that names the transaction (hash or signature) or
 * the address it paid, anywhere, since the seed shows no payload shape (seed 6).
 */
export function depositEvent(
  channel: string | undefined,
  type: string,
  transaction: string,
  address: string,
): (d: ReceivedDelivery) => boolean {
  return (d) =>
    d.channel === channel && eventTypeOf(d) === type && (eventMentions(d, transaction) || eventMentions(d, address));
}
