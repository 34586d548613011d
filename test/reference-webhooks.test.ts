// Webhook delivery of the sandbox over HTTP: a receiver that fails (500s, hangs past the timeout,
// refuses connections, closes mid-response) gets every event once it recovers, each attempt is logged,
// retries follow the backoff schedule, resend keeps the event id, delete stops everything, and both
// signature profiles verify with the key of operation 8.
import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CustodialWalletServiceClient } from "../generated/client.ts";
import type { WebhookDelivery } from "../generated/types.ts";
import { C, type DeliveryRecord } from "../reference/domain/records.ts";
import { type Sandbox, startSandbox } from "../reference/sandbox.ts";
import { maxRetryDelayMs } from "../reference/webhooks/backoff.ts";
import { verifyWebhook } from "../runtime/webhooks/signature.ts";
import { startReceiver, waitFor } from "./reference-helpers.ts";

const RETRY = { maxAttempts: 4, initialDelayMs: 80, maxDelayMs: 400, factor: 2, jitter: 0.5 };

let sandbox: Sandbox;
let client: CustodialWalletServiceClient;
let ws: string;
let publicKey: string;

beforeAll(async () => {
  sandbox = await startSandbox({
    env: {},
    blockTimeSeconds: 1,
    walletCreationDelayMs: 20,
    webhookRetry: RETRY,
    webhookTimeoutMs: 300,
  });
  ws = sandbox.workspace_id;
  client = new CustodialWalletServiceClient({
    baseUrl: sandbox.base_url,
    apiKey: sandbox.api_key,
    apiSecret: sandbox.api_secret,
  });
  publicKey = (await client.getWebhookVerificationKey({ params: { workspace_id: ws } })).public_key as string;
});
afterAll(async () => {
  await sandbox?.close();
});

async function hook(url: string): Promise<string> {
  const created = await client.createWebhook({
    params: { workspace_id: ws },
    body: { url, event_types: ["wallet.created"], description: "test" },
  });
  return created.id;
}

async function deliveriesOf(webhookId: string): Promise<WebhookDelivery[]> {
  return client.listWebhookDeliveries({ params: { workspace_id: ws }, query: { webhook_id: webhookId } });
}

/** A delivery whose attempts all failed: pending while it has attempts left, failed after the last. */
function statusAfter(d: WebhookDelivery): string {
  return (d.attempt_count ?? 0) < RETRY.maxAttempts ? "pending" : "failed";
}

async function oneDelivery(
  webhookId: string,
  until: (d: WebhookDelivery) => boolean,
  what: string,
): Promise<WebhookDelivery> {
  return waitFor(what, async () => {
    const [d] = await deliveriesOf(webhookId);
    return d !== undefined && until(d) && d;
  });
}

