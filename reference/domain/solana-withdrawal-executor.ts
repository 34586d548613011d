// Sends approved SOL withdrawals to the Solana runtime and reconciles each in-flight one until it is
// final. The custodian's rules of withdrawal-executor.ts, with a recent blockhash in the nonce's part:
//   1. build the transfer with a recent blockhash, sign it with the wallet's Ed25519 key and COMMIT the
//      wire bytes, the signature (the transaction id), the blockhash and its last valid block height
//      while the status is still `approved` — before anything is sent;
//   2. send exactly those bytes; commit `processing` + withdrawal.executed;
//   3. on start, on every slot and on a timer, reconcile each in-flight withdrawal:
//        landed, confirmed     → completed, or failed with the chain's error (it paid the fee);
//        unknown, blockhash usable → send the stored bytes again (same signature: it can land once only);
//        unknown, block height past its last valid one → it can never land: failed (blockhash_expired),
//        funds released.
// A withdrawal is signed once and never sent as two different transactions.
import { base58 } from "@scure/base";
import { signBytes } from "../../lib/solana/keys.ts";
import { transferMessage } from "../../lib/solana/system-program.ts";
import { encodeTransaction } from "../../lib/solana/transaction.ts";
import { SolanaTransactionRejected } from "../chain/solana/runtime.ts";
import { transactionErrorText } from "../chain/solana/tx-errors.ts";
import type { DomainContext } from "./context.ts";
import { withdrawalKeys } from "./indexes.ts";
import { C, type WithdrawalRecord } from "./records.ts";
import { SerialRunner } from "./serial-runner.ts";
import type { WalletService } from "./wallets.ts";
import { inFlightWithdrawals } from "./withdrawal-executor.ts";
import { markFailed, markSent, markSettled } from "./withdrawal-transitions.ts";

export interface SolanaExecutorOptions {
  /** Reconcile at least this often, slots or not. Default 2 s. */
  reconcileIntervalMs?: number;
  /** A transaction the runtime does not have is sent again at most this often. Default 2 s. */
  resendAfterMs?: number;
  log?: (message: string) => void;
}

