import { fail } from "../checks/outcome.ts";
import type { Suite } from "../run/context.ts";
import { missing } from "../run/supply.ts";
import type { WebhookFixture } from "./registry.ts";
import { EVENT_TYPES, firstString, successRecord } from "./util.ts";

/** The primary webhook: --webhook-id at seed level, or one registered to our receiver for every event type. */
export async function provideWebhook(suite: Suite): Promise<WebhookFixture> {
  if (suite.config.fixtureIds.webhookId && suite.supply === "given") return { id: suite.config.fixtureIds.webhookId };
  if (suite.supply === "given") missing("webhook", suite.supply);
  return registerWebhook(suite, "primary");
}

/** Registers a webhook that delivers to one receiver channel; deleted again when the run ends. */
export async function registerWebhook(suite: Suite, channel: string, signal?: AbortSignal): Promise<WebhookFixture> {
  const workspaceId = await suite.fixtures.need("workspace");
  const receiver = await suite.fixtures.need("receiver");
  const url = receiver.url(channel);
  const ex = await suite.call(
    "createWebhook",
    {
      params: { workspace_id: workspaceId },
      body: { url, event_types: [...EVENT_TYPES], description: suite.marker.description(`${channel} webhook`) },
    },
    signal,
  );
  const id = firstString(successRecord(suite, "createWebhook", ex), "id", "webhook_id");
  if (!id) fail("createWebhook answered without an id", ex.evidence);
  suite.removeAtEnd(`webhook ${id} (${channel})`, "deleteWebhook", {
    params: { workspace_id: workspaceId, webhook_id: id },
  });
  return { id, channel, url };
}
