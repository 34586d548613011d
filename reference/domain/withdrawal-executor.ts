// Sends approved withdrawals on chain and settles them from receipts.
//
// Crash safety, step by step:
//   1. prepare: pick the nonce, sign with the wallet's derived key, and COMMIT raw_tx + tx_hash + nonce
//      while the status is still `approved`;
//   2. broadcast exactly those bytes; then commit `processing` + withdrawal.executed.
// After a restart, an `approved` withdrawal with a raw_tx is broadcast again with the same bytes (same
// nonce, same hash: the chain can include it at most once), and a `processing` one is only watched for
// its receipt. A withdrawal is therefore never signed twice and never sent as two different transactions.
import { keccak256, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { ChainRpcError } from "../chain/backend.ts";
import { TRANSFER_GAS } from "../chain/chain-client.ts";
import type { DomainContext } from "./context.ts";
import { publishEvent } from "./events.ts";
import { C, type WithdrawalRecord } from "./records.ts";
import type { WalletService } from "./wallets.ts";
import { withdrawalEventData } from "./withdrawals.ts";
import { SerialRunner } from "./serial-runner.ts";

export class WithdrawalExecutor {
  private readonly runner = new SerialRunner(async () => {
    await this.sendApproved();
    await this.settleProcessing();
  });
  /** Last transient error (chain unreachable); the next kick retries. */
  lastError: string | undefined;

  constructor(
    private readonly ctx: DomainContext,
    private readonly wallets: WalletService,
  ) {}

  /** Runs a pass now, or right after the one in progress. */
  kick(): Promise<void> {
    return this.runner.kick();
  }

  async close(): Promise<void> {
    await this.runner.close();
  }

  /**
   * After the chain was replaced (the embedded chain is not persisted, or --upstream points elsewhere),
   * transactions signed for the old chain do not exist: fail them with a clear reason instead of
   * watching forever.
   */
  failForChainReset(): void {
    const stranded = this.ctx.store.list<WithdrawalRecord>(C.withdrawals, (w) => w.status === "processing" || (w.status === "approved" && w.raw_tx !== undefined));
    for (const w of stranded) this.markFailed(w, "the sandbox chain was reset; the transaction does not exist on the current chain");
  }

  private async sendApproved(): Promise<void> {
    const approved = this.ctx.store.list<WithdrawalRecord>(C.withdrawals, (w) => w.status === "approved");
    for (const w of approved) {
      if (this.runner.closed) return;
      try {
        const prepared = w.raw_tx ? w : await this.prepare(w);
        await this.broadcast(prepared);
        this.lastError = undefined;
      } catch (error) {
        // Not answered by the chain (unreachable, closed): leave it approved, the next pass retries.
        this.lastError = error instanceof Error ? error.message : String(error);
      }
    }
  }

  private async prepare(w: WithdrawalRecord): Promise<WithdrawalRecord> {
    const account = privateKeyToAccount(this.wallets.privateKeyOf(w.wallet_id));
    const nonce = Math.max(await this.ctx.chain.pendingNonce(account.address), this.nextStoredNonce(w.from_address));
    const fees = await this.ctx.chain.fees();
    const raw = await account.signTransaction({
      type: "eip1559",
      chainId: this.ctx.chain.chainId,
      nonce,
      to: w.recipient_address as Hex,
      value: BigInt(w.amount_wei),
      gas: TRANSFER_GAS,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas < fees.maxFeePerGas ? fees.maxPriorityFeePerGas : fees.maxFeePerGas,
    });
    const prepared: WithdrawalRecord = { ...w, nonce, raw_tx: raw, tx_hash: keccak256(raw), updated_at: this.ctx.now().toISOString() };
    this.ctx.store.transact((tx) => {
      tx.put(C.withdrawals, prepared);
    });
    return prepared;
  }

  /** Nonces taken by signed-but-unsettled transactions of this address, so two in flight never collide. */
  private nextStoredNonce(address: string): number {
    let next = 0;
    for (const w of this.ctx.store.list<WithdrawalRecord>(C.withdrawals, (w) => w.from_address === address && w.nonce !== undefined)) {
      if (w.status === "approved" || w.status === "processing") next = Math.max(next, (w.nonce as number) + 1);
    }
    return next;
  }

  private async broadcast(w: WithdrawalRecord): Promise<void> {
    const raw = w.raw_tx as Hex;
    const hash = w.tx_hash as Hex;
    try {
      await this.ctx.chain.sendRaw(raw);
    } catch (error) {
      // "already known" after a resend, or mined meanwhile: the same bytes are on chain, that is success.
      const known = await this.ctx.chain.knowsTransaction(hash).catch(() => false);
      if (!known) {
        if (error instanceof ChainRpcError) {
          this.markFailed(w, `the chain refused the transaction: ${error.message}`);
          return;
        }
        throw error;
      }
    }
    const at = this.ctx.now();
    const sent: WithdrawalRecord = { ...w, status: "processing", sent_at: at.toISOString(), updated_at: at.toISOString() };
    this.ctx.store.transact((tx) => {
      tx.put(C.withdrawals, sent);
      publishEvent(tx, this.ctx.store, at, w.workspace_id, "withdrawal.executed", withdrawalEventData(sent));
    });
  }

  /** Completes or fails every `processing` withdrawal whose receipt exists. */
  async settleProcessing(): Promise<void> {
    const processing = this.ctx.store.list<WithdrawalRecord>(C.withdrawals, (w) => w.status === "processing");
    for (const w of processing) {
      if (this.runner.closed) return;
      try {
        await this.settle(w);
      } catch (error) {
        this.lastError = error instanceof Error ? error.message : String(error);
      }
    }
  }

  private async settle(w: WithdrawalRecord): Promise<void> {
    const receipt = await this.ctx.chain.receipt(w.tx_hash as Hex);
    if (!receipt) return;
    const block = await this.ctx.chain.blockHeader(receipt.blockNumber);
    const at = this.ctx.now();
    const ok = receipt.status === "success";
    const current = this.ctx.store.get<WithdrawalRecord>(C.withdrawals, w.id);
    if (!current || current.status !== "processing") return;
    const settled: WithdrawalRecord = {
      ...current,
      status: ok ? "completed" : "failed",
      block_number: Number(receipt.blockNumber),
      block_hash: receipt.blockHash,
      gas_used: receipt.gasUsed.toString(),
      effective_gas_price_wei: receipt.effectiveGasPrice.toString(),
      confirmed_at: new Date(Number(block.timestamp) * 1000).toISOString(),
      ...(ok ? {} : { error: "the transaction reverted on chain", status_reason: "reverted" }),
      updated_at: at.toISOString(),
    };
    this.ctx.store.transact((tx) => {
      tx.put(C.withdrawals, settled);
      publishEvent(tx, this.ctx.store, at, w.workspace_id, ok ? "withdrawal.confirmed" : "withdrawal.failed", withdrawalEventData(settled));
    });
  }

  private markFailed(w: WithdrawalRecord, message: string): void {
    const at = this.ctx.now();
    const failed: WithdrawalRecord = { ...w, status: "failed", error: message, status_reason: "send_failed", updated_at: at.toISOString() };
    this.ctx.store.transact((tx) => {
      tx.put(C.withdrawals, failed);
      publishEvent(tx, this.ctx.store, at, w.workspace_id, "withdrawal.failed", withdrawalEventData(failed));
    });
  }
}
