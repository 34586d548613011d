// SOL moving through the deployment, seen from its Solana RPC (--solana-rpc-url): a deposit from a
// throwaway key is reported when detected and reaches the balance only after its confirmations (seed 3,
// as for the EVM chain); a withdrawal lands once, in the slot it reports; a transaction signed and sent
// through signRawTransaction (the solana-transfer example's path) lands and pays its recipient.
import { base58 } from "@scure/base";
import { addressBytes, keypairFromSeed } from "../../../lib/solana/keys.ts";
import { transferMessage } from "../../../lib/solana/system-program.ts";
import { encodeTransaction } from "../../../lib/solana/transaction.ts";
import type { CheckContext } from "../../run/context.ts";
import { pollUntil } from "../../run/context.ts";
import type { SolanaRpcClient } from "../../transport/solana-rpc.ts";
import type { Check } from "../check.ts";
import { expectSuccess } from "../expect.ts";
import { fail, skip } from "../outcome.ts";
import type { Evidence } from "../types.ts";
import { decimalToUnits, unitsToDecimal } from "../units.ts";
import { acceptedId, owned, web3Result } from "./shared.ts";

function rpcOf(ctx: CheckContext): SolanaRpcClient {
  const rpc = ctx.suite.solanaRpc(ctx.signal);
  if (!rpc) skip("no Solana RPC to watch the chain with", "--solana-rpc-url");
  return rpc;
}

function freshAddress(): string {
  return keypairFromSeed(crypto.getRandomValues(new Uint8Array(32))).address;
}

export const solanaDepositDetected: Check = {
  id: "chains.solana-deposit-detected",
  statements: ["s1.deposit-detected-then-confirmed", "s3.deposit-reported-when-detected", "s6.deposit-events-exist"],
  awaits: ["sol-deposit"],
  group: "chains",
  title:
    "A SOL deposit is reported when it is detected (deposit.pending naming its signature), before deposit.confirmed",
  severity: "MUST",
  seedRef: "§3 deposit rule 1 (on Solana)",
  level: "full",
  requires: ["receiver", "webhook"],
  timeoutScale: 2,
  sends:
    "a SOL transfer from an airdrop-funded key to the wallet's sol address over --solana-rpc-url; waits for deposit.pending",
  async run(ctx) {
    const d = await owned(ctx, "sol-deposit");
    if (!d.webhookWatched) skip("deposit events could not be watched (no webhook of ours)");
    if (!d.pendingEvent)
      fail(`no deposit.pending event mentioning transaction ${d.signature} arrived`, {
        details: { signature: d.signature },
      });
    if (d.confirmedEvent && d.confirmedEvent.receivedAt < d.pendingEvent.receivedAt)
      fail("deposit.confirmed arrived before deposit.pending", { details: { signature: d.signature } });
  },
};

export const solanaDepositConfirmation: Check = {
  id: "chains.solana-deposit-confirmation",
  statements: [
    "s1.deposits-no-approval",
    "s3.deposit-balance-when-confirmed",
    "s3.deposit-no-approval",
    "s1.balances-from-chain",
  ],
  awaits: ["sol-deposit"],
  group: "chains",
  title:
    "A SOL deposit reaches the balance only after the network's confirmation_blocks slots, and the balance is the chain's",
  severity: "MUST",
  seedRef: "§3 deposit rules 2 and 3; §1 (balances come from chain state), on Solana",
  level: "full",
  timeoutScale: 2,
  sends: "getWalletAssetBalance of SOL while the deposit confirms; getBalance over --solana-rpc-url",
  async run(ctx) {
    const d = await owned(ctx, "sol-deposit");
    const last = d.observations[d.observations.length - 1];
    if (!d.reflected)
      fail(
        `the balance never showed the SOL deposit of ${d.amount} (last seen ${JSON.stringify(last?.balance)})`,
        last?.evidence,
      );
    for (const obs of d.observations) {
      const units = decimalToUnits(obs.balance, d.decimals);
      const confirmations = obs.slot - d.slot + 1;
      if (units !== undefined && units >= d.amountUnits && confirmations < d.confirmationBlocks) {
        fail(
          `the balance showed the deposit with ${confirmations} of ${d.confirmationBlocks} confirmations (slot ${obs.slot}, landed in ${d.slot})`,
          obs.evidence,
        );
      }
    }
    const api = decimalToUnits(d.apiBalance, d.decimals);
    const chain = d.chainBalances;
    if (api === undefined || !chain)
      fail(`cannot compare the balance ${JSON.stringify(d.apiBalance)} with the chain's`, d.finalEvidence);
    if (api !== chain.processed && api !== chain.confirmed && api !== chain.finalized) {
      fail(
        `API balance ${d.apiBalance} is none of the chain's (processed ${unitsToDecimal(chain.processed, d.decimals)}, confirmed ${unitsToDecimal(chain.confirmed, d.decimals)}, finalized ${unitsToDecimal(chain.finalized, d.decimals)})`,
        d.finalEvidence,
      );
    }
    ctx.fact("sol_confirmation_blocks", String(d.confirmationBlocks));
  },
};