describe("a receiver that fails, then recovers", () => {
  it("logs each failed attempt and delivers once the receiver answers 2xx", async () => {
    const receiver = await startReceiver(500);
    try {
      const webhookId = await hook(receiver.url);
      await client.createWallet({ body: { name: "retry me" } });
      const failing = await oneDelivery(webhookId, (d) => (d.attempt_count ?? 0) >= 2, "two failed attempts");
      expect(failing).toMatchObject({ status: "pending", response_status: 500, event_type: "wallet.created" });
      expect(failing.response_body).toBe("receiver down (500)");
      expect(failing.error).toContain("500");
      expect(Date.parse(failing.next_attempt_at as string)).toBeGreaterThanOrEqual(
        Date.parse(failing.last_attempt_at as string),
      );

      receiver.status = 200;
      const delivered = await oneDelivery(webhookId, (d) => d.status === "delivered", "delivery");
      expect(delivered.delivered_at).toBeDefined();
      expect(delivered.response_status).toBe(200);
      expect(delivered.error).toBeUndefined();
      expect(delivered.next_attempt_at).toBeUndefined();
      expect(delivered.payload).toMatchObject({ event: "wallet.created", webhook_id: webhookId, url: receiver.url });
      // Every attempt carried the same event id; each one verifies.
      expect(new Set(receiver.received.map((r) => r.headers["x-webhook-event-id"]))).toEqual(
        new Set([delivered.event_id]),
      );
      for (const r of receiver.received) {
        expect(
          verifyWebhook({ publicKeyBase64: publicKey, headers: r.headers as Record<string, string>, body: r.body }).ok,
        ).toBe(true);
      }
      expect(receiver.received.length).toBe(delivered.attempt_count);
    } finally {
      await receiver.close();
    }
  });

  it("gives up after maxAttempts with the delays of the backoff schedule, and resend starts a new series with the same event id", async () => {
    const receiver = await startReceiver(503);
    try {
      const webhookId = await hook(receiver.url);
      await client.createWallet({ body: { name: "always down" } });
      const failed = await oneDelivery(webhookId, (d) => d.status === "failed", "failed delivery");
      expect(failed.attempt_count).toBe(RETRY.maxAttempts);
      expect(receiver.received).toHaveLength(RETRY.maxAttempts);
      // Each retry waited at least the lower end of its jittered delay.
      const record = sandbox.app.ctx.store.get<DeliveryRecord>(C.deliveries, failed.id as string) as DeliveryRecord;
      const times = record.attempts.map((a) => Date.parse(a.at));
      for (let i = 1; i < times.length; i++) {
        expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(maxRetryDelayMs(RETRY, i) * (1 - RETRY.jitter) - 5);
      }

      receiver.status = 204;
      const requeued = await client.resendWebhookDelivery({
        params: { workspace_id: ws, delivery_id: failed.id as string },
      });
      expect(requeued).toMatchObject({ id: failed.id, status: "pending", event_id: failed.event_id });
      const delivered = await oneDelivery(webhookId, (d) => d.status === "delivered", "delivery after resend");
      expect(delivered.attempt_count).toBe(RETRY.maxAttempts + 1);
      const last = receiver.received.at(-1);
      expect(last?.headers["x-webhook-event-id"]).toBe(failed.event_id);

      // Resending a delivered one delivers it again, still the same event.
      await client.resendWebhookDelivery({ params: { workspace_id: ws, delivery_id: failed.id as string } });
      await waitFor("second resend", () => receiver.received.length === RETRY.maxAttempts + 2);
      expect(receiver.received.at(-1)?.headers["x-webhook-event-id"]).toBe(failed.event_id);
    } finally {
      await receiver.close();
    }
  });

  it("records timeouts, refused connections and answers cut off mid-response as failed attempts", async () => {
    // A receiver that hangs, one that closes the socket mid-response, and a port nobody listens on.
    const hanging = http.createServer(() => {});
    const cutting = net.createServer((socket) => {
      socket.once("data", () => socket.end("HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\npartial"));
    });
    await Promise.all([
      new Promise<void>((r) => hanging.listen(0, "127.0.0.1", r)),
      new Promise<void>((r) => cutting.listen(0, "127.0.0.1", r)),
    ]);
    // Port 1 on loopback: nothing listens there, and unlike a freed ephemeral port no parallel test can take it.
    const closedPort = 1;
    try {
      const ids = {
        hang: await hook(`http://127.0.0.1:${(hanging.address() as AddressInfo).port}/`),
        cut: await hook(`http://127.0.0.1:${(cutting.address() as AddressInfo).port}/`),
        refused: await hook(`http://127.0.0.1:${closedPort}/`),
      };
      await client.createWallet({ body: { name: "hostile receivers" } });
      const hang = await oneDelivery(ids.hang, (d) => (d.attempt_count ?? 0) >= 1, "hang attempt");
      expect(hang.error).toMatch(/^timeout/);
      // Retries come 80–400 ms apart here: by the time it is read, a delivery may have used all of its attempts.
      expect(hang.status).toBe(statusAfter(hang));
      const cut = await oneDelivery(ids.cut, (d) => (d.attempt_count ?? 0) >= 1, "cut attempt");
      expect(cut.error).toMatch(/closed before the response was complete/);
      expect(cut.status).toBe(statusAfter(cut));
      const refused = await oneDelivery(ids.refused, (d) => (d.attempt_count ?? 0) >= 1, "refused attempt");
      expect(refused.error).toBe("connection refused");
      expect(refused.response_status).toBeUndefined();
      for (const id of Object.values(ids)) await client.deleteWebhook({ params: { workspace_id: ws, webhook_id: id } });
    } finally {
      hanging.closeAllConnections();
      await Promise.all([new Promise((r) => hanging.close(r)), new Promise((r) => cutting.close(r))]);
    }
  });
});

