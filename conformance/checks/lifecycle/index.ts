// Lifecycle (full level; seed 1 and 3): a wallet is created asynchronously, a deposit is reported
// on detection and reaches the balance only once confirmed, a withdrawal's receipt matches the chain.
// The slow parts (creation, confirmations) are prerequisites started at the beginning of the run,
// so their waits overlap with the other groups.
import { pollUntil, type CheckContext } from "../../context.ts";
import { expectSuccess, failWith } from "../../expect.ts";
import { readList } from "../../list-reader.ts";
import type { FixtureValues } from "../../fixtures/registry.ts";
import { fail, skip } from "../../outcome.ts";
import { eventIdOf, eventPayloadOf, type ReceivedDelivery } from "../../receiver.ts";
import type { Check } from "../../check.ts";
import type { Evidence, Prerequisite } from "../../types.ts";
import { balanceOf, decimalToUnits, unitsToDecimal } from "../../units.ts";

/** The prerequisite this check owns: its setup failure is this check's failure. */
async function owned<K extends Prerequisite>(ctx: CheckContext, name: K): Promise<FixtureValues[K]> {
  const result = await ctx.settle(name);
  if (result.ok) return result.value;
  if (result.failure) throw result.failure;
  skip(result.reason);
}

export const walletCreation: Check = {
  id: "lifecycle.wallet-creation",
  statements: ["s1.mpc-wallets-in-workspace", "s1.async-wallet-creation", "s2.6.wallet-creation-status", "s3.creation-status-pending", "s4.op5-wallet-creation-status", "s4.partial-create-wallet"],
  awaits: ["wallet"],
  group: "lifecycle",
  title: "createWallet answers 202 pending; the creation status then reaches success",
  severity: "MUST",
  seedRef: "§1 (wallets are created asynchronously); §2.6; §3",
  level: "full",
  timeoutScale: 2,
  sends: "createWallet, then getWalletCreationStatus until success",
  async run(ctx) {
    const wallet = await owned(ctx, "wallet");
    const created = wallet.created!;
    const expected = ctx.operation("createWallet").successStatus;
    if (created.httpStatus !== expected) fail(`createWallet answered HTTP ${created.httpStatus}, not ${expected}`, created.evidence);
    if (created.status !== "pending") fail(`createWallet answered status ${JSON.stringify(created.status)}, not "pending"`, created.evidence);
    const last = wallet.statuses[wallet.statuses.length - 1];
    if (last !== "success") fail(`creation status went ${wallet.statuses.join(" → ")}`, wallet.finalEvidence);
  },
};

export const walletCreatedEvent: Check = {
  id: "lifecycle.wallet-created-event",
  statements: ["s1.wallet-created-event", "s4.partial-create-wallet", "s6.wallet-created"],
  awaits: ["event"],
  group: "lifecycle",
  title: "A wallet.created event is delivered once the wallet is created",
  severity: "MUST",
  seedRef: "§1; §6 (wallet.created)",
  level: "full",
  requires: ["receiver", "webhook", "wallet"],
  timeoutScale: 2,
  sends: "nothing new: waits for the created wallet's wallet.created at the receiver",
  async run(ctx) {
    const event = await owned(ctx, "event");
    const wallet = await ctx.need("wallet");
    const data = eventPayloadOf(event);
    if (data.wallet_id !== undefined && data.wallet_id !== wallet.walletId) {
      fail(`wallet.created names wallet ${String(data.wallet_id)}, created ${wallet.walletId}`);
    }
  },
};

export const depositAddress: Check = {
  id: "lifecycle.deposit-address",
  statements: ["s1.assets-attached", "s1.deposit-address-derived", "s4.partial-deposit-address"],
  awaits: ["asset"],
  group: "lifecycle",
  title: "An attached asset gets a deposit address from getDepositAddress",
  severity: "MUST",
  seedRef: "§1 (the platform derives the deposit address of each attached asset)",
  level: "full",
  requires: ["wallet"],
  timeoutScale: 2,
  sends: "attachAsset, then getDepositAddress",
  async run(ctx) {
    const asset = await owned(ctx, "asset");
    if (!asset.address || !/^0x[0-9a-fA-F]{40}$/.test(asset.address)) {
      fail(`deposit address ${JSON.stringify(asset.address)} is not an EVM address`, asset.addressEvidence);
    }
  },
};

