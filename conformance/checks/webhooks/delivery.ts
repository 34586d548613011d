// Delivery semantics (full level): the runner's receiver fails the first attempts of an event (a 500,
// then a connection closed without an answer, both at once) and the deployment must retry the same
// event, same id and same bytes, and log the attempts; every event the receiver got validates against its schema in the spec; a resend
// carries the same event again.
import { randomUUID } from "node:crypto";
import { webhookEventSchemas } from "../../../generated/webhooks.ts";
import { firstString, successRecord } from "../../provision/util.ts";
import type { CheckContext } from "../../run/context.ts";
import { eventIdOf, eventTypeOf, type ReceivedDelivery, type WebhookReceiver } from "../../transport/receiver.ts";
import type { Check } from "../check.ts";
import { failWith } from "../expect.ts";
import { findInList } from "../list-reader.ts";
import { fail, skip } from "../outcome.ts";

function attemptsEvidence(attempts: ReceivedDelivery[]) {
  return {
    details: {
      attempts: attempts.map((a) => ({
        attempt: a.attempt,
        answered: a.failedWith ?? 200,
        event_id: eventIdOf(a),
        body: a.body.slice(0, 1024),
      })),
    },
  };
}

const done = (status: unknown) => status === "delivered" || status === "failed";

/** The delivery log's entry for an event of one webhook (undefined when the log has none yet), read page by page. */
async function logEntry(ctx: CheckContext, workspaceId: string, webhookId: string, eventId: string | undefined) {
  if (eventId === undefined) return { log: undefined, entry: undefined };
  try {
    const { item, ex } = await findInList(
      ctx,
      "listWebhookDeliveries",
      { params: { workspace_id: workspaceId }, query: { webhook_id: webhookId } },
      (i) => i.event_id === eventId,
    );
    return { log: ex, entry: item };
  } catch {
    return { log: undefined, entry: undefined };
  }
}

/**
 * Waits for the third attempt of our event. Stops early when a retry carries another event id, or
 * when the deployment's log calls the delivery finished although the receiver never answered 2xx.
 */
async function awaitThirdAttempt(
  ctx: CheckContext,
  receiver: WebhookReceiver,
  ours: (d: ReceivedDelivery) => boolean,
  workspaceId: string,
  webhookId: string,
): Promise<ReceivedDelivery[]> {
  const limit = ctx.timeoutMs * 24;
  const deadline = Date.now() + limit;
  let finishedSince: number | undefined;
  for (let round = 0; Date.now() < deadline && !ctx.signal.aborted; round++) {
    const attempts = receiver.deliveries.filter(ours);
    const ids = new Set(attempts.map((a) => eventIdOf(a)));
    if (ids.size > 1)
      fail(
        "a retry carries another event id than the first attempt (a retry must be the same event)",
        attemptsEvidence(attempts),
      );
    if (attempts.some((a) => (a.attempt ?? 0) >= 3)) return attempts;
    if (attempts.length > 0 && round % 4 === 3) {
      const { entry } = await logEntry(ctx, workspaceId, webhookId, eventIdOf(attempts[0]));
      if (entry && done(entry.status)) finishedSince ??= Date.now();
      // A short grace for an attempt in flight; then the log says it will not come.
      if (finishedSince !== undefined && Date.now() - finishedSince > 3_000) {
        fail(
          `the delivery log says ${String(entry?.status)} after ${attempts.length} attempt(s) the receiver refused (${describeAttempts(attempts)}): it was not retried`,
          attemptsEvidence(attempts),
        );
      }
    }
    // Woken by the next attempt at once; the log is read every few rounds.
    await receiver.waitFor((d) => ours(d) && !attempts.includes(d), Math.min(500, deadline - Date.now()), ctx.signal);
  }
  const attempts = receiver.deliveries.filter(ours);
  if (attempts.length === 0)
    fail("no wallet.created reached the retry webhook, though the check created a wallet", attemptsEvidence(attempts));
  fail(
    `after ${describeAttempts(attempts)} the event was not delivered again within ${limit} ms`,
    attemptsEvidence(attempts),
  );
}

function describeAttempts(attempts: ReceivedDelivery[]): string {
  const said = { error: "a 500", hang: "a time-out", drop: "a connection closed without an answer" } as const;
  return attempts.map((a) => (a.failedWith ? said[a.failedWith] : "a 200")).join(", ");
}

export const retrySameEvent: Check = {
  id: "webhooks.retry-same-event",
  group: "webhooks",
  title:
    "A delivery answered 500, then cut off without an answer, is retried with the same event id and body, and logged",
  severity: "MUST",
  seedRef: "§6 (deliveries are logged); assumed: x-custody-webhook-delivery (failed attempts are retried)",
  level: "full",
  requires: ["receiver", "workspace"],
  // The spec's schedule retries after 30 s and 120 s; the sandbox is quicker.
  timeoutScale: 25,
  sends:
    "createWebhook for wallet.created, createWallet; the receiver answers 500, then nothing; listWebhookDeliveries",
  async run(ctx) {
    const receiver = await ctx.need("receiver");
    const workspaceId = await ctx.need("workspace");
    const channel = `retry${randomUUID().slice(0, 8)}`;
    // Both failures are answered at once (no time-out to sit out): this check is about retries.
    receiver.failFirst(channel, ["error", "drop"]);
    const hook = await ctx.call("createWebhook", {
      params: { workspace_id: workspaceId },
      body: {
        url: receiver.url(channel),
        event_types: ["wallet.created"],
        description: ctx.suite.marker.description("retry webhook"),
      },
    });
    const webhookId = firstString(successRecord(ctx.suite, "createWebhook", hook), "id", "webhook_id");
    if (!webhookId) failWith(hook, "createWebhook answered without an id");
    const remove = { params: { workspace_id: workspaceId, webhook_id: webhookId } };
    ctx.suite.removeAtEnd(`webhook ${webhookId} (${channel})`, "deleteWebhook", remove);
    try {
      await expectRetried(ctx, receiver, channel, workspaceId, webhookId);
    } finally {
      // Not left registered for the rest of the run: later events would be failed and retried too.
      await ctx.suite.call("deleteWebhook", remove, AbortSignal.timeout(ctx.timeoutMs)).catch(() => undefined);
    }
  },
};

