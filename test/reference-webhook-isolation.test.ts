// Webhook delivery that holds up under bad receivers (issue 28), against the sandbox over HTTP:
// - isolation: healthy deliveries arrive while twenty hanging endpoints still hold their attempts, and a
//   hanging endpoint never has more than one attempt open;
// - the breaker: consecutive failures open it, nothing is attempted until backoff_until, a failed probe
//   reopens it, a 2xx closes it and the backlog is delivered;
// - disabling: every attempt failing for the period disables the webhook, new events are logged
//   unattempted, enableWebhook brings it back and requeueFailedWebhookDeliveries resends what it missed;
// - at least once across a restart while an endpoint is open-circuited.
// Assertions are on ordering and causality (what was open when something arrived), never on how fast
// a loaded machine is.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CustodialWalletServiceClient } from "../generated/client.ts";
import type { Webhook } from "../generated/types.ts";
import { C, type DeliveryRecord, type EndpointHealth, type WebhookRecord } from "../reference/domain/records.ts";
import { type Sandbox, type SandboxOptions, startSandbox } from "../reference/sandbox.ts";
import { OUTER_BOUND_MS, type Receiver, startReceiver, waitFor } from "./reference-helpers.ts";

interface HangingRequest {
  path: string;
  at: number;
  closedAt?: number;
}