export const depositDetected: Check = {
  id: "lifecycle.deposit-detected",
  statements: ["s1.deposit-detected-then-confirmed", "s3.deposit-reported-when-detected", "s6.deposit-events-exist"],
  awaits: ["deposit"],
  group: "lifecycle",
  title: "A deposit is reported when it is detected (deposit.pending), before deposit.confirmed",
  severity: "MUST",
  seedRef: "§3 deposit rule 1",
  level: "full",
  requires: ["faucet", "receiver", "webhook"],
  timeoutScale: 4,
  sends: "a transfer from the faucet key to the deposit address (over the target's node access); waits for deposit.pending",
  async run(ctx) {
    const deposit = await owned(ctx, "deposit");
    if (!deposit.webhookWatched) skip("deposit events could not be watched (no webhook of ours)");
    if (!deposit.pendingEvent) fail(`no deposit.pending event mentioning transaction ${deposit.txHash} arrived`, { details: { tx_hash: deposit.txHash } });
    if (deposit.confirmedEvent) {
      const order = await madeInOrder(ctx, deposit.pendingEvent, deposit.confirmedEvent);
      if (order) fail(order, { details: { tx_hash: deposit.txHash } });
    }
  },
};

/** Events posted at the same moment may arrive in either order; closer than this, arrival says nothing. */
const POSTED_TOGETHER_MS = 1_000;

/**
 * Whether deposit.confirmed was made before deposit.pending, as the deployment's delivery log says
 * (created_at of each delivery, seed 2.7): a deployment that detects a deposit already confirmed
 * makes both events at once and posts them together, so their arrival order proves nothing. Only
 * when the log does not say is the arrival order used, and then only a clear gap.
 */
async function madeInOrder(ctx: CheckContext, pending: ReceivedDelivery, confirmed: ReceivedDelivery): Promise<string | undefined> {
  const made = await createdAtOf(ctx, [eventIdOf(pending), eventIdOf(confirmed)]);
  if (made[0] !== undefined && made[1] !== undefined) {
    return made[1] < made[0] ? `the delivery log made deposit.confirmed (${new Date(made[1]).toISOString()}) before deposit.pending (${new Date(made[0]).toISOString()})` : undefined;
  }
  return pending.receivedAt - confirmed.receivedAt > POSTED_TOGETHER_MS ? `deposit.confirmed arrived ${pending.receivedAt - confirmed.receivedAt} ms before deposit.pending` : undefined;
}

/** created_at (epoch ms) of the logged deliveries of these events to the run's webhook, where the log has them. */
async function createdAtOf(ctx: CheckContext, eventIds: Array<string | undefined>): Promise<Array<number | undefined>> {
  const workspace = await ctx.settle("workspace");
  const webhook = await ctx.settle("webhook");
  if (!workspace.ok || !webhook.ok || !ctx.operations.some((op) => op.operationId === "listWebhookDeliveries")) return eventIds.map(() => undefined);
  const ex = await ctx.call("listWebhookDeliveries", { params: { workspace_id: workspace.value }, query: { webhook_id: webhook.value.id } });
  const list = ex.response.status === 200 ? (JSON.parse(ex.response.text) as { data?: unknown }).data : undefined;
  const items = (Array.isArray(list) ? list : []) as Array<Record<string, unknown>>;
  return eventIds.map((id) => {
    const at = items.find((i) => id !== undefined && i.event_id === id)?.created_at;
    const ms = typeof at === "string" ? Date.parse(at) : NaN;
    return Number.isNaN(ms) ? undefined : ms;
  });
}

export const depositConfirmation: Check = {
  id: "lifecycle.deposit-confirmation",
  statements: ["s1.deposits-no-approval", "s1.deposit-detected-then-confirmed", "s1.approvals-outbound-only", "s3.deposit-balance-when-confirmed", "s3.deposit-no-approval", "s4.op2-wallet-asset-balance"],
  awaits: ["deposit"],
  group: "lifecycle",
  title: "A deposit reaches the balance only after its confirmations, without any approval",
  severity: "MUST",
  seedRef: "§3 deposit rules 2 and 3",
  level: "full",
  requires: ["faucet"],
  timeoutScale: 4,
  sends: "the faucet transfer; getWalletAssetBalance until the confirmations have passed",
  async run(ctx) {
    const d = await owned(ctx, "deposit");
    const last = d.observations[d.observations.length - 1];
    if (!d.reflected) {
      fail(`the balance never showed the deposit of ${d.amount} (last seen ${JSON.stringify(last?.balance)})`, last?.evidence);
    }
    for (const obs of d.observations) {
      const units = decimalToUnits(obs.balance, d.decimals);
      const confirmations = obs.head - d.txBlock + 1;
      if (units !== undefined && units >= d.amountUnits && confirmations < d.confirmationBlocks) {
        fail(
          `the balance showed the deposit with ${confirmations} of ${d.confirmationBlocks} confirmations (head ${obs.head}, mined in ${d.txBlock})`,
          obs.evidence,
        );
      }
    }
    if (d.webhookWatched && !d.confirmedEvent) fail(`no deposit.confirmed event for ${d.txHash}`, d.reflected.evidence);
    ctx.fact("confirmation_blocks", String(d.confirmationBlocks));
  },
};

