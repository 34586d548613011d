// Idempotency-Key: a replay, a conflicting body, racing submits.
import { randomUUID } from "node:crypto";
import type { Check } from "../check.ts";
import { expectError, failWith } from "../expect.ts";
import { fail } from "../outcome.ts";
import { decimalToUnits, unitsToDecimal } from "../units.ts";
import {
  AMOUNT,
  COMMON,
  cleanupReject,
  funded,
  holding,
  identicalSubmits,
  release,
  submit,
  withdrawalId,
  withdrawalIds,
} from "./funded-withdrawals.ts";

export const sameKeySameBody: Check = {
  ...COMMON,
  id: "money.idempotent-replay",
  title: "createWithdrawal with the same Idempotency-Key and body answers the same withdrawal, and holds once",
  seedRef: "assumed: Idempotency-Key on createWithdrawal",
  sends: "createWithdrawal twice with one Idempotency-Key and body; getWalletAssetBalance; rejectWithdrawal",
  async run(ctx) {
    const f = await funded(ctx);
    const before = await holding(ctx, f, "before the withdrawal");
    const key = `certify-${randomUUID()}`;
    const first = withdrawalId(ctx, await submit(ctx, f, key));
    cleanupReject(ctx, first);
    const again = await submit(ctx, f, key);
    const second = withdrawalId(ctx, again);
    if (second !== first) failWith(again, `the replay answered withdrawal ${second}, the first call ${first}`);
    const held = await holding(ctx, f, "with the withdrawal and its replay pending");
    const amount = decimalToUnits(AMOUNT, f.asset.decimals)!;
    // One hold: the amount (plus whatever fee reserve) once, never twice.
    if (held.onHold - before.onHold >= 2n * amount)
      failWith(
        held.ex,
        `on_hold grew by ${unitsToDecimal(held.onHold - before.onHold, f.asset.decimals)} after one withdrawal of ${AMOUNT} and its replay`,
      );
    await release(ctx, first);
  },
};

export const sameKeyOtherBody: Check = {
  ...COMMON,
  id: "money.idempotency-conflict",
  after: ["money.idempotent-replay"],
  title: "The same Idempotency-Key with another body answers 409 and creates nothing",
  seedRef: "assumed: Idempotency-Key on createWithdrawal (409 on reuse with another request)",
  sends: "createWithdrawal with a used Idempotency-Key and another body; listWalletWithdrawals",
  async run(ctx) {
    const f = await funded(ctx);
    const key = `certify-${randomUUID()}`;
    const first = withdrawalId(ctx, await submit(ctx, f, key));
    cleanupReject(ctx, first);
    const before = await withdrawalIds(ctx, f);
    const other = await submit(ctx, f, key, "0.0002");
    expectError(other, 409, undefined, "createWithdrawal reusing an Idempotency-Key with another amount");
    const after = await withdrawalIds(ctx, f);
    const made = [...after].filter((id) => !before.has(id));
    if (made.length > 0) failWith(other, `the refused request still created withdrawal ${made.join(", ")}`);
    await release(ctx, first);
  },
};

export const concurrentSubmits: Check = {
  ...COMMON,
  id: "money.concurrent-submits",
  after: ["money.idempotency-conflict"],
  title: "Identical submits sent at the same time with one Idempotency-Key make one withdrawal",
  seedRef: "assumed: Idempotency-Key on createWithdrawal",
  sends: "5 identical createWithdrawal at once with one Idempotency-Key; listWalletWithdrawals; rejectWithdrawal",
  async run(ctx) {
    const f = await funded(ctx);
    const { answers, made } = await identicalSubmits(ctx, f);
    const ids = new Set<string>();
    for (const ex of answers) {
      if (ex.response.status >= 200 && ex.response.status < 300) ids.add(withdrawalId(ctx, ex));
      else if (ex.response.status !== 409)
        failWith(
          ex,
          `a concurrent identical submit answered HTTP ${ex.response.status} (expected the same withdrawal, or 409 while the first is in flight)`,
        );
    }
    for (const id of ids) cleanupReject(ctx, id);
    if (ids.size !== 1 || made.length !== 1)
      fail(
        `5 identical submits with one Idempotency-Key made ${made.length} withdrawals (answers named ${ids.size})`,
        answers[0].evidence,
      );
    await release(ctx, made[0]);
  },
};
