// A stateful sequence along the resource graph (full level): create a wallet → its creation status →
// the wallet → attach an asset → its assets → its deposit address; then a withdrawal of the funded
// wallet → read it both ways → list it → its withdrawal.pending event → reject it → approve refused.
// Every answer is checked against the earlier ones: ids echo, and states move only along the
// spec's transitions (creation: pending → success | error; withdrawals: terminal stays terminal).
import { randomUUID } from "node:crypto";
import { firstString } from "../../provision/util.ts";
import type { CheckContext } from "../../run/context.ts";
import type { HttpExchange } from "../../transport/probe.ts";
import { eventMentions, eventTypeOf } from "../../transport/receiver.ts";
import type { Check } from "../check.ts";
import { expectError, expectSuccess, failWith } from "../expect.ts";
import { findInList } from "../list-reader.ts";
import { fail, skip } from "../outcome.ts";

/** WalletCreationStatus: "pending → success | error" (spec/openapi.yaml). */
const CREATION_NEXT: Record<string, string[]> = {
  pending: ["pending", "success", "error"],
  success: ["success"],
  error: ["error"],
};
/** WithdrawalStatus: terminal values are completed, failed and rejected; before them the order is fixed. */
const WITHDRAWAL_RANK: Record<string, number> = {
  pending: 0,
  pending_approval: 1,
  approved: 2,
  processing: 3,
  completed: 4,
  failed: 4,
  rejected: 4,
};
const TERMINAL = new Set(["completed", "failed", "rejected"]);

function record(ctx: CheckContext, operationId: string, ex: HttpExchange): Record<string, unknown> {
  const data = expectSuccess(ex, ctx.operation(operationId), operationId);
  return (data && typeof data === "object" ? data : {}) as Record<string, unknown>;
}

function echo(ex: HttpExchange, what: string, got: unknown, want: string): void {
  if (got !== undefined && got !== want) failWith(ex, `${what} answered id ${JSON.stringify(got)}, not ${want}`);
}

/** Fails when `next` may not follow `prev` for a withdrawal. */
function withdrawalMove(ex: HttpExchange, prev: string, next: string): void {
  if (TERMINAL.has(prev) && next !== prev) failWith(ex, `withdrawal went ${prev} → ${next}: ${prev} is terminal`);
  if ((WITHDRAWAL_RANK[next] ?? -1) < (WITHDRAWAL_RANK[prev] ?? -1))
    failWith(ex, `withdrawal went back from ${prev} to ${next}`);
}

async function walletPath(ctx: CheckContext): Promise<void> {
  const created = await ctx.call("createWallet", { body: { name: ctx.suite.marker.name("sequence-wallet") } });
  const first = record(ctx, "createWallet", created);
  const walletId = firstString(first, "wallet_id", "id");
  if (!walletId) failWith(created, "createWallet answered without a wallet id");
  let status = String(first.status ?? "pending");
  for (let i = 0; i < 40 && status === "pending"; i++) {
    await ctx.sleep(250);
    const ex = await ctx.call("getWalletCreationStatus", { params: { wallet_id: walletId } });
    const r = record(ctx, "getWalletCreationStatus", ex);
    echo(ex, "getWalletCreationStatus", r.wallet_id ?? r.id, walletId);
    const next = String(r.status);
    if (!(CREATION_NEXT[status] ?? []).includes(next)) failWith(ex, `creation status went ${status} → ${next}`);
    status = next;
  }
  if (status !== "success") fail(`wallet ${walletId} ended its creation ${status}`);
  const again = await ctx.call("getWalletCreationStatus", { params: { wallet_id: walletId } });
  if (String(record(ctx, "getWalletCreationStatus", again).status) !== "success")
    failWith(again, "creation status left success");
  const wallet = await ctx.call("getWallet", { params: { wallet_id: walletId } });
  echo(wallet, "getWallet", record(ctx, "getWallet", wallet).id, walletId);
  const asset = await ctx.need("asset");
  const attach = await ctx.call("attachAsset", { params: { wallet_id: walletId }, body: { asset_id: asset.assetId } });
  const attached = record(ctx, "attachAsset", attach);
  echo(attach, "attachAsset (asset)", attached.asset_id, asset.assetId);
  const assets = await ctx.call("listWalletAssets", { params: { wallet_id: walletId } });
  const list = expectSuccess(assets, ctx.operation("listWalletAssets"));
  if (!Array.isArray(list) || !list.some((a) => JSON.stringify(a).includes(asset.assetId)))
    failWith(assets, `listWalletAssets of ${walletId} does not show the attached asset ${asset.assetId}`);
  const address = async () => {
    const ex = await ctx.call("getDepositAddress", {
      params: { wallet_id: walletId },
      query: { asset_id: asset.assetId },
    });
    return { ex, address: firstString(record(ctx, "getDepositAddress", ex), "address") };
  };
  const a1 = await address();
  const a2 = await address();
  if (!a1.address) failWith(a1.ex, "getDepositAddress answered without an address");
  if (a1.address !== a2.address)
    failWith(a2.ex, `the deposit address changed between two reads (${a1.address}, then ${a2.address})`);
}

