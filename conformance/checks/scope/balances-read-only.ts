// A key limited to balances:read (seed 5 rule 2) reads balances and nothing else.

import type { Credentials } from "../../run/config.ts";
import type { CheckContext } from "../../run/context.ts";
import { findOperation } from "../../run/operations.ts";
import { placeholderId } from "../../transport/api.ts";
import type { Check } from "../check.ts";
import { expectRefusal, expectSuccess } from "../expect.ts";
import { skip } from "../outcome.ts";
import { knownIds } from "../request-plans.ts";

/** A key with only balances:read reads balances and is refused everything else with 403. */
export const balancesReadOnly: Check = {
  id: "scope.balances-read-only",
  statements: ["s1.balances-per-wallet-and-asset", "s5.rule2-scopes", "s4.tag-assignment"],
  group: "scope",
  title:
    "A key limited to balances:read reads balances and is refused the wallets group (operation 5) and the webhooks writes (operations 6, 7; at full level also withdrawals and wallets, 403)",
  severity: "MUST",
  seedRef:
    "§5 rule 2 (balances:read and wallets:read are named apart); §4 (operation 5 is in the wallets group, 6 and 7 in webhooks)",
  level: "seed",
  requires: ["scoped-key", "wallet"],
  // At seed level the key tries to requeue --delivery-id and delete --webhook-id: after the requeue
  // checks, before the owner's delete (webhooks.delete-stops-delivery), so a wrong delete loses nothing.
  afterAtSeed: ["webhooks.resend-same-event", "webhooks.delivery-signature", "webhooks.tampered-body-rejected"],
  sends:
    "with the balances:read key: getWalletOverview, getWalletCreationStatus, resendWebhookDelivery of --delivery-id and deleteWebhook of --webhook-id (at full level ids nobody has, and also listWalletWithdrawals, getWithdrawal, getWallet, listWallets); each read first with the owner's key",
  async run(ctx) {
    const creds = await ctx.need("scoped-key");
    const wallet = await ctx.need("wallet");
    const overview = await ctx.call("getWalletOverview", {
      params: { wallet_id: wallet.walletId },
      credentials: creds,
    });
    expectSuccess(
      overview,
      ctx.level === "full" ? ctx.operation("getWalletOverview") : undefined,
      "getWalletOverview with a balances:read key",
    );
    // The seed names wallets:read beside balances:read, and operation 5 is in the wallets group: a
    // balances:read key is limited there. Which scope covers withdrawals is not shown (§5 rule 5), so
    // operations 3 and 4 are refused here only at full level (scope.balances-read-no-withdrawals: SHOULD).
    const refused: Array<[string, Record<string, string>]> = [
      ["getWalletCreationStatus", { wallet_id: wallet.walletId }],
    ];
    if (ctx.level === "full")
      refused.push(
        ...withdrawalReads(ctx, wallet.walletId),
        ["getWallet", { wallet_id: wallet.walletId }],
        // The workspace's own list (an unfilled path is refused by every deployment, so it would show nothing).
        ["listWallets", { workspace_id: await ctx.need("workspace") }],
      );
    refused.push(...(await webhookWrites(ctx)));
    const tried = await expectRefusedEach(ctx, refused, creds, "a balances:read key");
    if (tried === 0)
      skip(
        `no operation outside balances:read could be judged${ctx.skippedCells.length ? `: ${ctx.notJudged()}` : ""}`,
      );
  },
};

/**
 * The seed's writes (§4 operations 6 and 7, the webhooks group): at seed level on the real
 * --delivery-id and --webhook-id (an id nobody has is refused by every deployment, so the check could
 * not fail); at full level on ids nobody has, which the scope must refuse (403) before any lookup.
 */
async function webhookWrites(ctx: CheckContext): Promise<Array<[string, Record<string, string>]>> {
  const workspaceId = await ctx.need("workspace");
  const seed = ctx.level === "seed";
  const cells: Array<[string, Record<string, string>]> = [];
  for (const [operationId, param, given, flag] of [
    ["resendWebhookDelivery", "delivery_id", ctx.config.fixtureIds.deliveryId, "--delivery-id"],
    ["deleteWebhook", "webhook_id", ctx.config.fixtureIds.webhookId, "--webhook-id"],
  ] as const) {
    if (seed && !given)
      ctx.skipCell(
        operationId,
        `no ${flag}: an id nobody has is refused by every deployment, so the scope would show nothing`,
      );
    else
      cells.push([operationId, { workspace_id: workspaceId, [param]: seed && given ? given : placeholderId(param) }]);
  }
  return cells;
}

/** Operations 3 (of --withdrawal-id, when known) and 4 of the wallet. */
function withdrawalReads(ctx: CheckContext, walletId: string): Array<[string, Record<string, string>]> {
  const withdrawalId = knownIds(ctx).withdrawal_id;
  const reads: Array<[string, Record<string, string>]> = [["listWalletWithdrawals", { wallet_id: walletId }]];
  if (withdrawalId) reads.push(["getWithdrawal", { withdrawal_id: withdrawalId }]);
  return reads;
}

/** Each operation, sent with `creds` through the positive-control rule, must be refused; returns how many were judged. */
async function expectRefusedEach(
  ctx: CheckContext,
  cells: Array<[string, Record<string, string>]>,
  creds: Credentials,
  who: string,
): Promise<number> {
  let tried = 0;
  for (const [operationId, params] of cells) {
    if (!findOperation(ctx.operations, operationId)) continue;
    const sent = await ctx.sendJudged(operationId, { params }, creds);
    if (!sent) continue;
    tried++;
    expectRefusal(ctx.level, sent.ex, `${operationId} with ${who}`);
  }
  return tried;
}

/**
 * Withdrawals (operations 3 and 4) with a balances:read key: refused. The seed names no withdrawals
 * scope (§5 rule 5: the complete list of scopes is not shown), so at seed level this is a SHOULD; at
 * full level scope.balances-read-only holds it as a MUST.
 */
export const balancesReadNoWithdrawals: Check = {
  id: "scope.balances-read-no-withdrawals",
  statements: ["s5.rule2-scopes"],
  group: "scope",
  title: "A key limited to balances:read is refused the withdrawals group (operations 3 and 4)",
  severity: "SHOULD",
  seedRef:
    "§5 rule 2; §4 (operations 3 and 4 are in the withdrawals group); which scope covers them is not shown (§5 rule 5), so a SHOULD",
  level: "seed",
  requires: ["scoped-key", "wallet"],
  awaits: ["withdrawal"],
  sends:
    "with the balances:read key: listWalletWithdrawals of the wallet and getWithdrawal of --withdrawal-id, each first with the owner's key",
  async run(ctx) {
    const creds = await ctx.need("scoped-key");
    const wallet = await ctx.need("wallet");
    const tried = await expectRefusedEach(ctx, withdrawalReads(ctx, wallet.walletId), creds, "a balances:read key");
    if (tried === 0) skip(`no withdrawal read could be judged: ${ctx.notJudged()}`);
  },
};
