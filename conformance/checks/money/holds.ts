// What a withdrawal holds: an overdraft is refused, a rejection releases the hold.
import { randomUUID } from "node:crypto";
import type { Check } from "../check.ts";
import { expectError, expectSuccess, failWith } from "../expect.ts";
import { decimalToUnits, unitsToDecimal } from "../units.ts";
import {
  AMOUNT,
  COMMON,
  cleanupReject,
  funded,
  holding,
  release,
  submit,
  withdrawalId,
  withdrawalIds,
} from "./funded-withdrawals.ts";

export const overdraftRefused: Check = {
  ...COMMON,
  id: "money.overdraft-refused",
  after: ["money.concurrent-submits"],
  title: "A withdrawal above the available balance is refused (4xx) and nothing is held",
  seedRef: "§1 (withdrawals follow policy); assumed: 409 on insufficient balance",
  sends: "createWithdrawal above the available balance; getWalletAssetBalance before and after",
  async run(ctx) {
    const f = await funded(ctx);
    const before = await holding(ctx, f, "before the overdraft");
    const ids = await withdrawalIds(ctx, f);
    const tooMuch = unitsToDecimal(before.available + 10n ** BigInt(f.asset.decimals), f.asset.decimals);
    const ex = await submit(ctx, f, `certify-${randomUUID()}`, tooMuch);
    if (ex.response.status < 400 || ex.response.status >= 500) {
      const made = [...(await withdrawalIds(ctx, f))].filter((id) => !ids.has(id));
      for (const id of made) cleanupReject(ctx, id);
      failWith(
        ex,
        `a withdrawal of ${tooMuch} (available ${unitsToDecimal(before.available, f.asset.decimals)}) answered HTTP ${ex.response.status}`,
      );
    }
    expectError(ex, [400, 409], undefined, "an overdraft");
    const after = await holding(ctx, f, "after the refused overdraft");
    if (after.onHold !== before.onHold || after.available !== before.available) {
      failWith(
        after.ex,
        `after the refused overdraft on_hold went ${unitsToDecimal(before.onHold, f.asset.decimals)} → ${unitsToDecimal(after.onHold, f.asset.decimals)}, available ${unitsToDecimal(before.available, f.asset.decimals)} → ${unitsToDecimal(after.available, f.asset.decimals)}`,
      );
    }
  },
};

export const rejectReleases: Check = {
  ...COMMON,
  id: "money.reject-releases-hold",
  after: ["money.overdraft-refused"],
  title: "A pending withdrawal holds its amount; rejecting it gives the hold back",
  seedRef: "§1 (withdrawals follow policy and approvals); assumed: on_hold and available_balance",
  sends: "createWithdrawal, getWalletAssetBalance, rejectWithdrawal, getWalletAssetBalance",
  async run(ctx) {
    const f = await funded(ctx);
    const before = await holding(ctx, f, "before the withdrawal");
    const id = withdrawalId(ctx, await submit(ctx, f, `certify-${randomUUID()}`));
    cleanupReject(ctx, id);
    const held = await holding(ctx, f, "with the withdrawal pending");
    const amount = decimalToUnits(AMOUNT, f.asset.decimals)!;
    if (before.available - held.available < amount)
      failWith(
        held.ex,
        `a pending withdrawal of ${AMOUNT} left available_balance at ${unitsToDecimal(held.available, f.asset.decimals)} (was ${unitsToDecimal(before.available, f.asset.decimals)})`,
      );
    const rejected = await release(ctx, id);
    expectSuccess(rejected, ctx.operation("rejectWithdrawal"), "rejectWithdrawal");
    const after = await holding(ctx, f, "after the reject");
    if (after.available !== before.available || after.onHold !== before.onHold) {
      failWith(
        after.ex,
        `after reject, available is ${unitsToDecimal(after.available, f.asset.decimals)} and on_hold ${unitsToDecimal(after.onHold, f.asset.decimals)}; before the withdrawal they were ${unitsToDecimal(before.available, f.asset.decimals)} and ${unitsToDecimal(before.onHold, f.asset.decimals)}`,
      );
    }
  },
};
