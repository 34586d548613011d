// The runner's own webhook receiver: a small node:http server that records every delivery
// (raw bytes and headers, exactly as received) so the checks can verify real signatures.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

const MAX_DELIVERY_BYTES = 1024 * 1024;

export interface ReceivedDelivery {
  /** The path token after /hooks/ that tells which registered webhook this is. */
  channel: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  receivedAt: number;
  /** 1 for the first attempt of this event on this channel, 2 for its first retry, ... */
  attempt?: number;
  /** What the receiver answered when a failure plan made it fail ("error": 500, "hang": no answer, "reset": connection closed). */
  failedWith?: FailureStep;
  /** Parsed body when it is JSON. */
  event?: { event?: unknown; payload?: unknown; webhook_id?: unknown; resource_id?: unknown; url?: unknown; [k: string]: unknown };
}

/**
 * A planned failure: "error" answers 500, "hang" answers nothing until the sender gives up, "reset"
 * closes the connection without an answer (a receiver that refuses: the URL stays one the deployment
 * can reach, so refusal is a reset rather than a closed port).
 */
export type FailureStep = "error" | "hang" | "reset";

/** What accept() tells the server to do instead of answering with a status. */
const RESET = 0;

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
  private readonly plans = new Map<string, FailureStep[]>();
  private readonly always = new Map<string, FailureStep>();
  private server: Server | undefined;
  private base = "";

  async start(options: ReceiverOptions = {}): Promise<void> {
    this.server = createServer((req, res) => {
      this.accept(req).then(
        (status) => {
          if (status === RESET) return void req.socket.destroy();
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

  /** Attempt n of every event on `channel` gets plan[n-1]; later attempts are answered 200. */
  failFirst(channel: string, plan: FailureStep[]): void {
    this.plans.set(channel, plan);
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
    return `${this.base}/hooks/${channel}`;
  }

  /** Resolves with the first delivery (already received or future) matching `predicate`, or undefined at the deadline. */
  waitFor(predicate: (d: ReceivedDelivery) => boolean, timeoutMs: number, signal?: AbortSignal): Promise<ReceivedDelivery | undefined> {
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

  private async accept(req: IncomingMessage): Promise<number> {
    // Webhooks we register get /hooks/<channel>; a webhook registered by hand to --webhook-receiver-url
    // may use any path under it, and counts as the channel "given".
    const match = /^\/hooks\/([A-Za-z0-9_-]+)/.exec(req.url ?? "") ?? [undefined, "given"];
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
    const delivery: ReceivedDelivery = { channel: match[1], headers: { ...req.headers }, body, receivedAt: Date.now() };
    try {
      const parsed = JSON.parse(body) as unknown;
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) delivery.event = parsed as ReceivedDelivery["event"];
    } catch {
      // Kept as raw text: the signature checks report a non-JSON event themselves.
    }
    const plan = this.plans.get(delivery.channel);
    const always = this.always.get(delivery.channel);
    if (plan || always) {
      const id = eventIdOf(delivery);
      delivery.attempt = 1 + this.deliveries.filter((d) => d.channel === delivery.channel && eventIdOf(d) === id).length;
      delivery.failedWith = always ?? plan?.[delivery.attempt - 1];
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
    if (delivery.failedWith === "reset") return RESET;
    return delivery.failedWith === "error" ? 500 : 200;
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