async function expectRetried(
  ctx: CheckContext,
  receiver: WebhookReceiver,
  channel: string,
  workspaceId: string,
  webhookId: string,
): Promise<void> {
  const created = await ctx.call("createWallet", { body: { name: ctx.suite.marker.name("retry-wallet") } });
  const walletId = firstString(successRecord(ctx.suite, "createWallet", created), "id", "wallet_id");
  if (!walletId) failWith(created, "createWallet answered without an id");
  // The receiver fails the first event the channel gets (this wallet's, or one another check's wallet
  // caused first), and only that one; the check follows that event.
  const ours = (d: ReceivedDelivery) =>
    d.channel === channel &&
    receiver.plannedEvent(channel) !== undefined &&
    eventIdOf(d) === receiver.plannedEvent(channel);
  const attempts = await awaitThirdAttempt(ctx, receiver, ours, workspaceId, webhookId);
  const first = attempts[0];
  const sameEvent = attempts.every((a) => eventIdOf(a) === eventIdOf(first) && eventIdOf(a) !== undefined);
  if (!sameEvent)
    fail(
      "the retries carry another event id than the first attempt (a retry must be the same event)",
      attemptsEvidence(attempts),
    );
  if (!attempts.every((a) => a.body === first.body))
    fail(
      "the retries carry another body than the first attempt (the same signed event must be sent again)",
      attemptsEvidence(attempts),
    );
  // The log records an attempt once its answer is in, which may be just after the receiver saw it.
  let found = await logEntry(ctx, workspaceId, webhookId, eventIdOf(first));
  const counted = (e: Record<string, unknown> | undefined) =>
    e !== undefined && (typeof e.attempt_count !== "number" || e.attempt_count >= 3);
  const deadline = Date.now() + ctx.timeoutMs / 2;
  while (!counted(found.entry) && Date.now() < deadline && !ctx.signal.aborted) {
    await ctx.sleep(100);
    found = await logEntry(ctx, workspaceId, webhookId, eventIdOf(first));
  }
  const { log, entry } = found;
  if (!log) fail(`the delivery log of webhook ${webhookId} could not be read`);
  if (!entry) failWith(log, `the delivery log of webhook ${webhookId} has no entry for event ${eventIdOf(first)}`);
  if (typeof entry.attempt_count === "number" && entry.attempt_count < 3)
    failWith(log, `the delivery log counts ${entry.attempt_count} attempts; the receiver saw 3`);
  ctx.fact("retries", `${attempts.length} attempts of event ${eventIdOf(first)}`);
}

export const eventsMatchSchema: Check = {
  id: "webhooks.events-match-schema",
  group: "webhooks",
  title: "Every event the receiver got validates against the spec's schema for its event type",
  severity: "MUST",
  seedRef: "§6; assumed: one event schema per event type",
  level: "full",
  requires: ["receiver"],
  awaits: ["event", "deposit", "withdrawal-executed"],
  after: ["webhooks.retry-same-event", "webhooks.resend-same-event"],
  sends: "nothing new: validates every event the receiver got during the run",
  async run(ctx) {
    const receiver = await ctx.need("receiver");
    const events = receiver.deliveries.filter((d) => d.event !== undefined);
    if (events.length === 0) skip("no event reached the receiver");
    const schemas = webhookEventSchemas as Record<
      string,
      {
        safeParse(v: unknown): {
          success: boolean;
          error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
        };
      }
    >;
    const problems: string[] = [];
    const types = new Set<string>();
    for (const d of events) {
      const type = eventTypeOf(d) ?? "(none)";
      types.add(type);
      const schema = schemas[type];
      if (!schema) {
        problems.push(`event type ${type} is not one of the spec's`);
        continue;
      }
      const result = schema.safeParse(d.event);
      if (!result.success) {
        const issue = result.error?.issues[0];
        problems.push(
          `${type} ${eventIdOf(d) ?? ""}: ${issue?.path.map(String).join(".") || "(root)"}: ${issue?.message}`,
        );
      }
    }
    ctx.fact("events", `${events.length} deliveries, types ${[...types].sort().join(", ")}`);
    if (problems.length > 0)
      fail(
        `${problems.length} of ${events.length} delivered events break their schema: ${problems.slice(0, 5).join("; ")}`,
        attemptsEvidence(events.slice(0, 3)),
      );
  },
};

export const deliveryChecks: Check[] = [retrySameEvent, eventsMatchSchema];
