import { findInList } from "../checks/list-reader.ts";
import { fail, skip } from "../checks/outcome.ts";
import { pollUntil, type Suite } from "../run/context.ts";
import { missing, RECEIVER_UNREACHED } from "../run/supply.ts";
import type { HttpExchange } from "../transport/probe.ts";
import { carriesEventId, eventIdOf, eventTypeOf, type ReceivedDelivery } from "../transport/receiver.ts";
import type { DeliveryFixture, EventFixture } from "./registry.ts";
import { firstString, successRecord } from "./util.ts";

/**
 * A delivery id: --delivery-id at seed level; at full level the logged delivery (seed 2.7) of the
 * event our receiver got, found through listWebhookDeliveries.
 */
export async function provideDelivery(suite: Suite): Promise<DeliveryFixture> {
  if (suite.supply === "given") {
    if (!suite.config.fixtureIds.deliveryId) missing("delivery", suite.supply);
    return { deliveryId: suite.config.fixtureIds.deliveryId };
  }
  const workspaceId = await suite.fixtures.need("workspace");
  const webhook = await suite.fixtures.need("webhook");
  const event = await suite.fixtures.need("event");
  const eventId = eventIdOf(event);
  let last: HttpExchange | undefined; // its evidence is built only if the wait fails
  const limit = suite.options.timeoutMs;
  const found = await pollUntil(
    async () => {
      const { item, ex } = await findInList(
        suite,
        "listWebhookDeliveries",
        { params: { workspace_id: workspaceId }, query: { webhook_id: webhook.id } },
        (d) => d.event_id === eventId,
      );
      last = ex;
      return item ? firstString(item, "id", "delivery_id") : undefined;
    },
    limit,
    200,
    suite.signal,
  );
  if (!found)
    fail(`no logged delivery with event_id ${eventId} for webhook ${webhook.id} after ${limit} ms`, last?.evidence);
  return { deliveryId: found, eventId };
}

/**
 * A signed delivery our receiver got: at full level the wallet.created event of the wallet fixture;
 * at seed level whatever arrives after requeueing --delivery-id with operation 6.
 */
export async function provideEvent(suite: Suite): Promise<EventFixture> {
  const receiver = await suite.fixtures.need("receiver");
  const limit = 2 * suite.options.timeoutMs;
  if (suite.supply === "given") {
    const workspaceId = await suite.fixtures.need("workspace");
    const delivery = await suite.fixtures.need("delivery");
    const requeued = await requeueAndAwait(suite, workspaceId, delivery.deliveryId, limit);
    // certify cannot see where the webhook points nor whether the deployment reaches this runner: a skip.
    if (!requeued)
      skip(
        `no delivery reached ${receiver.url("…")} within ${limit} ms after requeueing ${delivery.deliveryId}: ${RECEIVER_UNREACHED.reason}`,
        RECEIVER_UNREACHED.needs,
      );
    const { got, named, lagMs: requeueLagMs } = requeued;
    return named ? { ...got, requeuedEventId: named, requeueLagMs } : { ...got, requeueLagMs };
  }
  const webhook = await suite.fixtures.need("webhook");
  const wallet = await suite.fixtures.need("wallet");
  const got = await receiver.waitFor(
    (d) => d.channel === webhook.channel && eventTypeOf(d) === "wallet.created" && d.body.includes(wallet.walletId),
    limit,
    suite.signal,
  );
  if (!got) fail(`no wallet.created delivery for wallet ${wallet.walletId} reached ${webhook.url} within ${limit} ms`);
  return got;
}

/**
 * Requeues `deliveryId` (operation 6) and waits up to `limit` ms for its arrival: the event operation 6
 * named, else the first delivery to come (other events may reach the receiver meanwhile). Undefined when
 * nothing arrived; `lagMs` is how long the arrival took, the deployment's delivery lag at that moment.
 */
export async function requeueAndAwait(
  suite: Suite,
  workspaceId: string,
  deliveryId: string,
  limit: number,
): Promise<{ got: ReceivedDelivery; named?: string; lagMs: number } | undefined> {
  const receiver = await suite.fixtures.need("receiver");
  const since = Date.now();
  const mark = receiver.mark();
  const ex = await suite.call("resendWebhookDelivery", {
    params: { workspace_id: workspaceId, delivery_id: deliveryId },
  });
  const named = firstString(successRecord(suite, "resendWebhookDelivery", ex), "event_id");
  const got =
    (named
      ? await receiver.waitFor((d) => d.seq >= mark && carriesEventId(d, named), limit, suite.signal)
      : undefined) ?? (await receiver.waitFor((d) => d.seq >= mark, named ? 0 : limit, suite.signal));
  return got && { got, named, lagMs: got.receivedAt - since };
}