async function withdrawalPath(ctx: CheckContext): Promise<void> {
  const deposit = await ctx.need("deposit");
  if (!deposit.reflected) skip("the deposit never reached the balance");
  const asset = await ctx.need("asset");
  const recipient = "0x000000000000000000000000000000000000dEaD";
  const since = Date.now();
  const created = await ctx.call("createWithdrawal", {
    params: { wallet_id: asset.walletId },
    body: {
      asset_id: asset.assetId,
      amount: "0.0001",
      recipient_address: recipient,
      notes: "custody certify sequence",
    },
    headers: { "Idempotency-Key": `certify-${randomUUID()}` },
  });
  const result = record(ctx, "createWithdrawal", created);
  const w = (result.withdrawal ?? result) as Record<string, unknown>;
  const id = firstString(w, "id", "withdrawal_id");
  if (!id) failWith(created, "createWithdrawal answered without an id");
  if (result.auto_approved === true)
    skip("the deployment approves withdrawals by itself: the sequence would move funds");
  ctx.suite.removeAtEnd(`withdrawal ${id} (pending)`, "rejectWithdrawal", { params: { withdrawal_id: id }, body: {} });
  let status = String(w.status ?? "pending");
  for (const [operationId, params] of [
    ["getWithdrawal", { withdrawal_id: id }],
    ["getWalletWithdrawal", { wallet_id: asset.walletId, withdrawal_id: id }],
  ] as const) {
    const ex = await ctx.call(operationId, { params });
    const r = record(ctx, operationId, ex);
    echo(ex, operationId, r.id ?? r.withdrawal_id, id);
    if (r.recipient_address !== undefined && String(r.recipient_address).toLowerCase() !== recipient.toLowerCase())
      failWith(ex, `${operationId} shows recipient ${String(r.recipient_address)}, the request named ${recipient}`);
    withdrawalMove(ex, status, String(r.status));
    status = String(r.status);
  }
  const { item: listedItem, ex: listed } = await findInList(
    ctx,
    "listWalletWithdrawals",
    { params: { wallet_id: asset.walletId } },
    (x) => x.id === id,
  );
  if (!listedItem) failWith(listed, `listWalletWithdrawals does not list ${id}`);
  const receiver = await ctx.settle("receiver");
  const webhook = await ctx.settle("webhook");
  if (receiver.ok && webhook.ok) {
    const event = await receiver.value.waitFor(
      (d) => d.receivedAt >= since - 1000 && eventTypeOf(d) === "withdrawal.pending" && eventMentions(d, id),
      ctx.timeoutMs,
      ctx.signal,
    );
    if (!event) fail(`no withdrawal.pending event for ${id} reached the receiver within ${ctx.timeoutMs} ms`);
  }
  const rejected = await ctx.call("rejectWithdrawal", {
    params: { withdrawal_id: id },
    body: { reason: "custody certify sequence" },
  });
  const after = record(ctx, "rejectWithdrawal", rejected);
  echo(rejected, "rejectWithdrawal", after.id ?? after.withdrawal_id, id);
  withdrawalMove(rejected, status, String(after.status));
  status = String(after.status);
  if (status !== "rejected") failWith(rejected, `rejectWithdrawal left the withdrawal ${status}`);
  const approve = await ctx.call("approveWithdrawal", { params: { withdrawal_id: id }, body: {} });
  expectError(approve, 409, undefined, "approving a rejected withdrawal");
  const final = await ctx.call("getWithdrawal", { params: { withdrawal_id: id } });
  withdrawalMove(final, status, String(record(ctx, "getWithdrawal", final).status));
}

export const resourceGraphSequence: Check = {
  id: "lifecycle.resource-sequence",
  group: "lifecycle",
  title:
    "Wallet → creation status → assets → deposit address, then withdrawal → reads → event → reject: ids echo and states move only forward",
  severity: "MUST",
  seedRef: "§1; §3 (creation status); assumed: status transitions of WalletCreationStatus and WithdrawalStatus",
  level: "full",
  requires: ["asset", "faucet"],
  awaits: ["deposit", "withdrawal-executed", "webhook"],
  timeoutScale: 4,
  sends:
    "createWallet → getWalletCreationStatus → getWallet → attachAsset → listWalletAssets → getDepositAddress ×2; createWithdrawal → reads → rejectWithdrawal → approveWithdrawal (409)",
  async run(ctx) {
    await walletPath(ctx);
    await withdrawalPath(ctx);
  },
};
