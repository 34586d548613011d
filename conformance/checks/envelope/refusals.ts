// Refusals of an unknown wallet and of an invalid body.

import { fillPath } from "../../transport/api.ts";
import type { Check } from "../check.ts";
import { expectError } from "../expect.ts";
import { unknownWalletId } from "./samples.ts";

export const notFoundOverview: Check = {
  id: "envelope.not-found-wallet",
  statements: ["s4.path-params-strings-required", "s4.op1-wallet-overview", "s4.op1-404", "s7.not-found"],
  group: "envelope",
  title: "The overview of an unknown wallet is 404 with the error envelope",
  severity: "MUST",
  seedRef: "§4 (operation 1: 404); §7",
  level: "seed",
  sends: "getWalletOverview of a wallet id nobody has, signed",
  async run(ctx) {
    const op = ctx.operation("getWalletOverview");
    const ex = await ctx.api.send({
      method: op.method,
      path: fillPath(op, { wallet_id: unknownWalletId() }),
      credentials: ctx.config.admin,
    });
    expectError(ex, 404, undefined, "the overview of an unknown wallet");
  },
};

export const invalidBody: Check = {
  id: "envelope.invalid-request",
  group: "envelope",
  title: "A malformed or invalid body is 400 with the error envelope",
  severity: "MUST",
  seedRef: "assumed: 400 with code 400",
  level: "full",
  sends: "createWallet with a body that is not JSON, then with a name that is a number",
  async run(ctx) {
    const op = ctx.operation("createWallet");
    for (const [body, what] of [
      ["{not json", "a body that is not JSON"],
      ['{"name":123}', "a name that is not a string"],
    ] as const) {
      const ex = await ctx.api.send({
        method: op.method,
        path: op.path,
        body,
        credentials: ctx.config.admin,
        headers: { "content-type": "application/json" },
      });
      expectError(ex, 400, 400, `createWallet with ${what}`);
    }
  },
};
