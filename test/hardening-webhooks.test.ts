// Webhook delivery against receivers that misbehave in the ways test/reference-webhooks.test.ts does not
// cover: answers that are slow but within the timeout (a success), connections closed at every stage of
// the answer (after the request, inside the status line, inside the headers, inside a chunked body that
// announced 200), attempts that follow the backoff schedule (planned delays inside the jitter bounds,
// never early), a log entry per attempt that says what happened, and 20 events sent while the receiver
// is down, each delivered exactly once after it recovers.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CustodialWalletServiceClient } from "../generated/client.ts";
import { C, type DeliveryRecord } from "../reference/domain/records.ts";
import { type Sandbox, startSandbox } from "../reference/sandbox.ts";
import { maxRetryDelayMs } from "../reference/webhooks/backoff.ts";
import { startReceiver, waitFor } from "./reference-helpers.ts";

const RETRY = { maxAttempts: 8, initialDelayMs: 100, maxDelayMs: 400, factor: 2, jitter: 0.5 };
// Long enough that a slow receiver at half of it, or an answering one, stays inside it on a busy machine.
const TIMEOUT_MS = 2_000;
/** How late an attempt may start after its planned time (timer and event-loop lag on a busy machine). */
const LATENESS_MS = 1_000;

let sandbox: Sandbox;
let client: CustodialWalletServiceClient;
let ws: string;

beforeAll(async () => {
  // The per-delivery schedule is what this file checks, so the endpoint's breaker never opens here
  // (test/reference-webhook-isolation.test.ts covers the breaker and how it defers retries).
  const noBreaker = { breaker: { openAfterFailures: 1_000 } };
  sandbox = await startSandbox({
    env: {},
    blockTimeSeconds: 1,
    walletCreationDelayMs: 5,
    webhookRetry: RETRY,
    webhookTimeoutMs: TIMEOUT_MS,
    webhookDelivery: noBreaker,
  });
  ws = sandbox.workspace_id;
  client = new CustodialWalletServiceClient({
    baseUrl: sandbox.base_url,
    apiKey: sandbox.api_key,
    apiSecret: sandbox.api_secret,
  });
});
afterAll(async () => {
  await sandbox?.close();
});

// ---------------------------------------------------------------- a receiver scripted per attempt

type Behaviour =
  | { kind: "answer"; status: number; delayMs?: number; dripMs?: number }
  | { kind: "close-after-request" }
  | { kind: "close-in-status-line" }
  | { kind: "close-in-headers" }
  | { kind: "close-in-chunked-body" }
  | { kind: "hang" };

interface Arrival {
  at: number;
  webhookId: string;
  body: string;
}

interface ScriptedReceiver {
  url: string;
  arrivals: Arrival[];
  close(): Promise<void>;
}

/** Reads one HTTP request off the socket (headers + content-length body). */
function readRequest(socket: net.Socket): Promise<{ headers: Record<string, string>; body: string }> {
  return new Promise((resolve) => {
    let buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const end = buffer.indexOf("\r\n\r\n");
      if (end === -1) return;
      const headers: Record<string, string> = {};
      for (const line of buffer.subarray(0, end).toString("latin1").split("\r\n").slice(1)) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const length = Number(headers["content-length"] ?? 0);
      if (buffer.length < end + 4 + length) return;
      socket.off("data", onData);
      resolve({ headers, body: buffer.subarray(end + 4, end + 4 + length).toString("utf8") });
    };
    socket.on("data", onData);
  });
}

