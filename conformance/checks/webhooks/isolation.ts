// Endpoint isolation (x-custody-webhook-delivery: isolation, latency): with endpoints of our own that
// hang and that refuse registered beside a healthy one, a new event still reaches the healthy one
// within the spec's latency target. A deployment that pushes every endpoint's attempts through one
// shared queue or pool makes the healthy endpoint wait behind the hanging attempts and fails.
//
// The event's own creation time is unknown (wallet creation is asynchronous), so the latency of a
// wallet.created event is measured against a baseline: the same path with no bad endpoint registered.
// The measured endpoint is registered last and two events follow each other, so that a dispatcher
// serving one shared queue in creation order, or a shared pool of up to 16 slots, fails.
// The bad endpoints are ours and are deleted before the check ends, whatever its outcome: leftover
// hanging receivers on a shared deployment are exactly what this check is about.
import { randomUUID } from "node:crypto";
import { webhookDelivery } from "../../../generated/webhooks.ts";
import { firstString, successRecord } from "../../provision/util.ts";
import type { CheckContext } from "../../run/context.ts";
import {
  eventTypeOf,
  type FailureStep,
  type ReceivedDelivery,
  type WebhookReceiver,
} from "../../transport/receiver.ts";
import type { Check } from "../check.ts";
import { failWith } from "../expect.ts";
import { fail } from "../outcome.ts";

/** Enough hanging endpoints that a shared pool of 16 slots fills up behind two events (issue 28 had 10). */
const HANGING = 10;
const REFUSING = 4;
const BUDGET_MS = webhookDelivery.latency["healthy-endpoint-seconds"] * 1_000;

interface Measured {
  walletId: string;
  /** Until the event arrived, or until the wait gave up (then `arrived` is false). */
  latencyMs: number;
  arrived: boolean;
}

export const endpointIsolation: Check = {
  id: "webhooks.endpoint-isolation",
  group: "webhooks",
  title: `A new event reaches a healthy endpoint within the spec's ${BUDGET_MS / 1000} s target while ${HANGING} endpoints that hang and ${REFUSING} that refuse are registered beside it`,
  severity: "MUST",
  seedRef: "assumed: x-custody-webhook-delivery (isolation, latency)",
  level: "full",
  requires: ["receiver", "workspace"],
  // After the checks that wait on deliveries, so that against a deployment that does not isolate
  // endpoints the failure is this check's, not theirs.
  after: ["webhooks.retry-same-event", "webhooks.resend-same-event", "webhooks.delete-stops-delivery"],
  // A baseline event, then two with the bad endpoints registered, each waiting up to the time-out.
  timeoutScale: 5,
  sends:
    "createWebhook 10 times to receivers that hang and 4 times to receivers that close the connection, one to a healthy receiver; createWallet for a baseline and two loaded events; deleteWebhook of every one it registered",
  async run(ctx) {
    const receiver = await ctx.need("receiver");
    const workspaceId = await ctx.need("workspace");
    const tag = `iso${randomUUID().slice(0, 8)}`;
    // The baseline's endpoint, and the one measured beside the bad ones, registered after them: a
    // dispatcher that serves deliveries in the order they were created puts it behind every hang.
    const alone = `${tag}ok0`;
    const healthy = `${tag}ok1`;
    const bad: Array<[string, FailureStep]> = [
      ...Array.from({ length: HANGING }, (_, i): [string, FailureStep] => [`${tag}h${i}`, "hang"]),
      ...Array.from({ length: REFUSING }, (_, i): [string, FailureStep] => [`${tag}r${i}`, "drop"]),
    ];
    const registered: string[] = [];
    try {
      registered.push(await register(ctx, workspaceId, receiver, alone));
      const baseline = await eventLatency(ctx, receiver, alone, "baseline");
      for (const [channel, step] of bad) {
        receiver.failAlways(channel, step);
        registered.push(await register(ctx, workspaceId, receiver, channel));
      }
      registered.push(await register(ctx, workspaceId, receiver, healthy));
      // Two events in a row: the second queues behind the first one's hanging attempts in a shared queue.
      const deadline = baseline.latencyMs + BUDGET_MS;
      const loaded = await Promise.all([
        eventLatency(ctx, receiver, healthy, "loaded-1", deadline),
        eventLatency(ctx, receiver, healthy, "loaded-2", deadline),
      ]);
      const hung = receiver.deliveries.filter((d) => d.channel.startsWith(`${tag}h`)).length;
      const refused = receiver.deliveries.filter((d) => d.channel.startsWith(`${tag}r`)).length;
      const worst = loaded.reduce((a, b) => (b.latencyMs > a.latencyMs ? b : a));
      const shown = (m: Measured) => `${m.latencyMs} ms${m.arrived ? "" : " (not arrived)"}`;
      ctx.fact(
        "isolation",
        `healthy endpoint: ${baseline.latencyMs} ms alone, ${loaded.map(shown).join(" and ")} beside ${HANGING} hanging and ${REFUSING} refusing endpoints (${hung} hanging and ${refused} refused attempts seen)`,
      );
      if (!worst.arrived || worst.latencyMs > deadline) {
        fail(
          `wallet.created ${worst.arrived ? "reached" : "had not reached"} the healthy endpoint ${worst.latencyMs} ms after wallet ${worst.walletId} was created, beside ${HANGING} hanging and ${REFUSING} refusing endpoints; alone it took ${baseline.latencyMs} ms, and the spec allows ${BUDGET_MS / 1000} s more (x-custody-webhook-delivery.latency): the endpoints are not isolated`,
          {
            details: {
              baseline_ms: baseline.latencyMs,
              loaded_ms: loaded.map((l) => l.latencyMs),
              hanging_attempts_seen: hung,
              refused_attempts_seen: refused,
            },
          },
        );
      }
    } finally {
      for (const [channel] of bad) receiver.forget(channel);
      await removeWebhooks(ctx, workspaceId, registered);
    }
  },
};

