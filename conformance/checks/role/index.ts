// The Viewer role (seed 5 rule 3): sees balances, transactions and audit logs; cannot move funds
// or change settings. Refusals use placeholder ids, so a deployment that wrongly lets the call
// through still changes nothing real.
import { placeholderId } from "../../api.ts";
import type { CheckContext } from "../../context.ts";
import { expectRefusal, expectSuccess } from "../../expect.ts";
import { findOperation } from "../../operations.ts";
import { skip } from "../../outcome.ts";
import { EVENT_TYPES } from "../../fixtures/util.ts";
import type { Check } from "../../check.ts";

async function expectForbidden(ctx: CheckContext, operationId: string, args: Parameters<CheckContext["call"]>[1]): Promise<boolean> {
  if (!findOperation(ctx.operations, operationId)) return false;
  const ex = await ctx.call(operationId, { ...args, credentials: await ctx.need("viewer-key") });
  expectRefusal(ctx.level, ex, `${operationId} with a viewer key`);
  return true;
}

export const viewerCanRead: Check = {
  id: "role.viewer-can-read",
  statements: ["s1.workspace-roles", "s1.balances-per-wallet-and-asset", "s5.rule3-viewer-reads"],
  group: "role",
  title: "A viewer sees balances (and, at full level, transactions and audit logs)",
  severity: "MUST",
  seedRef: "§5 rule 3",
  level: "seed",
  requires: ["viewer-key", "wallet"],
  async run(ctx) {
    const creds = await ctx.need("viewer-key");
    const wallet = await ctx.need("wallet");
    expectSuccess(
      await ctx.call("getWalletOverview", { params: { wallet_id: wallet.walletId }, credentials: creds }),
      ctx.level === "full" ? ctx.operation("getWalletOverview") : undefined,
      "getWalletOverview with a viewer key",
    );
    if (ctx.level !== "full") return;
    const workspaceId = await ctx.need("workspace");
    for (const operationId of ["listTransactions", "listAuditLogs"]) {
      if (!findOperation(ctx.operations, operationId)) continue;
      const ex = await ctx.call(operationId, { params: { workspace_id: workspaceId }, credentials: creds });
      expectSuccess(ex, ctx.operation(operationId), `${operationId} with a viewer key`);
    }
  },
};

export const viewerCannotWithdraw: Check = {
  id: "role.viewer-cannot-withdraw",
  statements: ["s1.workspace-roles", "s1.withdrawals-policy-approvals", "s5.rule3-viewer-no-writes", "s5.rule3-higher-roles"],
  group: "role",
  title: "A viewer cannot create or approve a withdrawal (403)",
  severity: "MUST",
  seedRef: "§5 rule 3",
  level: "full",
  requires: ["viewer-key", "wallet"],
  async run(ctx) {
    const wallet = await ctx.need("wallet");
    const created = await expectForbidden(ctx, "createWithdrawal", {
      params: { wallet_id: wallet.walletId },
      body: { asset_id: placeholderId("asset_id"), amount: "0.000001", recipient_address: "0x000000000000000000000000000000000000dEaD" },
      headers: { "Idempotency-Key": `certify-viewer-${Date.now()}` },
    });
    const approved = await expectForbidden(ctx, "approveWithdrawal", { params: { withdrawal_id: placeholderId("withdrawal_id") }, body: {} });
    if (!created && !approved) skip("no withdrawal operation in the table");
  },
};

export const viewerCannotChangeSettings: Check = {
  id: "role.viewer-cannot-change-settings",
  statements: ["s1.workspace-roles", "s5.rule3-viewer-no-writes", "s5.rule3-higher-roles"],
  group: "role",
  title: "A viewer cannot change settings: webhooks (and, at full level, wallets and keys) answer 403",
  severity: "MUST",
  seedRef: "§5 rule 3",
  level: "seed",
  requires: ["viewer-key", "workspace"],
  async run(ctx) {
    const workspaceId = await ctx.need("workspace");
    await expectForbidden(ctx, "deleteWebhook", { params: { workspace_id: workspaceId, webhook_id: placeholderId("webhook_id") } });
    await expectForbidden(ctx, "resendWebhookDelivery", { params: { workspace_id: workspaceId, delivery_id: placeholderId("delivery_id") } });
    if (ctx.level !== "full") return;
    await expectForbidden(ctx, "createWebhook", {
      params: { workspace_id: workspaceId },
      body: { url: "https://example.invalid/hook", event_types: [EVENT_TYPES[0]] },
    });
    await expectForbidden(ctx, "createWallet", { body: { name: "certify-viewer-must-not-create" } });
    await expectForbidden(ctx, "createApiKey", { params: { workspace_id: workspaceId }, body: { name: "certify-viewer", role: "owner", scopes: ["*"] } });
  },
};

export const roleChecks: Check[] = [viewerCanRead, viewerCannotWithdraw, viewerCannotChangeSettings];