/** A receiver that behaves as `script[n]` on its n-th request (the last entry repeats). */
async function scriptedReceiver(script: readonly Behaviour[]): Promise<ScriptedReceiver> {
  const arrivals: Arrival[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer(async (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    const request = await readRequest(socket);
    const behaviour = script[Math.min(arrivals.length, script.length - 1)];
    arrivals.push({ at: Date.now(), webhookId: request.headers["x-webhook-event-id"] ?? "", body: request.body });
    await behave(socket, behaviour);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hook`,
    arrivals,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function behave(socket: net.Socket, b: Behaviour): Promise<void> {
  switch (b.kind) {
    case "answer": {
      await sleep(b.delayMs ?? 0);
      const body = `answered ${b.status}`;
      socket.write(
        `HTTP/1.1 ${b.status} X\r\ncontent-type: text/plain\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`,
      );
      // Drip the body one byte at a time over dripMs.
      for (const ch of body) {
        if (b.dripMs) await sleep(b.dripMs / body.length);
        socket.write(ch);
      }
      socket.end();
      return;
    }
    case "close-after-request":
      socket.destroy();
      return;
    case "close-in-status-line":
      socket.end("HTTP/1.1 2");
      return;
    case "close-in-headers":
      socket.end("HTTP/1.1 200 OK\r\ncontent-type: text/pl");
      return;
    case "close-in-chunked-body":
      socket.end("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nab");
      return;
    case "hang":
      return;
  }
}

// ---------------------------------------------------------------- helpers

async function hook(url: string): Promise<string> {
  return (await client.createWebhook({ params: { workspace_id: ws }, body: { url, event_types: ["wallet.created"] } }))
    .id;
}

function deliveriesOf(webhookId: string): DeliveryRecord[] {
  return sandbox.app.ctx.store.list<DeliveryRecord>(C.deliveries, (d) => d.webhook_id === webhookId);
}

/** Every committed version of the webhook's deliveries, in commit order (to see each planned retry). */
function recordCommits(webhookId: string): { versions: DeliveryRecord[]; stop: () => void } {
  const versions: DeliveryRecord[] = [];
  const stop = sandbox.app.ctx.store.onCommit((ops) => {
    for (const op of ops)
      if ("c" in op && op.c === C.deliveries && "v" in op && (op.v as DeliveryRecord).webhook_id === webhookId)
        versions.push(structuredClone(op.v as DeliveryRecord));
  });
  return { versions, stop };
}

// ---------------------------------------------------------------- tests

describe("slow receivers", () => {
  it("an answer that comes late, or drips in, but completes within the timeout is a delivery at the first attempt", async () => {
    const late = await scriptedReceiver([{ kind: "answer", status: 200, delayMs: TIMEOUT_MS * 0.5 }]);
    const dripping = await scriptedReceiver([{ kind: "answer", status: 200, dripMs: TIMEOUT_MS * 0.5 }]);
    try {
      const ids = [await hook(late.url), await hook(dripping.url)];
      await client.createWallet({ body: { name: "slow receivers" } });
      for (const id of ids) {
        const d = await waitFor("delivery", () => deliveriesOf(id).find((x) => x.status === "delivered"));
        expect(d.attempt_count).toBe(1);
        expect(d.error).toBeUndefined();
        expect(d.attempts).toHaveLength(1);
        expect(d.attempts[0].duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS * 0.5 - 20);
        expect(d.attempts[0].duration_ms).toBeLessThan(TIMEOUT_MS + 100);
      }
      expect(late.arrivals).toHaveLength(1);
      expect(dripping.arrivals).toHaveLength(1);
      for (const id of ids) await client.deleteWebhook({ params: { workspace_id: ws, webhook_id: id } });
    } finally {
      await Promise.all([late.close(), dripping.close()]);
    }
  });
});

describe("a receiver that fails differently on each attempt, then recovers", () => {
  const SCRIPT: Behaviour[] = [
    { kind: "answer", status: 500 },
    { kind: "close-after-request" },
    { kind: "close-in-status-line" },
    { kind: "close-in-headers" },
    { kind: "close-in-chunked-body" },
    { kind: "hang" },
    { kind: "answer", status: 200, delayMs: 50 },
  ];

  it("logs each attempt with what happened, retries on the backoff schedule, and delivers on recovery", async () => {
    const receiver = await scriptedReceiver(SCRIPT);
    const webhookId = await hook(receiver.url);
    const commits = recordCommits(webhookId);
    try {
      await client.createWallet({ body: { name: "scripted receiver" } });
      const delivered = await waitFor("delivery after recovery", () =>
        deliveriesOf(webhookId).find((d) => d.status === "delivered"),
      );
      commits.stop();

      // The log: one entry per attempt, numbered, saying what the receiver did.
      const attempts = delivered.attempts;
      expect(attempts.map((a) => a.number)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(attempts[0]).toMatchObject({ response_status: 500, error: "receiver answered HTTP 500" });
      for (const a of attempts.slice(1, 4)) {
        // No complete status line: no status to log, only why the attempt failed.
        expect(a.response_status).toBeUndefined();
        expect(a.error).toMatch(/closed before the response was complete|connection reset|connection error/);
      }
      // A 200 whose body was cut off is not a delivery.
      expect(attempts[4]).toMatchObject({ response_status: 200 });
      expect(attempts[4].error).toMatch(/closed before the response was complete/);
      expect(attempts[5].error).toMatch(new RegExp(`^timeout: no complete response within ${TIMEOUT_MS} ms`));
      expect(attempts[6].error).toBeUndefined();
      expect(attempts[6].response_status).toBe(200);
      expect(delivered).toMatchObject({ attempt_count: 7, response_status: 200, response_body: "answered 200" });
      // What the API shows of the log agrees with the store.
      const [view] = await client.listWebhookDeliveries({
        params: { workspace_id: ws },
        query: { webhook_id: webhookId },
      });
      expect(view).toMatchObject({
        status: "delivered",
        attempt_count: 7,
        response_status: 200,
        event_id: delivered.event_id,
      });

      // The schedule: after the n-th failure the delay planned is within the jitter bounds of the
      // n-th backoff step, and the next attempt never starts before it.
      const planned = commits.versions.filter((v) => v.status === "pending" && v.attempt_count >= 1);
      expect(planned).toHaveLength(6);
      for (let n = 1; n <= 6; n++) {
        const failed = attempts[n - 1];
        const version = planned[n - 1];
        expect(version.attempt_count).toBe(n);
        // From when the dispatcher took the attempt as ended (the version's updated_at), not from the
        // attempt's start plus its duration: on a busy machine the two differ by the event loop's lag.
        const endedAt = Date.parse(version.updated_at);
        expect(endedAt, `attempt ${n} ended before it started`).toBeGreaterThanOrEqual(Date.parse(failed.at));
        const delay = Date.parse(version.next_attempt_at as string) - endedAt;
        const bound = maxRetryDelayMs(RETRY, n);
        expect(delay, `delay after attempt ${n}`).toBeGreaterThanOrEqual(Math.floor(bound * (1 - RETRY.jitter)) - 3);
        expect(delay, `delay after attempt ${n}`).toBeLessThanOrEqual(bound + 3);
        const nextStart = Date.parse(attempts[n].at);
        expect(nextStart, `attempt ${n + 1} early`).toBeGreaterThanOrEqual(
          Date.parse(version.next_attempt_at as string) - 1,
        );
        expect(nextStart - Date.parse(version.next_attempt_at as string), `attempt ${n + 1} late`).toBeLessThanOrEqual(
          LATENESS_MS,
        );
      }
      // The receiver saw the same event on every attempt.
      expect(receiver.arrivals).toHaveLength(7);
      expect(new Set(receiver.arrivals.map((a) => a.webhookId))).toEqual(new Set([delivered.event_id]));
    } finally {
      commits.stop();
      await receiver.close();
      await client.deleteWebhook({ params: { workspace_id: ws, webhook_id: webhookId } });
    }
  });
});

describe("nothing is dropped", () => {
  it("20 events sent while the receiver is down are each delivered exactly once after it recovers", async () => {
    const receiver = await startReceiver(503);
    const webhookId = await hook(receiver.url);
    try {
      const created = await Promise.all(
        Array.from({ length: 20 }, (_, i) => client.createWallet({ body: { name: `while down ${i}` } })),
      );
      expect(new Set(created.map((c) => c.wallet_id)).size).toBe(20);
      // Every event has met the receiver down at least twice (and is still being retried).
      await waitFor("two failed attempts for each of the 20", () => {
        const ds = deliveriesOf(webhookId);
        return ds.length === 20 && ds.every((d) => d.attempt_count >= 2 && d.status === "pending");
      });
      expect(receiver.received.every((r) => r.answeredWith === 503)).toBe(true);

      receiver.status = 200;
      await waitFor("20 deliveries", () => deliveriesOf(webhookId).every((d) => d.status === "delivered"));
      const deliveries = deliveriesOf(webhookId);
      expect(deliveries).toHaveLength(20);
      const eventIds = new Set(deliveries.map((d) => d.event_id));
      expect(eventIds.size).toBe(20);
      // Each event was answered 2xx exactly once: one per webhook-id, and every id is one of the 20 events.
      const accepted = receiver.received
        .filter((r) => r.answeredWith === 200)
        .map((r) => r.headers["x-webhook-event-id"] as string);
      expect(accepted).toHaveLength(20);
      expect(new Set(accepted)).toEqual(eventIds);
      // And they are the wallet.created events of the 20 wallets.
      const wallets = new Set(
        receiver.received
          .filter((r) => r.answeredWith === 200)
          .map((r) => r.event.payload.wallet_id ?? r.event.payload.id),
      );
      for (const c of created) expect(wallets.has(c.wallet_id)).toBe(true);
    } finally {
      await receiver.close();
      await client.deleteWebhook({ params: { workspace_id: ws, webhook_id: webhookId } });
    }
  });
});
