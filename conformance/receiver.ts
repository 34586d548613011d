// The runner's own webhook receiver: a small node:http server that records every delivery
// (raw bytes and headers, exactly as received) so the checks can verify real signatures. The URLs it
// hands out carry the run's marker (marker.ts), so webhooks left by other runs are told apart.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { markerIn } from "./marker.ts";

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
  /** 1 for the first attempt of this event on this channel, 2 for its first retry, ... */
  attempt?: number;
  /** What the receiver answered when a failure plan made it fail ("error": 500, "drop": no answer). */
  failedWith?: FailureStep;
  /** Parsed body when it is JSON. */
  event?: { event?: unknown; payload?: unknown; webhook_id?: unknown; resource_id?: unknown; url?: unknown; [k: string]: unknown };
}

/**
 * A planned failure, both answered at once: "error" is a 500; "drop" closes the connection without
 * any answer (a network failure to the sender). No plan makes the sender wait for its time-out, so a
 * failing receiver costs the deployment nothing, even when a run leaves it registered.
 */
export type FailureStep = "error" | "drop";

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

  /** Attempt n of every event on `channel` gets plan[n-1]; later attempts are answered 200. */
  failFirst(channel: string, plan: FailureStep[]): void {
    this.plans.set(channel, plan);
  }

  /** The URL to register for one channel (a webhook of ours). */
  url(channel: string): string {
    return `${this.base}/${this.token}/${channel}`;
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
    const delivery: ReceivedDelivery = { channel, headers: { ...req.headers }, body, receivedAt: Date.now() };
    try {
      const parsed = JSON.parse(body) as unknown;
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) delivery.event = parsed as ReceivedDelivery["event"];
    } catch {
      // Kept as raw text: the signature checks report a non-JSON event themselves.
    }
    const plan = this.plans.get(delivery.channel);
    if (plan) {
      const id = eventIdOf(delivery);
      delivery.attempt = 1 + this.deliveries.filter((d) => d.channel === delivery.channel && eventIdOf(d) === id).length;
      delivery.failedWith = plan[delivery.attempt - 1];
    }
    this.deliveries.push(delivery);
    for (const listener of [...this.listeners]) listener();
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
 * (canonical-json, the spec's default), or an id in the body.
 */
export function eventIdOf(d: ReceivedDelivery): string | undefined {
  for (const name of ["webhook-id", "x-webhook-event-id"]) {
    const header = d.headers[name];
    if (typeof header === "string" && header) return header;
  }
  return typeof d.event?.id === "string" ? d.event.id : undefined;
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