/** A receiver that accepts every request and never answers (a crashed service behind a live socket). */
async function startHangingReceiver(): Promise<{ url: string; requests: HangingRequest[]; close(): Promise<void> }> {
  const requests: HangingRequest[] = [];
  const server = http.createServer((req) => {
    const r: HangingRequest = { path: req.url ?? "", at: Date.now() };
    requests.push(r);
    req.resume();
    req.socket.once("close", () => (r.closedAt = Date.now()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const opened: Array<{ close(): Promise<unknown> }> = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const o of opened.reverse()) await o.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function sandboxWith(
  options: SandboxOptions,
): Promise<{ sandbox: Sandbox; client: CustodialWalletServiceClient; ws: string }> {
  const sandbox = await startSandbox({ env: {}, blockTimeSeconds: 1, walletCreationDelayMs: 10, ...options });
  opened.push(sandbox);
  return {
    sandbox,
    client: new CustodialWalletServiceClient({
      baseUrl: sandbox.base_url,
      apiKey: sandbox.api_key,
      apiSecret: sandbox.api_secret,
    }),
    ws: sandbox.workspace_id,
  };
}

async function receiver(status: number): Promise<Receiver> {
  const r = await startReceiver(status);
  opened.push(r);
  return r;
}

const hook = async (client: CustodialWalletServiceClient, ws: string, url: string) =>
  (await client.createWebhook({ params: { workspace_id: ws }, body: { url, event_types: ["wallet.created"] } })).id;

async function webhookOf(client: CustodialWalletServiceClient, ws: string, id: string): Promise<Webhook> {
  const found = (await client.listWebhooks({ params: { workspace_id: ws } })).find((w) => w.id === id);
  if (!found) throw new Error(`webhook ${id} is not listed`);
  return found;
}

/** Every health the webhook went through, in commit order. */
function healthTrail(sandbox: Sandbox, webhookId: string): { trail: Array<EndpointHealth | undefined>; stop(): void } {
  const trail: Array<EndpointHealth | undefined> = [];
  const stop = sandbox.app.ctx.store.onCommit((ops) => {
    for (const op of ops)
      if ("c" in op && op.c === C.webhooks && op.id === webhookId && "v" in op)
        trail.push((op.v as WebhookRecord).health);
  });
  return { trail, stop };
}

const attemptsOf = (sandbox: Sandbox, webhookId: string) =>
  sandbox.app.ctx.store
    .list<DeliveryRecord>(C.deliveries, (d) => d.webhook_id === webhookId)
    .flatMap((d) => d.attempts.map((a) => ({ ...a, delivery: d.id })))
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at));

describe("isolation", () => {
  it("delivers every event to a healthy endpoint while twenty hanging endpoints hold their attempts, each holding one", async () => {
    // The spec's 10 s time-out: the hanging attempts stay open for the whole test.
    const { client, ws } = await sandboxWith({});
    const hanging = await startHangingReceiver();
    opened.push(hanging);
    const healthy = await receiver(200);
    for (let i = 0; i < 20; i++) await hook(client, ws, `${hanging.url}/h${i}`);
    await hook(client, ws, healthy.url);
    const wallets: string[] = [];
    for (let i = 0; i < 3; i++)
      wallets.push((await client.createWallet({ body: { name: `isolated ${i}` } })).wallet_id as string);

    await waitFor("the three events at the healthy endpoint", () => healthy.received.length >= 3);
    await waitFor(
      "an attempt at every hanging endpoint",
      () => new Set(hanging.requests.map((r) => r.path)).size === 20,
    );
    const lastHealthy = Date.now();
    const firstGivenUp = Math.min(...hanging.requests.map((r) => r.closedAt ?? Infinity));
    // Causality: nothing the healthy endpoint got waited for a hanging attempt to be given up.
    expect(firstGivenUp).toBeGreaterThan(lastHealthy);
    expect(healthy.received.map((r) => r.event.payload.wallet_id).sort()).toEqual([...wallets].sort());
    // The bound: an endpoint that has not answered has one attempt open at a time (three events wait behind it).
    const openPerPath = new Map<string, number>();
    for (const r of hanging.requests)
      if (r.closedAt === undefined) openPerPath.set(r.path, (openPerPath.get(r.path) ?? 0) + 1);
    expect(Math.max(...openPerPath.values())).toBe(1);
  });
});

describe("deleting a webhook", () => {
  it("cuts its attempts on the wire instead of waiting out the time-out", async () => {
    const { client, ws } = await sandboxWith({}); // the spec's 10 s time-out
    const hanging = await startHangingReceiver();
    opened.push(hanging);
    const id = await hook(client, ws, hanging.url);
    await client.createWallet({ body: { name: "doomed" } });
    const request = await waitFor("an attempt on the wire", () => hanging.requests[0]);
    const deletedAt = Date.now();
    await client.deleteWebhook({ params: { workspace_id: ws, webhook_id: id } });
    await waitFor("the attempt cut", () => request.closedAt !== undefined);
    // Cut by the deletion, well before its 10 s time-out would have ended it.
    expect((request.closedAt as number) - request.at).toBeLessThan(10_000);
    expect(request.closedAt).toBeGreaterThanOrEqual(deletedAt);
    const [d] = await client.listWebhookDeliveries({ params: { workspace_id: ws }, query: { webhook_id: id } });
    expect(d).toMatchObject({ status: "failed", error: "cancelled: the webhook was deleted", attempt_count: 0 });
  });
});

describe("the circuit breaker", () => {
  it("opens after consecutive failures, attempts nothing until backoff_until, reopens on a failed probe, closes on a 2xx and delivers the backlog", async () => {
    const probesMs = [400, 800];
    const { sandbox, client, ws } = await sandboxWith({
      // No jitter: each window is exactly its probe delay long.
      webhookRetry: { initialDelayMs: 50, maxDelayMs: 100, maxAttempts: 20, jitter: 0 },
      webhookDelivery: { breaker: { openAfterFailures: 3, probeDelaysMs: probesMs } },
    });
    const down = await receiver(503);
    const webhookId = await hook(client, ws, down.url);
    const health = healthTrail(sandbox, webhookId);
    try {
      for (let i = 0; i < 5; i++) await client.createWallet({ body: { name: `backlog ${i}` } });
      const open = await waitFor("the breaker open", async () => {
        const w = await webhookOf(client, ws, webhookId);
        return w.delivery_state === "backing_off" && w;
      });
      expect(open.consecutive_failures).toBeGreaterThanOrEqual(3);
      expect(Date.parse(open.backoff_until as string)).toBeGreaterThan(Date.parse(open.failing_since as string));
      // A pending delivery shows the probe time as its next attempt.
      const pending = (
        await client.listWebhookDeliveries({
          params: { workspace_id: ws },
          query: { webhook_id: webhookId, status: "pending" },
        })
      )[0];
      expect(Date.parse(pending.next_attempt_at as string)).toBeGreaterThanOrEqual(
        Date.parse(open.backoff_until as string),
      );

      await waitFor("a failed probe reopening the breaker", () => health.trail.some((h) => h?.openings === 2));
      down.status = 200;
      await waitFor(
        "the breaker closed",
        () => health.trail.at(-1)?.state === "healthy" && health.trail.at(-1)?.last_outcome === "ok",
      );
      await waitFor("the five events delivered", async () =>
        (await client.listWebhookDeliveries({ params: { workspace_id: ws }, query: { webhook_id: webhookId } })).every(
          (d) => d.status === "delivered",
        ),
      );
      expect(await webhookOf(client, ws, webhookId)).toMatchObject({
        delivery_state: "healthy",
        consecutive_failures: 0,
      });

      // While each open window lasted, not one attempt started; each window ended with exactly one probe.
      const attempts = attemptsOf(sandbox, webhookId);
      const windows = health.trail.filter(
        (h, i) => h?.state === "backing_off" && h.openings !== health.trail[i - 1]?.openings,
      ) as EndpointHealth[];
      expect(windows.map((w) => w.openings)).toEqual([1, 2, 3].slice(0, windows.length));
      expect(windows.length).toBeGreaterThanOrEqual(2);
      for (const w of windows) {
        const openedAt = Date.parse(w.backoff_until as string) - probesMs[Math.min(w.openings, probesMs.length) - 1];
        const during = attempts.filter(
          (a) => Date.parse(a.at) > openedAt && Date.parse(a.at) < Date.parse(w.backoff_until as string),
        );
        expect(during, `attempts inside window ${w.openings}`).toEqual([]);
      }
      const afterFirstWindow = attempts.filter(
        (a) =>
          Date.parse(a.at) >= Date.parse(windows[0].backoff_until as string) &&
          Date.parse(a.at) < Date.parse(windows[1].backoff_until as string),
      );
      expect(afterFirstWindow).toHaveLength(1);
      // Every event reached the receiver with a 2xx, the same event ids as logged.
      const logged = (
        await client.listWebhookDeliveries({ params: { workspace_id: ws }, query: { webhook_id: webhookId } })
      ).map((d) => d.event_id);
      expect(
        new Set(down.received.filter((r) => r.answeredWith === 200).map((r) => r.headers["x-webhook-event-id"])),
      ).toEqual(new Set(logged));
    } finally {
      health.stop();
    }
  });
});

describe("disabling", () => {
  it("disables a webhook whose every attempt failed for the period, logs new events unattempted, and re-enable plus requeue delivers what it missed", async () => {
    const { sandbox, client, ws } = await sandboxWith({
      webhookRetry: { initialDelayMs: 50, maxDelayMs: 100, maxAttempts: 2 },
      webhookDelivery: { breaker: { openAfterFailures: 2, probeDelaysMs: [100] }, disableAfterMs: 1_500 },
    });
    const down = await receiver(503);
    const webhookId = await hook(client, ws, down.url);
    const since = new Date(Date.now() - 1_000).toISOString();
    // Events keep coming while the receiver is down, until the period has passed.
    const disabled = await waitFor(
      "the webhook disabled",
      async () => {
        const w = await webhookOf(client, ws, webhookId);
        if (w.delivery_state === "disabled") return w;
        await client.createWallet({ body: { name: "while down" } });
        return undefined;
      },
      OUTER_BOUND_MS,
      200,
    );
    expect(disabled.disabled_reason).toMatch(/every attempt failed for \d+ s/);
    expect(
      Date.parse(disabled.disabled_at as string) - Date.parse(disabled.failing_since as string),
    ).toBeGreaterThanOrEqual(1_500);
    const disabledAt = Date.parse(disabled.disabled_at as string);
    expect(down.received.length).toBeGreaterThan(0);
    // Nothing waits in the queue of a disabled webhook, and nothing is sent to it any more.
    const list = () => client.listWebhookDeliveries({ params: { workspace_id: ws }, query: { webhook_id: webhookId } });
    expect((await list()).filter((d) => d.status === "pending")).toEqual([]);
    const whileDisabled = await client.createWallet({ body: { name: "while disabled" } });
    const unattempted = await waitFor("the delivery of the new event", async () =>
      (await list()).find((d) => (d.payload as { resource_id?: string }).resource_id === whileDisabled.wallet_id),
    );
    expect(unattempted).toMatchObject({
      status: "failed",
      attempt_count: 0,
      error: "not attempted: the webhook is disabled",
    });
    expect(sandbox.app.dispatcher.queuedFor(webhookId)).toEqual([]);

    // Operation 6 on a disabled webhook requeues, and the delivery waits for the webhook to be enabled.
    down.status = 200;
    const resent = await client.resendWebhookDelivery({
      params: { workspace_id: ws, delivery_id: unattempted.id as string },
    });
    expect(resent.status).toBe("pending");
    expect(resent.next_attempt_at).toBeUndefined();
    expect(sandbox.app.dispatcher.queuedFor(webhookId)).toEqual([unattempted.id]);
    expect(down.received.every((r) => r.answeredWith === 503)).toBe(true);

    const enabled = await client.enableWebhook({ params: { workspace_id: ws, webhook_id: webhookId } });
    expect(enabled).toMatchObject({ id: webhookId, delivery_state: "healthy", consecutive_failures: 0 });
    expect(enabled.disabled_at).toBeUndefined();
    await waitFor("the resent delivery", () =>
      down.received.some((r) => r.answeredWith === 200 && r.headers["x-webhook-event-id"] === unattempted.event_id),
    );
    // Every attempt before re-enabling started by the time it was disabled.
    expect(down.received.filter((r) => r.answeredWith === 503).length).toBeGreaterThan(0);
    for (const a of attemptsOf(sandbox, webhookId).filter((x) => x.response_status === 503))
      expect(Date.parse(a.at)).toBeLessThanOrEqual(disabledAt);

    const failed = (await list()).filter((d) => d.status === "failed");
    expect(failed.length).toBeGreaterThan(0);
    const requeued = await client.requeueFailedWebhookDeliveries({
      params: { workspace_id: ws, webhook_id: webhookId },
      body: { since },
    });
    expect(requeued).toMatchObject({ webhook_id: webhookId, requeued: failed.length, since });
    await waitFor("every missed delivery", async () => (await list()).every((d) => d.status === "delivered"));
    const delivered = new Set(
      down.received.filter((r) => r.answeredWith === 200).map((r) => r.headers["x-webhook-event-id"]),
    );
    for (const d of await list()) expect(delivered.has(d.event_id as string), `event ${d.event_id}`).toBe(true);
    // Nothing is left to requeue; a window that ends before it starts, or an unknown webhook, is refused.
    expect(
      (
        await client.requeueFailedWebhookDeliveries({
          params: { workspace_id: ws, webhook_id: webhookId },
          body: { since },
        })
      ).requeued,
    ).toBe(0);
    await expect(
      client.requeueFailedWebhookDeliveries({
        params: { workspace_id: ws, webhook_id: webhookId },
        body: { since, until: "2000-01-01T00:00:00Z" },
      }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      client.enableWebhook({ params: { workspace_id: ws, webhook_id: "0f6c9a2e-3b1d-4c5e-8f7a-9b0c1d2e3f40" } }),
    ).rejects.toMatchObject({ status: 404 });
  });
});

describe("at least once across a restart", () => {
  it("keeps an open breaker across the restart and then delivers every event to every endpoint", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "custody-webhook-restart-"));
    dirs.push(dataDir);
    const options: SandboxOptions = {
      env: {},
      dataDir,
      blockTimeSeconds: 0.5,
      walletCreationDelayMs: 10,
      webhookRetry: { initialDelayMs: 50, maxDelayMs: 100, maxAttempts: 20 },
      webhookDelivery: { breaker: { openAfterFailures: 2, probeDelaysMs: [1_500] } },
    };
    const down = await receiver(503);
    const healthy = await receiver(200);
    const hanging = await startHangingReceiver();
    opened.push(hanging);
    const first = await startSandbox(options);
    let second: Sandbox | undefined;
    try {
      const c1 = new CustodialWalletServiceClient({
        baseUrl: first.base_url,
        apiKey: first.api_key,
        apiSecret: first.api_secret,
      });
      const ws = first.workspace_id;
      const ids = {
        down: await hook(c1, ws, down.url),
        healthy: await hook(c1, ws, healthy.url),
        hanging: await hook(c1, ws, hanging.url),
      };
      for (let i = 0; i < 4; i++) await c1.createWallet({ body: { name: `before ${i}` } });
      const open = await waitFor("the failing endpoint open-circuited", async () => {
        const w = await webhookOf(c1, ws, ids.down);
        return w.delivery_state === "backing_off" && w;
      });
      await waitFor("the healthy endpoint's four events", () => healthy.received.length >= 4);
      await waitFor("an attempt on the wire at the hanging endpoint", () =>
        hanging.requests.some((r) => r.closedAt === undefined),
      );
      // The restart: attempts on the wire are cut short and not recorded.
      await first.close();

      down.status = 200;
      second = await startSandbox(options);
      const c2 = new CustodialWalletServiceClient({
        baseUrl: second.base_url,
        apiKey: second.api_key,
        apiSecret: second.api_secret,
      });
      const reopened = await webhookOf(c2, ws, ids.down);
      expect(reopened).toMatchObject({
        delivery_state: "backing_off",
        backoff_until: open.backoff_until,
        failing_since: open.failing_since,
      });
      for (let i = 0; i < 2; i++) await c2.createWallet({ body: { name: `after ${i}` } });

      const byWebhook = async (id: string) =>
        c2.listWebhookDeliveries({ params: { workspace_id: ws }, query: { webhook_id: id } });
      await waitFor("every delivery to the recovered and the healthy endpoint", async () =>
        [...(await byWebhook(ids.down)), ...(await byWebhook(ids.healthy))].every((d) => d.status === "delivered"),
      );
      const got = (r: Receiver) =>
        new Set(r.received.filter((x) => x.answeredWith === 200).map((x) => x.headers["x-webhook-event-id"]));
      for (const [id, r] of [
        [ids.down, down],
        [ids.healthy, healthy],
      ] as const) {
        const logged = await byWebhook(id);
        expect(logged).toHaveLength(6);
        for (const d of logged) expect(got(r).has(d.event_id as string), `event ${d.event_id} at ${id}`).toBe(true);
      }
      // The probe went out at backoff_until or later, though the receiver was back at once.
      const firstOk = Math.min(
        ...attemptsOf(second, ids.down)
          .filter((a) => a.response_status === 200)
          .map((a) => Date.parse(a.at)),
      );
      expect(firstOk).toBeGreaterThanOrEqual(Date.parse(open.backoff_until as string));
      // The hanging endpoint's attempt cut short by the restart is made again: its deliveries are still pending, none lost.
      const hangingLog = await byWebhook(ids.hanging);
      expect(hangingLog).toHaveLength(6);
      expect(hangingLog.every((d) => d.status === "pending")).toBe(true);
    } finally {
      await second?.close();
      await first.close();
    }
  });
});
