// Creating an API key with scopes (seed 5).

import type { Check } from "../check.ts";
import { failWith } from "../expect.ts";
import { skip } from "../outcome.ts";

/** The owner key creates an API key whose secret is shown once (full level; feeds the restricted-key checks). */
export const apiKeyCreation: Check = {
  id: "scope.api-key-creation",
  statements: ["s1.other-groups"],
  awaits: ["scoped-key", "wallet"],
  group: "scope",
  title: "createApiKey makes a restricted key that authenticates",
  severity: "MUST",
  seedRef: "assumed: createApiKey",
  level: "full",
  sends: "createApiKey (balances:read), then getWalletOverview with the new key; revoked at the end",
  async run(ctx) {
    if (ctx.config.scoped) skip("the scoped key was given by flags; nothing was created");
    const result = await ctx.settle("scoped-key");
    if (!result.ok) {
      if (result.failure) throw result.failure;
      skip(result.reason);
    }
    const wallet = await ctx.need("wallet");
    const ex = await ctx.call("getWalletOverview", {
      params: { wallet_id: wallet.walletId },
      credentials: result.value,
    });
    if (ex.response.status === 401) failWith(ex, "the key createApiKey returned does not authenticate");
  },
};
