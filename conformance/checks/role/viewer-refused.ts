// The viewer role is refused withdrawals and settings with 403 (seed 1, 5).

import { EVENT_TYPES } from "../../provision/util.ts";
import type { CheckContext } from "../../run/context.ts";
import { findOperation } from "../../run/operations.ts";
import { placeholderId } from "../../transport/api.ts";
import type { Check } from "../check.ts";
import { expectRefusal } from "../expect.ts";
import { skip } from "../outcome.ts";

async function expectForbidden(
  ctx: CheckContext,
  operationId: string,
  args: Parameters<CheckContext["call"]>[1],
  what = operationId,
): Promise<boolean> {
  if (!findOperation(ctx.operations, operationId)) return false;
  const sent = await ctx.sendJudged(operationId, args ?? {}, await ctx.need("viewer-key"), what);
  if (!sent) return false;
  expectRefusal(ctx.level, sent.ex, `${what} with a viewer key`);
  return true;
}

export const viewerCannotWithdraw: Check = {
  id: "role.viewer-cannot-withdraw",
  statements: [
    "s1.workspace-roles",
    "s1.withdrawals-policy-approvals",
    "s5.rule3-viewer-no-writes",
    "s5.rule3-higher-roles",
  ],
  group: "role",
  title: "A viewer cannot create or approve a withdrawal (403)",
  severity: "MUST",
  seedRef: "§5 rule 3",
  level: "full",
  requires: ["viewer-key", "wallet"],
  sends: "with the viewer key: createWithdrawal and approveWithdrawal with ids nobody has",
  async run(ctx) {
    const wallet = await ctx.need("wallet");
    const created = await expectForbidden(ctx, "createWithdrawal", {
      params: { wallet_id: wallet.walletId },
      body: {
        asset_id: placeholderId("asset_id"),
        amount: "0.000001",
        recipient_address: "0x000000000000000000000000000000000000dEaD",
      },
      headers: { "Idempotency-Key": `certify-viewer-${Date.now()}` },
    });
    const approved = await expectForbidden(ctx, "approveWithdrawal", {
      params: { withdrawal_id: placeholderId("withdrawal_id") },
      body: {},
    });
    if (!created && !approved) skip("no withdrawal operation in the table");
  },
};

export const viewerCannotChangeSettings: Check = {
  id: "role.viewer-cannot-change-settings",
  statements: ["s1.workspace-roles", "s5.rule3-viewer-no-writes", "s5.rule3-higher-roles"],
  group: "role",
  title:
    "A viewer cannot change settings: deleting a webhook is refused (at full level also creating webhooks, wallets and keys, and requeueing, 403)",
  severity: "MUST",
  seedRef: "§5 rule 3",
  level: "seed",
  requires: ["viewer-key", "workspace"],
  // A viewer that may delete --webhook-id deletes it: the requeue check goes first, so that only the
  // checks about deletion see it gone.
  afterAtSeed: ["webhooks.resend-same-event", "webhooks.delivery-signature", "webhooks.tampered-body-rejected"],
  sends:
    "with the viewer key: deleteWebhook and resendWebhookDelivery with ids nobody has (at full level also createWebhook, createWallet, createApiKey)",
  async run(ctx) {
    const workspaceId = await ctx.need("workspace");
    // At seed level any error refuses, and an id nobody has gets one anyway: the viewer tries the real
    // --webhook-id (deleted by webhooks.delete-stops-delivery after this check). At full level the
    // refusal must be 403, which a placeholder id shows without risking a real record.
    const given = ctx.level === "seed" ? ctx.config.fixtureIds.webhookId : undefined;
    const webhookId = given ?? placeholderId("webhook_id");
    await expectForbidden(
      ctx,
      "deleteWebhook",
      { params: { workspace_id: workspaceId, webhook_id: webhookId } },
      given ? `deleteWebhook of --webhook-id ${given}` : "deleteWebhook",
    );
    if (ctx.level !== "full") return;
    // Requeueing a delivery neither moves funds nor changes a setting: the spec's role matrix, not the seed's.
    await expectForbidden(ctx, "resendWebhookDelivery", {
      params: { workspace_id: workspaceId, delivery_id: placeholderId("delivery_id") },
    });
    await expectForbidden(ctx, "createWebhook", {
      params: { workspace_id: workspaceId },
      body: { url: "https://example.invalid/hook", event_types: [EVENT_TYPES[0]] },
    });
    await expectForbidden(ctx, "createWallet", { body: { name: "certify-viewer-must-not-create" } });
    await expectForbidden(ctx, "createApiKey", {
      params: { workspace_id: workspaceId },
      body: { name: "certify-viewer", role: "owner", scopes: ["*"] },
    });
  },
};