export class SolanaWithdrawalExecutor {
  private readonly runner = new SerialRunner(async () => {
    this.sendApproved();
    this.reconcileInFlight();
  });
  private readonly log: (message: string) => void;
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly ctx: DomainContext,
    private readonly wallets: WalletService,
    private readonly opts: SolanaExecutorOptions = {},
  ) {
    this.log = opts.log ?? (() => undefined);
  }

  start(): void {
    if (this.timer || this.runner.closed || !this.ctx.solana) return;
    this.unsubscribe = this.ctx.solana.onSlot(() => void this.kick());
    this.timer = setInterval(() => void this.kick(), this.opts.reconcileIntervalMs ?? 2_000);
    this.timer.unref?.();
    void this.kick();
  }

  kick(): Promise<void> {
    return this.runner.kick();
  }

  async close(): Promise<void> {
    this.unsubscribe?.();
    if (this.timer) clearInterval(this.timer);
    await this.runner.close();
  }

  /** After the Solana ledger was replaced, transactions signed for the old one cannot land: fail them. */
  failForChainReset(): void {
    for (const w of inFlightWithdrawals(this.ctx.store).filter((w) => this.isMine(w))) {
      markFailed(
        this.ctx,
        w,
        "chain_reset",
        "the sandbox's Solana ledger was reset; the transaction does not exist on the current one",
      );
    }
  }

  private isMine(w: WithdrawalRecord): boolean {
    return w.network_id === this.ctx.catalog.solana.id;
  }

  // ---- steps 1 and 2 ----

  private sendApproved(): void {
    const node = this.ctx.solana;
    if (!node) return;
    const fresh = [...this.ctx.store.scan<WithdrawalRecord>(C.withdrawals, withdrawalKeys.inStatus("approved"))].filter(
      (w) => this.isMine(w) && w.raw_tx === undefined,
    );
    if (fresh.length === 0) return;
    // The confirmed slot's blockhash: the one a wallet would use; usable for the next 150 slots.
    const { blockhash, lastValidBlockHeight } = node.latestBlockhash("confirmed");
    const prepared = fresh.map((w) => this.sign(w, blockhash, lastValidBlockHeight));
    const at = this.ctx.now().toISOString();
    this.ctx.store.transact((tx) => {
      for (const w of prepared) tx.put(C.withdrawals, { ...w, updated_at: at });
    });
    for (const w of prepared) if (!this.runner.closed) this.send(w);
  }

  private sign(w: WithdrawalRecord, blockhash: string, lastValid: number): WithdrawalRecord {
    const keypair = this.wallets.solanaKeypairOf(w.wallet_id);
    const message = transferMessage(
      { from: keypair.publicKey, to: base58.decode(w.recipient_address), lamports: BigInt(w.amount_wei) },
      base58.decode(blockhash),
    );
    const signature = signBytes(message, keypair.seed);
    const wire = encodeTransaction([signature], message);
    return {
      ...w,
      raw_tx: Buffer.from(wire).toString("base64"),
      tx_hash: base58.encode(signature),
      recent_blockhash: blockhash,
      last_valid_block_height: lastValid,
    };
  }

  /** Hands the stored bytes to the runtime; a first send it refuses fails the withdrawal (nothing landed). */
  private send(w: WithdrawalRecord): void {
    const node = this.ctx.solana!;
    try {
      node.sendTransaction(new Uint8Array(Buffer.from(w.raw_tx!, "base64")));
    } catch (error) {
      if (error instanceof SolanaTransactionRejected && error.err !== "AlreadyProcessed") {
        // An expired blockhash is the reconciler's to judge; any other refusal of a first send is final.
        if (error.err !== "BlockhashNotFound" && !w.send_count) {
          markFailed(this.ctx, w, "send_failed", `the chain refused the transaction: ${error.message}`);
          this.log(
            `withdrawal ${w.id}: the Solana runtime refused its transaction: ${error.message}; failed, funds released`,
          );
        }
        return;
      }
      if (!(error instanceof SolanaTransactionRejected)) {
        this.log(
          `withdrawal ${w.id}: sending ${w.tx_hash} failed (${error instanceof Error ? error.message : String(error)}); it stays in flight and is sent again`,
        );
        return;
      }
    }
    markSent(this.ctx, w.id);
  }

  // ---- step 3 ----

  private reconcileInFlight(): void {
    for (const w of inFlightWithdrawals(this.ctx.store).filter((w) => this.isMine(w))) {
      if (this.runner.closed) return;
      this.reconcile(w);
    }
  }

  private reconcile(w: WithdrawalRecord): void {
    const node = this.ctx.solana!;
    const status = node.signatureStatus(w.tx_hash!);
    if (status) {
      if (w.status === "approved") markSent(this.ctx, w.id); // landed before a crash, not yet recorded
      if (status.confirmationStatus === "processed") return;
      const landed = node.transaction(w.tx_hash!)!;
      const block = node.block(landed.slot);
      markSettled(this.ctx, w.id, {
        ok: landed.err === null,
        block_number: landed.slot,
        block_hash: block?.blockhash ?? "",
        gas_used: landed.computeUnits.toString(),
        network_fee_units: landed.fee.toString(),
        confirmed_at: new Date(landed.blockTime * 1000).toISOString(),
        ...(landed.err === null
          ? {}
          : {
              error: `the transaction failed on chain in slot ${landed.slot}: ${transactionErrorText(landed.err)} (it paid the fee)`,
              status_reason: "reverted",
            }),
      });
      return;
    }
    // Expired by Solana's rule (web3.js's too): the block height passed the transaction's last valid one.
    // A blockhash the runtime does not know yet (its head went back a few slots in a crash) is not expired:
    // the same blockhash comes again at the same slot, and the resend below waits for it.
    if (node.head > w.last_valid_block_height!) {
      markFailed(
        this.ctx,
        w,
        "blockhash_expired",
        `its blockhash ${w.recent_blockhash} expired (block height ${node.head} passed ${w.last_valid_block_height}) before the transaction landed; it can never land`,
      );
      this.log(`withdrawal ${w.id}: blockhash expired before its transaction landed; failed, funds released`);
      return;
    }
    const last = w.last_sent_at ? Date.parse(w.last_sent_at) : 0;
    if (w.status === "processing" && this.ctx.now().getTime() - last < (this.opts.resendAfterMs ?? 2_000)) return;
    this.log(
      `withdrawal ${w.id}: transaction ${w.tx_hash} is not known to the Solana runtime; sending the stored bytes again (send ${(w.send_count ?? 0) + 1})`,
    );
    this.send(w);
  }
}
