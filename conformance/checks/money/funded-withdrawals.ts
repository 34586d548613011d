// Withdrawals from the money path's own funded wallet, and the balances they hold.
import { randomUUID } from "node:crypto";
import type { AssetFixture } from "../../provision/registry.ts";
import type { CheckContext } from "../../run/context.ts";
import type { HttpExchange } from "../../transport/probe.ts";
import type { Check } from "../check.ts";
import { expectSuccess, failWith } from "../expect.ts";
import { readList } from "../list-reader.ts";
import { skip } from "../outcome.ts";
import { balanceOf, decimalToUnits, unitsToDecimal } from "../units.ts";

export const AMOUNT = "0.0001";

/** Every withdrawal here but the last is rejected; a burn address keeps a wrongly executed one from landing in a wallet other checks read. */
const RECIPIENT = "0x000000000000000000000000000000000000dEaD";

interface Funded {
  asset: AssetFixture;
  recipient: string;
  /** The deposit address whose chain balance the wallet's balance is. */
  address: string;
  /** How many blocks behind the head the balance may be read (the deposit's confirmation depth). */
  depth: number;
}

export async function funded(ctx: CheckContext): Promise<Funded> {
  const funds = await ctx.need("money-funds");
  if (!funds.reflected)
    skip("the deposit to the money path's wallet never reached its balance, so there is nothing to hold");
  return { asset: funds.asset, recipient: RECIPIENT, address: funds.address, depth: funds.depth };
}

export function submit(
  ctx: CheckContext,
  f: Funded,
  key: string | undefined,
  amount = AMOUNT,
  notes = "custody certify money path",
): Promise<HttpExchange> {
  return ctx.call("createWithdrawal", {
    params: { wallet_id: f.asset.walletId },
    body: { asset_id: f.asset.assetId, amount, recipient_address: f.recipient, notes },
    headers: key ? { "Idempotency-Key": key } : {},
  });
}

/** The id of the withdrawal a createWithdrawal answer carries ({auto_approved, withdrawal}). */
export function withdrawalId(ctx: CheckContext, ex: HttpExchange): string {
  const data = expectSuccess(ex, ctx.operation("createWithdrawal"), "createWithdrawal") as Record<string, unknown>;
  const w = (data?.withdrawal ?? data) as Record<string, unknown>;
  const id = w?.id ?? w?.withdrawal_id;
  if (typeof id !== "string") failWith(ex, "createWithdrawal answered without a withdrawal id");
  if (data?.auto_approved === true)
    skip("the deployment approves withdrawals by itself, so they cannot be held and rejected without moving funds");
  return id;
}

/** Rejects the withdrawal (releasing its hold); registered as a cleanup too, in case the check stops. */
export async function release(ctx: CheckContext, id: string): Promise<HttpExchange> {
  const ex = await ctx.call("rejectWithdrawal", {
    params: { withdrawal_id: id },
    body: { reason: "custody certify money path" },
  });
  return ex;
}

export function cleanupReject(ctx: CheckContext, id: string): void {
  ctx.suite.removeAtEnd(`withdrawal ${id} (pending)`, "rejectWithdrawal", {
    params: { withdrawal_id: id },
    body: { reason: "custody certify" },
  });
}

interface Holding {
  available: bigint;
  onHold: bigint;
  ex: HttpExchange;
}

/** The balance as the API states it, checked against the chain: `step` says when it was read. */
export async function holding(ctx: CheckContext, f: Funded, step: string): Promise<Holding> {
  // The head before the read too: however many blocks pass while the API answers, its block is covered.
  const headBefore = await headNumber(ctx);
  const ex = await ctx.call("getWalletAssetBalance", {
    params: { wallet_id: f.asset.walletId, asset_id: f.asset.assetId },
  });
  const b = expectSuccess(ex, ctx.operation("getWalletAssetBalance")) as Record<string, unknown>;
  const available = decimalToUnits(b?.available_balance ?? b?.balance, f.asset.decimals);
  const onHold = decimalToUnits(b?.on_hold ?? "0", f.asset.decimals);
  if (available === undefined || onHold === undefined)
    failWith(ex, "the balance has no available_balance/on_hold (or balance) as decimal strings");
  const total = decimalToUnits(balanceOf(b), f.asset.decimals);
  if (total !== undefined) {
    const seen = await recentChainBalances(ctx, f, headBefore);
    if (seen.length > 0 && !seen.some((c) => c.units === total)) {
      const listed = seen.map((c) => `${unitsToDecimal(c.units, f.asset.decimals)} at block ${c.block}`).join(", ");
      failWith(
        ex,
        `${step}: the API balance ${unitsToDecimal(total, f.asset.decimals)} is not the chain balance of ${f.address} at any recent block (${listed})`,
      );
    }
  }
  return { available, onHold, ex };
}

async function headNumber(ctx: CheckContext): Promise<number | undefined> {
  const head = await ctx.suite.rpc().resultHttp("eth_blockNumber");
  return typeof head === "string" && /^0x[0-9a-f]+$/i.test(head) ? Number(BigInt(head)) : undefined;
}

/**
 * The chain balance of the deposit address at every block the API may have read: from the confirmation
 * depth (plus one) below the head seen before the API call, up to the head now.
 */
async function recentChainBalances(
  ctx: CheckContext,
  f: Funded,
  headBefore: number | undefined,
): Promise<{ block: number; units: bigint }[]> {
  const top = await headNumber(ctx);
  if (top === undefined) return [];
  const bottom = Math.max(0, Math.min(headBefore ?? top, top) - (Math.max(1, f.depth) + 1));
  const blocks = Array.from({ length: top - bottom + 1 }, (_, i) => top - i);
  const balances = await Promise.all(
    blocks.map((n) => ctx.suite.rpc().resultHttp("eth_getBalance", [f.address, `0x${n.toString(16)}`])),
  );
  return blocks.flatMap((block, i) =>
    typeof balances[i] === "string" && /^0x[0-9a-f]+$/i.test(balances[i] as string)
      ? [{ block, units: BigInt(balances[i] as string) }]
      : [],
  );
}

/** 5 identical submits at once under one Idempotency-Key: their answers, and the withdrawals that appeared (each rejected at the end of the run unless the check settles it). */
export async function identicalSubmits(
  ctx: CheckContext,
  f: Funded,
): Promise<{ answers: HttpExchange[]; made: string[] }> {
  const before = await withdrawalIds(ctx, f);
  const key = `certify-${randomUUID()}`;
  const answers = await Promise.all(Array.from({ length: 5 }, () => submit(ctx, f, key)));
  const made = [...(await withdrawalIds(ctx, f))].filter((id) => !before.has(id));
  for (const id of made) cleanupReject(ctx, id);
  return { answers, made };
}

export async function withdrawalIds(ctx: CheckContext, f: Funded): Promise<Set<string>> {
  const { items } = await readList(ctx, "listWalletWithdrawals", { params: { wallet_id: f.asset.walletId } });
  return new Set(items.map((w) => String(w.id ?? w.withdrawal_id)));
}

export const COMMON = {
  group: "money" as const,
  severity: "MUST" as const,
  level: "full" as const,
  requires: ["faucet", "money-funds"] as Check["requires"],
  timeoutScale: 4,
};