export const balanceMatchesChain: Check = {
  id: "lifecycle.balance-matches-chain",
  statements: ["s1.balances-from-chain"],
  group: "lifecycle",
  title: "The confirmed balance equals the chain balance of the deposit address",
  severity: "MUST",
  seedRef: "§1 (balances come from chain state)",
  level: "full",
  requires: ["faucet", "deposit"],
  sends: "getWalletAssetBalance and eth_getBalance of the deposit address",
  async run(ctx) {
    const d = await ctx.need("deposit");
    if (!d.reflected) skip("the deposit never reached the balance (see lifecycle.deposit-confirmation)");
    const api = decimalToUnits(d.apiBalance, d.decimals);
    if (api === undefined || d.chainBalanceUnits === undefined) fail(`cannot compare: API balance ${JSON.stringify(d.apiBalance)}, chain ${String(d.chainBalanceUnits)}`, d.finalEvidence);
    if (api !== d.chainBalanceUnits) {
      fail(`API balance ${d.apiBalance} differs from the chain's ${unitsToDecimal(d.chainBalanceUnits, d.decimals)}`, d.finalEvidence);
    }
  },
};

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
    if (w.replay.status < 200 || w.replay.status > 299) fail(`the replay answered HTTP ${w.replay.status}`, w.replay.evidence);
    const replayId = (w.replay.data as Record<string, unknown> | undefined)?.id ?? (w.replay.data as Record<string, unknown> | undefined)?.withdrawal_id;
    if (replayId !== w.id) fail(`the replay created ${String(replayId)}, the first call ${w.id}`, w.replay.evidence);
    const asset = await ctx.need("asset");
    const { items, last: ex } = await readList(ctx, "listWalletWithdrawals", { params: { wallet_id: asset.walletId } });
    const ours = items.filter((x) => String(x.recipient_address).toLowerCase() === w.recipient.toLowerCase());
    if (ours.length !== 1) failWith(ex, `${ours.length} withdrawals to ${w.recipient} exist after one create and its replay`);
  },
};

