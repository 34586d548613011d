// Registering a webhook (seed 6).

import { firstString } from "../../provision/util.ts";
import type { Check } from "../check.ts";
import { failWith } from "../expect.ts";
import { findInList } from "../list-reader.ts";
import { skip } from "../outcome.ts";

export const registration: Check = {
  id: "webhooks.registration",
  skipsWithout: ["webhook"],
  statements: ["s1.webhooks-registered", "s6.webhook-delivery"],
  awaits: ["webhook"],
  group: "webhooks",
  title: "createWebhook registers a webhook that listWebhooks then shows",
  severity: "MUST",
  seedRef: "§1 (workspaces register webhooks); assumed: createWebhook, listWebhooks",
  level: "full",
  requires: ["receiver"],
  sends: "createWebhook to the runner's receiver, then listWebhooks",
  async run(ctx) {
    const result = await ctx.settle("webhook");
    if (!result.ok) {
      if (result.failure) throw result.failure;
      skip(result.reason);
    }
    const workspaceId = await ctx.need("workspace");
    const { item, ex } = await findInList(
      ctx,
      "listWebhooks",
      { params: { workspace_id: workspaceId } },
      (w) => firstString(w, "id", "webhook_id") === result.value.id,
    );
    if (!item) failWith(ex, `webhook ${result.value.id} is not in listWebhooks`);
  },
};