export const solanaWithdrawal: Check = {
  id: "chains.solana-withdrawal",
  statements: ["s1.withdrawals-policy-approvals", "s2.5.withdrawal"],
  awaits: ["sol-deposit"],
  group: "chains",
  title:
    "A SOL withdrawal completes in the slot it reports, from the wallet's sol address, and pays its recipient exactly once",
  severity: "MUST",
  seedRef: "§1 (withdrawals follow policy and approvals); §2.5, on Solana",
  level: "full",
  timeoutScale: 6,
  sends:
    "createWithdrawal of part of the SOL deposit, approveWithdrawal when asked, getWithdrawal until completed; the chain's record over --solana-rpc-url",
  async run(ctx) {
    const d = await owned(ctx, "sol-deposit");
    if (!d.reflected) skip("the SOL deposit never reached the balance (see chains.solana-deposit-confirmation)");
    const rpc = rpcOf(ctx);
    const asset = await ctx.need("sol-asset");
    const recipient = freshAddress();
    const amount = "0.1";
    const created = await ctx.call("createWithdrawal", {
      params: { wallet_id: asset.walletId },
      headers: { "idempotency-key": crypto.randomUUID() },
      body: { asset_id: asset.assetId, amount, recipient_address: recipient },
    });
    const result = expectSuccess(created, ctx.operation("createWithdrawal")) as {
      withdrawal?: Record<string, unknown>;
    };
    const id = result.withdrawal?.id;
    if (typeof id !== "string") fail("createWithdrawal answered no withdrawal id", created.evidence);
    if (result.withdrawal?.status === "pending_approval" || result.withdrawal?.status === "pending") {
      expectSuccess(
        await ctx.call("approveWithdrawal", { params: { withdrawal_id: id }, body: {} }),
        ctx.operation("approveWithdrawal"),
      );
    }
    let last: { data?: Record<string, unknown>; evidence?: Evidence } = {};
    const final = await pollUntil(
      async () => {
        const ex = await ctx.call("getWithdrawal", { params: { withdrawal_id: id } });
        const data = expectSuccess(ex, ctx.operation("getWithdrawal")) as Record<string, unknown>;
        last = { data, evidence: ex.evidence };
        return data.status === "completed" || data.status === "failed" || data.status === "rejected" ? data : undefined;
      },
      ctx.timeoutMs * 4,
      250,
      ctx.signal,
    );
    if (!final)
      fail(`the SOL withdrawal did not complete (last status ${JSON.stringify(last.data?.status)})`, last.evidence);
    if (final.status !== "completed")
      fail(`the SOL withdrawal ended ${String(final.status)}: ${String(final.error ?? "")}`, last.evidence);
    if (typeof final.tx_hash !== "string") fail("the completed SOL withdrawal has no tx_hash", last.evidence);
    const tx = await rpc.transaction(final.tx_hash);
    if (!tx) fail(`the Solana RPC has no transaction ${final.tx_hash}`, last.evidence);
    const problems: string[] = [];
    if (tx.slot !== final.block_number)
      problems.push(
        `block_number is ${JSON.stringify(final.block_number)}, the transaction landed in slot ${String(tx.slot)}`,
      );
    const meta = tx.meta as { err?: unknown } | undefined;
    if (meta?.err !== null && meta?.err !== undefined)
      problems.push(`the transaction failed on chain: ${JSON.stringify(meta.err)}`);
    const keys = ((tx.transaction as { message?: { accountKeys?: unknown[] } })?.message?.accountKeys ??
      []) as unknown[];
    if (keys[0] !== asset.address)
      problems.push(`the fee payer is ${String(keys[0])}, not the wallet's sol address ${asset.address}`);
    const expected = decimalToUnits(amount, asset.decimals)!;
    await rpc.waitFor(final.tx_hash, "confirmed", ctx.timeoutMs);
    const paid = await rpc.balance(recipient, "confirmed");
    if (paid !== expected)
      problems.push(
        `the recipient holds ${unitsToDecimal(paid, asset.decimals)} SOL, not the ${amount} withdrawn once`,
      );
    if (problems.length > 0)
      fail(`SOL withdrawal ${id}: ${problems.join("; ")}`, { ...last.evidence, details: { transaction: tx } });
  },
};

export const solanaSendTransaction: Check = {
  id: "chains.solana-send-transaction",
  statements: ["s1.other-groups"],
  awaits: ["sol-deposit"],
  group: "chains",
  title:
    "A transfer sent with solana_signAndSendTransaction lands under the signature it answers and pays its recipient",
  severity: "MUST",
  seedRef: "§1 (signing group); assumed: solana_signAndSendTransaction",
  level: "full",
  timeoutScale: 4,
  sends:
    "signRawTransaction with solana_signAndSendTransaction, then getSignatureStatuses and getBalance over --solana-rpc-url",
  async run(ctx) {
    const d = await owned(ctx, "sol-deposit");
    if (!d.reflected) skip("the wallet holds no SOL yet (see chains.solana-deposit-confirmation)");
    const rpc = rpcOf(ctx);
    const asset = await ctx.need("sol-asset");
    const recipient = freshAddress();
    const lamports = 2_000_000n;
    const { blockhash } = await rpc.latestBlockhash("confirmed");
    const message = transferMessage(
      { from: addressBytes(asset.address)!, to: base58.decode(recipient), lamports },
      base58.decode(blockhash),
    );
    const transaction = Buffer.from(encodeTransaction([new Uint8Array(64)], message)).toString("base64");
    const id = acceptedId(
      ctx,
      "signRawTransaction",
      await ctx.call("signRawTransaction", {
        params: { wallet_id: asset.walletId },
        body: { transaction, from: asset.address, method: "solana_signAndSendTransaction" },
      }),
    );
    const { hash, evidence } = await web3Result(ctx, asset.walletId, id);
    const status = await rpc.waitFor(hash, "confirmed", ctx.timeoutMs * 2).catch(() => undefined);
    if (!status) fail(`the answered signature ${hash} never landed on the Solana RPC`, evidence);
    if (status.err !== null && status.err !== undefined)
      fail(`the transaction landed with error ${JSON.stringify(status.err)}`, evidence);
    const paid = await rpc.balance(recipient, "confirmed");
    if (paid !== lamports) fail(`the recipient holds ${paid} lamports, not the ${lamports} sent`, evidence);
  },
};