export const withdrawalReceipt: Check = {
  id: "lifecycle.withdrawal-receipt",
  statements: ["s1.approvals-outbound-only", "s1.withdrawals-policy-approvals", "s2.5.withdrawal", "s4.op3-get-withdrawal"],
  awaits: ["withdrawal-executed"],
  group: "lifecycle",
  title: "A completed withdrawal's tx_hash, block, gas and price match the chain's receipt",
  severity: "MUST",
  seedRef: "§2.5",
  level: "full",
  requires: ["faucet", "deposit"],
  timeoutScale: 4,
  sends: "a withdrawal to a second wallet, approved; eth_getTransactionReceipt and eth_getTransactionByHash of its tx_hash",
  async run(ctx) {
    const w = await owned(ctx, "withdrawal-executed");
    const data = w.final.data;
    if (data.status !== "completed") fail(`the withdrawal ended ${JSON.stringify(data.status)}${data.error ? `: ${String(data.error)}` : ""}`, w.final.evidence);
    if (typeof data.tx_hash !== "string") fail("the completed withdrawal has no tx_hash", w.final.evidence);
    const receipt = (await ctx.rpc.resultHttp("eth_getTransactionReceipt", [data.tx_hash])) as Record<string, unknown> | null;
    if (!receipt) fail(`the chain has no receipt for ${data.tx_hash}`, w.final.evidence);
    const tx = (await ctx.rpc.resultHttp("eth_getTransactionByHash", [data.tx_hash])) as Record<string, unknown> | null;
    const mismatches: string[] = [];
    const cmp = (field: string, actual: unknown, expected: unknown) => {
      if (!sameQuantity(actual, expected)) mismatches.push(`${field} is ${JSON.stringify(actual)}, chain says ${JSON.stringify(expected)}`);
    };
    cmp("block_number", data.block_number, receipt.blockNumber);
    if (String(data.block_hash).toLowerCase() !== String(receipt.blockHash).toLowerCase()) mismatches.push(`block_hash is ${JSON.stringify(data.block_hash)}, chain says ${String(receipt.blockHash)}`);
    cmp("gas_used", data.gas_used, receipt.gasUsed);
    cmp("effective_gas_price_wei", data.effective_gas_price_wei, receipt.effectiveGasPrice);
    if (receipt.status !== "0x1") mismatches.push(`the chain's receipt status is ${String(receipt.status)} for a completed withdrawal`);
    if (tx && String(tx.to).toLowerCase() !== w.recipient.toLowerCase()) mismatches.push(`the transaction goes to ${String(tx.to)}, not ${w.recipient}`);
    const amount = decimalToUnits(w.amount, w.decimals);
    if (tx && amount !== undefined && !sameQuantity(tx.value, amount)) mismatches.push(`the transaction moves ${String(tx.value)}, not ${w.amount}`);
    if (mismatches.length > 0) fail(`withdrawal ${w.id}: ${mismatches.join("; ")}`, { ...w.final.evidence, details: { receipt } });
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
    if (w.final.data.status !== "completed") skip(`the withdrawal ended ${JSON.stringify(w.final.data.status)} (see lifecycle.withdrawal-receipt)`);
    const expected = decimalToUnits(w.amount, w.decimals)!;
    let last: { balance?: string; evidence?: Evidence } = {};
    const reached = await pollUntil(
      async () => {
        const ex = await ctx.call("getWalletAssetBalance", { params: { wallet_id: w.recipientWalletId, asset_id: w.recipientAssetId } });
        last = { balance: balanceOf(expectSuccess(ex, ctx.operation("getWalletAssetBalance"))), evidence: ex.evidence };
        const units = decimalToUnits(last.balance, w.decimals);
        return units !== undefined && units >= expected ? true : undefined;
      },
      ctx.timeoutMs * 3,
      250,
      ctx.signal,
    );
    if (!reached) fail(`wallet ${w.recipientWalletId} shows ${JSON.stringify(last.balance)}, not the ${w.amount} sent to it`, last.evidence);
  },
};

export const transactionsExport: Check = {
  id: "lifecycle.transactions-export",
  statements: ["s1.transactions-export", "s4.partial-export"],
  awaits: ["deposit"],
  group: "lifecycle",
  title: "exportTransactions answers json (with the run's deposit, when one was made) and csv",
  severity: "MUST",
  seedRef: "§1 (transactions can be exported for reconciliation); §4 partial operation",
  level: "full",
  requires: ["workspace"],
  timeoutScale: 4,
  sends: "exportTransactions as json and as csv",
  async run(ctx) {
    const workspaceId = await ctx.need("workspace");
    const deposit = ctx.config.faucetPrivateKey ? await ctx.settle("deposit") : undefined;
    const json = await ctx.call("exportTransactions", { params: { workspace_id: workspaceId }, query: { format: "json" } });
    const data = expectSuccess(json, ctx.operation("exportTransactions")) as Record<string, unknown>;
    if (data.format !== "json" || !Array.isArray(data.transactions)) failWith(json, "the json export has no transactions array");
    if (typeof data.count === "number" && data.count !== data.transactions.length) failWith(json, `count ${data.count} but ${data.transactions.length} transactions`);
    if (deposit?.ok && deposit.value.reflected && !json.response.text.toLowerCase().includes(deposit.value.txHash.toLowerCase())) {
      failWith(json, `the export does not contain the confirmed deposit ${deposit.value.txHash}`);
    }
    const csv = await ctx.call("exportTransactions", { params: { workspace_id: workspaceId }, query: { format: "csv" } });
    const csvData = expectSuccess(csv, ctx.operation("exportTransactions")) as Record<string, unknown>;
    if (csvData.format !== "csv" || typeof csvData.csv !== "string") failWith(csv, "the csv export has no csv text");
  },
};

export const lifecycleChecks: Check[] = [
  walletCreation,
  walletCreatedEvent,
  depositAddress,
  depositDetected,
  depositConfirmation,
  balanceMatchesChain,
  withdrawalIdempotency,
  withdrawalReceipt,
  walletToWallet,
  transactionsExport,
];
