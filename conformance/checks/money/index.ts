// Money-path semantics at --level full, on a funded wallet of their own (so they run beside the
// lifecycle's withdrawal, and neither sees the other's holds): a withdrawal replayed
// with its Idempotency-Key is the same withdrawal; the key with another body is 409; identical
// submits at the same time make one withdrawal; an overdraft is refused with nothing held; reject
// releases the hold; and, last, identical submits approved make exactly one transfer on chain. Every
// other withdrawal made here waits for approval and is rejected, so nothing else leaves the wallet, and at every read the balance must be the chain balance of the deposit address
// at a recent block — the head, or as far back as the deployment's confirmation depth (holds change
// what is available, never what is there). The checks run one after the other:
// they read the same balance.
import { randomBytes, randomUUID } from "node:crypto";
import { pollUntil } from "../../context.ts";
import type { CheckContext } from "../../context.ts";
import { expectError, expectSuccess, failWith } from "../../expect.ts";
import { readList } from "../../list-reader.ts";
import type { AssetFixture } from "../../fixtures/registry.ts";
import { fail, skip } from "../../outcome.ts";
import type { HttpExchange } from "../../probe.ts";
import type { Check } from "../../check.ts";
import { balanceOf, decimalToUnits, unitsToDecimal } from "../../units.ts";

const AMOUNT = "0.0001";
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

async function funded(ctx: CheckContext): Promise<Funded> {
  const funds = await ctx.need("money-funds");
  if (!funds.reflected) skip("the deposit to the money path's wallet never reached its balance, so there is nothing to hold");
  return { asset: funds.asset, recipient: RECIPIENT, address: funds.address, depth: funds.depth };
}

function submit(ctx: CheckContext, f: Funded, key: string | undefined, amount = AMOUNT, notes = "custody certify money path"): Promise<HttpExchange> {
  return ctx.call("createWithdrawal", {
    params: { wallet_id: f.asset.walletId },
    body: { asset_id: f.asset.assetId, amount, recipient_address: f.recipient, notes },
    headers: key ? { "Idempotency-Key": key } : {},
  });
}

/** The id of the withdrawal a createWithdrawal answer carries ({auto_approved, withdrawal}). */
function withdrawalId(ctx: CheckContext, ex: HttpExchange): string {
  const data = expectSuccess(ex, ctx.operation("createWithdrawal"), "createWithdrawal") as Record<string, unknown>;
  const w = (data?.withdrawal ?? data) as Record<string, unknown>;
  const id = w?.id ?? w?.withdrawal_id;
  if (typeof id !== "string") failWith(ex, "createWithdrawal answered without a withdrawal id");
  if (data?.auto_approved === true) skip("the deployment approves withdrawals by itself, so they cannot be held and rejected without moving funds");
  return id;
}

/** Rejects the withdrawal (releasing its hold); registered as a cleanup too, in case the check stops. */
async function release(ctx: CheckContext, id: string): Promise<HttpExchange> {
  const ex = await ctx.call("rejectWithdrawal", { params: { withdrawal_id: id }, body: { reason: "custody certify money path" } });
  return ex;
}

function cleanupReject(ctx: CheckContext, id: string): void {
  ctx.suite.removeAtEnd(`withdrawal ${id} (pending)`, "rejectWithdrawal", { params: { withdrawal_id: id }, body: { reason: "custody certify" } });
}

interface Holding {
  available: bigint;
  onHold: bigint;
  ex: HttpExchange;
}

