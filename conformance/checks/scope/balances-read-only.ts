// A key limited to balances:read (seed 5 rule 2) reads balances and nothing else.
import { expectRefusal, expectSuccess } from "../expect.ts";
import { findOperation } from "../../run/operations.ts";
import { skip } from "../outcome.ts";
import type { Check } from "../check.ts";

/** A key with only balances:read reads balances and is refused everything else with 403. */
export const balancesReadOnly: Check = {
  id: "scope.balances-read-only",
  statements: ["s1.balances-per-wallet-and-asset", "s5.rule2-scopes", "s4.tag-assignment"],
  group: "scope",
  title: "A key limited to balances:read reads balances and is refused the wallets group (operation 5; at full level also withdrawals and wallets, 403)",
  severity: "MUST",
  seedRef: "§5 rule 2 (balances:read and wallets:read are named apart); §4 (operation 5 is in the wallets group)",
  level: "seed",
  requires: ["scoped-key", "wallet"],
  sends: "with the balances:read key: getWalletOverview, then listWalletWithdrawals and getWalletCreationStatus (at full level also getWallet, listWallets)",
  async run(ctx) {
    const creds = await ctx.need("scoped-key");
    const wallet = await ctx.need("wallet");
    const overview = await ctx.call("getWalletOverview", { params: { wallet_id: wallet.walletId }, credentials: creds });
    expectSuccess(overview, ctx.level === "full" ? ctx.operation("getWalletOverview") : undefined, "getWalletOverview with a balances:read key");
    // The seed names wallets:read beside balances:read, and operation 5 is in the wallets group: a
    // balances:read key is limited there. Which scope covers withdrawals is not shown (§5 rule 5), so
    // operation 4 is refused only at full level, by the spec's scope matrix.
    const refused: Array<[string, Record<string, string>]> = [["getWalletCreationStatus", { wallet_id: wallet.walletId }]];
    if (ctx.level === "full") refused.push(["listWalletWithdrawals", { wallet_id: wallet.walletId }], ["getWallet", { wallet_id: wallet.walletId }], ["listWallets", {}]);
    let tried = 0;
    for (const [operationId, params] of refused) {
      if (!findOperation(ctx.operations, operationId)) continue;
      tried++;
      const ex = await ctx.call(operationId, { params, credentials: creds });
      expectRefusal(ctx.level, ex, `${operationId} with a balances:read key`);
    }
    if (tried === 0) skip("no operation outside balances:read to try");
  },
};
