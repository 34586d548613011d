// Identical submits move the funds once on chain.
import { randomBytes } from "node:crypto";
import type { CheckContext } from "../../run/context.ts";
import { CHAIN_POLL_MS, pollUntil } from "../../run/context.ts";
import type { Check } from "../check.ts";
import { expectSuccess, failWith } from "../expect.ts";
import { fail } from "../outcome.ts";
import { decimalToUnits, unitsToDecimal } from "../units.ts";
import { AMOUNT, COMMON, funded, identicalSubmits } from "./funded-withdrawals.ts";

const TERMINAL = new Set(["completed", "failed", "rejected"]);

async function chainBalance(ctx: CheckContext, address: string): Promise<bigint | undefined> {
  const v = await ctx.suite.rpc().resultHttp("eth_getBalance", [address, "latest"]);
  return typeof v === "string" && /^0x[0-9a-f]+$/i.test(v) ? BigInt(v) : undefined;
}

export const oneTransferOnChain: Check = {
  ...COMMON,
  id: "money.one-transfer-on-chain",
  after: ["money.reject-releases-hold"],
  timeoutScale: 8,
  title: "Identical submits with one Idempotency-Key, approved, move the amount once on chain",
  seedRef: "§1 (withdrawals follow policy and approvals); assumed: Idempotency-Key on createWithdrawal",
  sends:
    "5 identical createWithdrawal of 0.0001 to a fresh address, approveWithdrawal, getWithdrawal until completed; eth_getBalance of that address (moves funds)",
  async run(ctx) {
    const f = await funded(ctx);
    // A fresh recipient: its chain balance starts at zero, so every transfer to it is counted.
    const recipient = `0x${randomBytes(20).toString("hex")}`;
    const target = { ...f, recipient };
    const { answers, made } = await identicalSubmits(ctx, target);
    if (made.length !== 1)
      fail(`5 identical submits with one Idempotency-Key made ${made.length} withdrawals`, answers[0].evidence);
    const id = made[0];
    const approve = await ctx.call("approveWithdrawal", {
      params: { withdrawal_id: id },
      body: { comment: "custody certify money path" },
    });
    expectSuccess(approve, ctx.operation("approveWithdrawal"), "approveWithdrawal");
    const limit = 3 * ctx.timeoutMs;
    const final = await pollUntil(
      async () => {
        const ex = await ctx.call("getWithdrawal", { params: { withdrawal_id: id } });
        const w = expectSuccess(ex, ctx.operation("getWithdrawal")) as Record<string, unknown>;
        return TERMINAL.has(String(w?.status)) ? { status: String(w.status), ex } : undefined;
      },
      limit,
      CHAIN_POLL_MS,
      ctx.suite.signal,
    );
    if (!final) fail(`withdrawal ${id}, approved, reached no final status within ${limit} ms`, approve.evidence);
    if (final.status !== "completed") failWith(final.ex, `withdrawal ${id} ended ${final.status}, not completed`);
    const amount = decimalToUnits(AMOUNT, f.asset.decimals)!;
    // Arrived once, and nothing more arrives while a few more blocks are mined.
    const arrived = await pollUntil(
      async () => ((await chainBalance(ctx, recipient)) ?? 0n) > 0n || undefined,
      limit,
      CHAIN_POLL_MS,
      ctx.suite.signal,
    );
    if (!arrived)
      failWith(final.ex, `withdrawal ${id} is completed but ${recipient} received nothing on chain within ${limit} ms`);
    const head = Number(BigInt(String(await ctx.suite.rpc().resultHttp("eth_blockNumber"))));
    await pollUntil(
      async () => Number(BigInt(String(await ctx.suite.rpc().resultHttp("eth_blockNumber")))) >= head + 2 || undefined,
      limit,
      CHAIN_POLL_MS,
      ctx.suite.signal,
    );
    const received = (await chainBalance(ctx, recipient)) ?? 0n;
    if (received !== amount) {
      failWith(
        final.ex,
        `5 identical submits, one withdrawal of ${AMOUNT} approved: ${recipient} received ${unitsToDecimal(received, f.asset.decimals)} on chain (${received > amount ? "more than one transfer" : "less than the amount"})`,
      );
    }
  },
};