/** The balance as the API states it, checked against the chain: `step` says when it was read. */
async function holding(ctx: CheckContext, f: Funded, step: string): Promise<Holding> {
  // The head before the read too: however many blocks pass while the API answers, its block is covered.
  const headBefore = await headNumber(ctx);
  const ex = await ctx.call("getWalletAssetBalance", { params: { wallet_id: f.asset.walletId, asset_id: f.asset.assetId } });
  const b = expectSuccess(ex, ctx.operation("getWalletAssetBalance")) as Record<string, unknown>;
  const available = decimalToUnits(b?.available_balance ?? b?.balance, f.asset.decimals);
  const onHold = decimalToUnits(b?.on_hold ?? "0", f.asset.decimals);
  if (available === undefined || onHold === undefined) failWith(ex, "the balance has no available_balance/on_hold (or balance) as decimal strings");
  const total = decimalToUnits(balanceOf(b), f.asset.decimals);
  if (total !== undefined) {
    const seen = await recentChainBalances(ctx, f, headBefore);
    if (seen.length > 0 && !seen.some((c) => c.units === total)) {
      const listed = seen.map((c) => `${unitsToDecimal(c.units, f.asset.decimals)} at block ${c.block}`).join(", ");
      failWith(ex, `${step}: the API balance ${unitsToDecimal(total, f.asset.decimals)} is not the chain balance of ${f.address} at any recent block (${listed})`);
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
async function recentChainBalances(ctx: CheckContext, f: Funded, headBefore: number | undefined): Promise<{ block: number; units: bigint }[]> {
  const top = await headNumber(ctx);
  if (top === undefined) return [];
  const bottom = Math.max(0, Math.min(headBefore ?? top, top) - (Math.max(1, f.depth) + 1));
  const blocks = Array.from({ length: top - bottom + 1 }, (_, i) => top - i);
  const balances = await Promise.all(blocks.map((n) => ctx.suite.rpc().resultHttp("eth_getBalance", [f.address, `0x${n.toString(16)}`])));
  return blocks.flatMap((block, i) => (typeof balances[i] === "string" && /^0x[0-9a-f]+$/i.test(balances[i] as string) ? [{ block, units: BigInt(balances[i] as string) }] : []));
}

/** 5 identical submits at once under one Idempotency-Key: their answers, and the withdrawals that appeared (each rejected at the end of the run unless the check settles it). */
async function identicalSubmits(ctx: CheckContext, f: Funded): Promise<{ answers: HttpExchange[]; made: string[] }> {
  const before = await withdrawalIds(ctx, f);
  const key = `certify-${randomUUID()}`;
  const answers = await Promise.all(Array.from({ length: 5 }, () => submit(ctx, f, key)));
  const made = [...(await withdrawalIds(ctx, f))].filter((id) => !before.has(id));
  for (const id of made) cleanupReject(ctx, id);
  return { answers, made };
}

async function withdrawalIds(ctx: CheckContext, f: Funded): Promise<Set<string>> {
  const { items } = await readList(ctx, "listWalletWithdrawals", { params: { wallet_id: f.asset.walletId } });
  return new Set(items.map((w) => String(w.id ?? w.withdrawal_id)));
}

const COMMON = {
  group: "money" as const,
  severity: "MUST" as const,
  level: "full" as const,
  requires: ["faucet", "money-funds"] as Check["requires"],
  timeoutScale: 4,
};

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
    if (held.onHold - before.onHold >= 2n * amount) failWith(held.ex, `on_hold grew by ${unitsToDecimal(held.onHold - before.onHold, f.asset.decimals)} after one withdrawal of ${AMOUNT} and its replay`);
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
      else if (ex.response.status !== 409) failWith(ex, `a concurrent identical submit answered HTTP ${ex.response.status} (expected the same withdrawal, or 409 while the first is in flight)`);
    }
    for (const id of ids) cleanupReject(ctx, id);
    if (ids.size !== 1 || made.length !== 1) fail(`5 identical submits with one Idempotency-Key made ${made.length} withdrawals (answers named ${ids.size})`, answers[0].evidence);
    await release(ctx, made[0]);
  },
};

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
      failWith(ex, `a withdrawal of ${tooMuch} (available ${unitsToDecimal(before.available, f.asset.decimals)}) answered HTTP ${ex.response.status}`);
    }
    expectError(ex, [400, 409], undefined, "an overdraft");
    const after = await holding(ctx, f, "after the refused overdraft");
    if (after.onHold !== before.onHold || after.available !== before.available) {
      failWith(after.ex, `after the refused overdraft on_hold went ${unitsToDecimal(before.onHold, f.asset.decimals)} → ${unitsToDecimal(after.onHold, f.asset.decimals)}, available ${unitsToDecimal(before.available, f.asset.decimals)} → ${unitsToDecimal(after.available, f.asset.decimals)}`);
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
    if (before.available - held.available < amount) failWith(held.ex, `a pending withdrawal of ${AMOUNT} left available_balance at ${unitsToDecimal(held.available, f.asset.decimals)} (was ${unitsToDecimal(before.available, f.asset.decimals)})`);
    const rejected = await release(ctx, id);
    expectSuccess(rejected, ctx.operation("rejectWithdrawal"), "rejectWithdrawal");
    const after = await holding(ctx, f, "after the reject");
    if (after.available !== before.available || after.onHold !== before.onHold) {
      failWith(after.ex, `after reject, available is ${unitsToDecimal(after.available, f.asset.decimals)} and on_hold ${unitsToDecimal(after.onHold, f.asset.decimals)}; before the withdrawal they were ${unitsToDecimal(before.available, f.asset.decimals)} and ${unitsToDecimal(before.onHold, f.asset.decimals)}`);
    }
  },
};

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
  sends: "5 identical createWithdrawal of 0.0001 to a fresh address, approveWithdrawal, getWithdrawal until completed; eth_getBalance of that address (moves funds)",
  async run(ctx) {
    const f = await funded(ctx);
    // A fresh recipient: its chain balance starts at zero, so every transfer to it is counted.
    const recipient = `0x${randomBytes(20).toString("hex")}`;
    const target = { ...f, recipient };
    const { answers, made } = await identicalSubmits(ctx, target);
    if (made.length !== 1) fail(`5 identical submits with one Idempotency-Key made ${made.length} withdrawals`, answers[0].evidence);
    const id = made[0];
    const approve = await ctx.call("approveWithdrawal", { params: { withdrawal_id: id }, body: { comment: "custody certify money path" } });
    expectSuccess(approve, ctx.operation("approveWithdrawal"), "approveWithdrawal");
    const limit = 3 * ctx.timeoutMs;
    const final = await pollUntil(
      async () => {
        const ex = await ctx.call("getWithdrawal", { params: { withdrawal_id: id } });
        const w = expectSuccess(ex, ctx.operation("getWithdrawal")) as Record<string, unknown>;
        return TERMINAL.has(String(w?.status)) ? { status: String(w.status), ex } : undefined;
      },
      limit,
      250,
      ctx.suite.signal,
    );
    if (!final) fail(`withdrawal ${id}, approved, reached no final status within ${limit} ms`, approve.evidence);
    if (final.status !== "completed") failWith(final.ex, `withdrawal ${id} ended ${final.status}, not completed`);
    const amount = decimalToUnits(AMOUNT, f.asset.decimals)!;
    // Arrived once, and nothing more arrives while a few more blocks are mined.
    const arrived = await pollUntil(async () => ((await chainBalance(ctx, recipient)) ?? 0n) > 0n || undefined, limit, 250, ctx.suite.signal);
    if (!arrived) failWith(final.ex, `withdrawal ${id} is completed but ${recipient} received nothing on chain within ${limit} ms`);
    const head = Number(BigInt(String(await ctx.suite.rpc().resultHttp("eth_blockNumber"))));
    await pollUntil(async () => Number(BigInt(String(await ctx.suite.rpc().resultHttp("eth_blockNumber")))) >= head + 2 || undefined, limit, 250, ctx.suite.signal);
    const received = (await chainBalance(ctx, recipient)) ?? 0n;
    if (received !== amount) {
      failWith(final.ex, `5 identical submits, one withdrawal of ${AMOUNT} approved: ${recipient} received ${unitsToDecimal(received, f.asset.decimals)} on chain (${received > amount ? "more than one transfer" : "less than the amount"})`);
    }
  },
};

export const moneyChecks: Check[] = [sameKeySameBody, sameKeyOtherBody, concurrentSubmits, overdraftRefused, rejectReleases, oneTransferOnChain];