describe("deleting a webhook", () => {
  it("cancels its pending deliveries and sends it nothing more", async () => {
    const receiver = await startReceiver(500);
    try {
      const webhookId = await hook(receiver.url);
      await client.createWallet({ body: { name: "before delete" } });
      const pending = await oneDelivery(webhookId, (d) => (d.attempt_count ?? 0) >= 1, "a failed attempt");
      const result = await client.deleteWebhook({ params: { workspace_id: ws, webhook_id: webhookId } });
      expect(result).toEqual({ id: webhookId, webhook_id: webhookId, status: "deleted" });
      const cancelled = await oneDelivery(webhookId, (d) => d.status === "failed", "cancelled");
      expect(cancelled.error).toBe("cancelled: the webhook was deleted");
      expect((await client.listWebhooks({ params: { workspace_id: ws } })).map((w) => w.id)).not.toContain(webhookId);
      await expect(
        client.resendWebhookDelivery({ params: { workspace_id: ws, delivery_id: pending.id as string } }),
      ).rejects.toMatchObject({ status: 404 });

      receiver.status = 200;
      const seen = receiver.received.length;
      const other = await startReceiver(200);
      try {
        // A new event reaches another webhook but not the deleted one.
        await hook(other.url);
        await client.createWallet({ body: { name: "after delete" } });
        await waitFor("the other webhook's delivery", () => other.received.length > 0);
        await new Promise((r) => setTimeout(r, 300));
        expect(receiver.received.length).toBe(seen);
        expect((await deliveriesOf(webhookId)).length).toBe(1);
      } finally {
        await other.close();
      }
      await expect(
        client.deleteWebhook({ params: { workspace_id: ws, webhook_id: "whk_unknown" } }),
      ).rejects.toMatchObject({ status: 404 });
    } finally {
      await receiver.close();
    }
  });
});

describe("registration", () => {
  it("refuses receivers that are not http(s)", async () => {
    await expect(
      client.createWebhook({
        params: { workspace_id: ws },
        body: { url: "ftp://127.0.0.1/x", event_types: ["wallet.created"] },
      }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      client.createWebhook({
        params: { workspace_id: ws },
        body: { url: "http://user:pw@127.0.0.1/x", event_types: ["wallet.created"] },
      }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it("refuses what format uri and uniqueItems forbid: a non-ASCII host, a newline, a repeated event type", async () => {
    for (const url of ["https://\u00cf", "https://example.com/a\nb"]) {
      await expect(
        client.createWebhook({ params: { workspace_id: ws }, body: { url, event_types: ["wallet.created"] } }),
      ).rejects.toMatchObject({ status: 400 });
    }
    await expect(
      client.createWebhook({
        params: { workspace_id: ws },
        body: { url: "https://example.com/hooks", event_types: ["wallet.created", "wallet.created"] },
      }),
    ).rejects.toMatchObject({ status: 400 });
  });
});

describe("the canonical-json profile", () => {
  it("signs the canonical JSON of the event; operation 8's key verifies it", async () => {
    const other = await startSandbox({
      env: {},
      blockTimeSeconds: 1,
      walletCreationDelayMs: 20,
      webhookProfile: "canonical-json",
      webhookRetry: RETRY,
    });
    const receiver = await startReceiver(200);
    try {
      const c = new CustodialWalletServiceClient({
        baseUrl: other.base_url,
        apiKey: other.api_key,
        apiSecret: other.api_secret,
      });
      await c.createWebhook({
        params: { workspace_id: other.workspace_id },
        body: { url: receiver.url, event_types: ["wallet.created"] },
      });
      await c.createWallet({ body: { name: "canonical" } });
      const [r] = await waitFor("delivery", () => receiver.received.length > 0 && receiver.received);
      expect(r.headers["x-webhook-signature"]).toMatch(/^[0-9a-f]{128}$/);
      expect(r.headers["webhook-signature"]).toBeUndefined();
      const key = (await c.getWebhookVerificationKey({ params: { workspace_id: other.workspace_id } }))
        .public_key as string;
      expect(
        verifyWebhook({ publicKeyBase64: key, headers: r.headers as Record<string, string>, body: r.body }),
      ).toEqual({ ok: true, profile: "canonical-json" });
      // A key of another sandbox does not verify it.
      expect(
        verifyWebhook({ publicKeyBase64: publicKey, headers: r.headers as Record<string, string>, body: r.body }).ok,
      ).toBe(false);
    } finally {
      await receiver.close();
      await other.close();
    }
  });
});