/** Registers a webhook for wallet.created on one channel of our receiver; returns its id. */
async function register(
  ctx: CheckContext,
  workspaceId: string,
  receiver: WebhookReceiver,
  channel: string,
): Promise<string> {
  const ex = await ctx.call("createWebhook", {
    params: { workspace_id: workspaceId },
    body: {
      url: receiver.url(channel),
      event_types: ["wallet.created"],
      description: ctx.suite.marker.description("endpoint isolation webhook"),
    },
  });
  const id = firstString(successRecord(ctx.suite, "createWebhook", ex), "id", "webhook_id");
  if (!id) failWith(ex, "createWebhook answered without an id");
  // A safety net for a run stopped mid-check; the check deletes its webhooks itself.
  ctx.suite.removeAtEnd(`endpoint isolation webhook ${id}`, "deleteWebhook", {
    params: { workspace_id: workspaceId, webhook_id: id },
  });
  return id;
}

/**
 * Creates a wallet and measures from the creation answer to its wallet.created at `channel`. With a
 * deadline, gives up there (the latency reported is then the time waited, which exceeds it).
 */
async function eventLatency(
  ctx: CheckContext,
  receiver: WebhookReceiver,
  channel: string,
  what: string,
  deadlineMs = ctx.timeoutMs * 2,
): Promise<Measured> {
  const ex = await ctx.call("createWallet", { body: { name: ctx.suite.marker.name(`isolation-${what}`) } });
  const walletId = firstString(successRecord(ctx.suite, "createWallet", ex), "wallet_id", "id");
  if (!walletId) failWith(ex, "createWallet answered without a wallet_id");
  const createdAt = Date.now();
  const ours = (d: ReceivedDelivery) =>
    d.channel === channel && eventTypeOf(d) === "wallet.created" && d.body.includes(walletId);
  const arrived = await receiver.waitFor(ours, deadlineMs + 1, ctx.signal);
  if (!arrived && what === "baseline")
    fail(`wallet.created for wallet ${walletId} never reached the endpoint, even with no other endpoint registered`);
  return { walletId, latencyMs: (arrived?.receivedAt ?? Date.now()) - createdAt, arrived: arrived !== undefined };
}

/** Deletes the check's webhooks with the run's signal, so a check that ran out of time still cleans up. */
async function removeWebhooks(ctx: CheckContext, workspaceId: string, ids: string[]): Promise<void> {
  await Promise.all(
    ids.map((id) =>
      ctx.suite.call("deleteWebhook", { params: { workspace_id: workspaceId, webhook_id: id } }).catch(() => undefined),
    ),
  );
}
