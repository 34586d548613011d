// Withdrawals: idempotency, the receipt on chain, a transfer between two wallets.
import { CHAIN_POLL_MS, pollUntil } from "../../run/context.ts";
import type { Check } from "../check.ts";
import { expectSuccess, failWith } from "../expect.ts";
import { readList } from "../list-reader.ts";
import { fail, skip } from "../outcome.ts";
import type { Evidence } from "../types.ts";
import { balanceOf, decimalToUnits } from "../units.ts";
import { owned } from "./owned.ts";

export const withdrawalIdempotency: Check = {
  id: "lifecycle.withdrawal-idempotency",
  statements: ["s4.op4-list-wallet-withdrawals"],
  awaits: ["withdrawal-executed"],
  group: "lifecycle",
  title: "createWithdrawal replayed with the same Idempotency-Key returns the same withdrawal",
  severity: "MUST",
  seedRef: "assumed: Idempotency-Key on createWithdrawal",
  level: "full",
  requires: ["faucet", "deposit"],
  timeoutScale: 4,
  sends: "createWithdrawal replayed with the same Idempotency-Key, then listWalletWithdrawals",
  async run(ctx) {
    const w = await owned(ctx, "withdrawal-executed");
    if (w.replay.status < 200 || w.replay.status > 299)
      fail(`the replay answered HTTP ${w.replay.status}`, w.replay.evidence);
    const replayId =
      (w.replay.data as Record<string, unknown> | undefined)?.id ??
      (w.replay.data as Record<string, unknown> | undefined)?.withdrawal_id;
    if (replayId !== w.id) fail(`the replay created ${String(replayId)}, the first call ${w.id}`, w.replay.evidence);
    const asset = await ctx.need("asset");
    const { items, last: ex } = await readList(ctx, "listWalletWithdrawals", { params: { wallet_id: asset.walletId } });
    const ours = items.filter((x) => String(x.recipient_address).toLowerCase() === w.recipient.toLowerCase());
    if (ours.length !== 1)
      failWith(ex, `${ours.length} withdrawals to ${w.recipient} exist after one create and its replay`);
  },
};

export const withdrawalReceipt: Check = {
  id: "lifecycle.withdrawal-receipt",
  statements: [
    "s1.approvals-outbound-only",
    "s1.withdrawals-policy-approvals",
    "s2.5.withdrawal",
    "s4.op3-get-withdrawal",
  ],
  awaits: ["withdrawal-executed"],
  group: "lifecycle",
  title: "A completed withdrawal's tx_hash, block, gas and price match the chain's receipt",
  severity: "MUST",
  seedRef: "§2.5",
  level: "full",
  requires: ["faucet", "deposit"],
  timeoutScale: 4,
  sends:
    "a withdrawal to a second wallet, approved; eth_getTransactionReceipt and eth_getTransactionByHash of its tx_hash",
  async run(ctx) {
    const w = await owned(ctx, "withdrawal-executed");
    const data = w.final.data;
    if (data.status !== "completed")
      fail(
        `the withdrawal ended ${JSON.stringify(data.status)}${data.error ? `: ${String(data.error)}` : ""}`,
        w.final.evidence,
      );
    if (typeof data.tx_hash !== "string") fail("the completed withdrawal has no tx_hash", w.final.evidence);
    const receipt = (await ctx.rpc.resultHttp("eth_getTransactionReceipt", [data.tx_hash])) as Record<
      string,
      unknown
    > | null;
    if (!receipt) fail(`the chain has no receipt for ${data.tx_hash}`, w.final.evidence);
    const tx = (await ctx.rpc.resultHttp("eth_getTransactionByHash", [data.tx_hash])) as Record<string, unknown> | null;
    const mismatches: string[] = [];
    const cmp = (field: string, actual: unknown, expected: unknown) => {
      if (!sameQuantity(actual, expected))
        mismatches.push(`${field} is ${JSON.stringify(actual)}, chain says ${JSON.stringify(expected)}`);
    };
    cmp("block_number", data.block_number, receipt.blockNumber);
    if (String(data.block_hash).toLowerCase() !== String(receipt.blockHash).toLowerCase())
      mismatches.push(`block_hash is ${JSON.stringify(data.block_hash)}, chain says ${String(receipt.blockHash)}`);
    cmp("gas_used", data.gas_used, receipt.gasUsed);
    cmp("effective_gas_price_wei", data.effective_gas_price_wei, receipt.effectiveGasPrice);
    if (receipt.status !== "0x1")
      mismatches.push(`the chain's receipt status is ${String(receipt.status)} for a completed withdrawal`);
    if (tx && String(tx.to).toLowerCase() !== w.recipient.toLowerCase())
      mismatches.push(`the transaction goes to ${String(tx.to)}, not ${w.recipient}`);
    const amount = decimalToUnits(w.amount, w.decimals);
    if (tx && amount !== undefined && !sameQuantity(tx.value, amount))
      mismatches.push(`the transaction moves ${String(tx.value)}, not ${w.amount}`);
    if (mismatches.length > 0)
      fail(`withdrawal ${w.id}: ${mismatches.join("; ")}`, { ...w.final.evidence, details: { receipt } });
  },
};

/** Compares quantities given as numbers, decimal strings, hex strings or bigints. */
export function sameQuantity(a: unknown, b: unknown): boolean {
  const toBig = (x: unknown): bigint | undefined => {
    if (typeof x === "bigint") return x;
    if (typeof x === "number" && Number.isInteger(x)) return BigInt(x);
    if (typeof x === "string" && /^(0x[0-9a-fA-F]+|\d+)$/.test(x)) return BigInt(x);
    return undefined;
  };
  const x = toBig(a);
  const y = toBig(b);
  return x !== undefined && y !== undefined && x === y;
}

export const walletToWallet: Check = {
  id: "lifecycle.wallet-to-wallet",
  statements: ["s1.wallet-to-wallet-is-withdrawal"],
  awaits: ["withdrawal-executed"],
  group: "lifecycle",
  title: "A withdrawal to another wallet's deposit address reaches that wallet's balance",
  severity: "MUST",
  seedRef: "§1 (moving funds between two wallets is an ordinary withdrawal)",
  level: "full",
  requires: ["faucet", "deposit"],
  timeoutScale: 4,
  sends: "getWalletAssetBalance of the receiving wallet after the withdrawal completes",
  async run(ctx) {
    const w = await owned(ctx, "withdrawal-executed");
    if (w.final.data.status !== "completed")
      skip(`the withdrawal ended ${JSON.stringify(w.final.data.status)} (see lifecycle.withdrawal-receipt)`);
    const expected = decimalToUnits(w.amount, w.decimals)!;
    let last: { balance?: string; evidence?: Evidence } = {};
    const reached = await pollUntil(
      async () => {
        const ex = await ctx.call("getWalletAssetBalance", {
          params: { wallet_id: w.recipientWalletId, asset_id: w.recipientAssetId },
        });
        last = { balance: balanceOf(expectSuccess(ex, ctx.operation("getWalletAssetBalance"))), evidence: ex.evidence };
        const units = decimalToUnits(last.balance, w.decimals);
        return units !== undefined && units >= expected ? true : undefined;
      },
      ctx.timeoutMs * 3,
      CHAIN_POLL_MS,
      ctx.signal,
    );
    if (!reached)
      fail(
        `wallet ${w.recipientWalletId} shows ${JSON.stringify(last.balance)}, not the ${w.amount} sent to it`,
        last.evidence,
      );
  },
};
