// Sends approved withdrawals on chain and reconciles every in-flight one with the chain until it is final.
//
// The custodian's rules:
//   1. allocate the nonce (NonceAllocator: one place per wallet), sign with the wallet's derived key,
//      and COMMIT raw_tx + tx_hash + nonce while the status is still `approved` — before any broadcast;
//   2. broadcast exactly those bytes; commit `processing` + withdrawal.executed, with last_sent_at;
//   3. on start, on every new block and on a timer, reconcile each in-flight withdrawal (approved with a
//      stored transaction, or processing):
//        receipt               → completed (withdrawal.confirmed), or failed with the chain's reason;
//        known to the node     → keep waiting;
//        unknown, nonce free   → send the stored bytes again (same hash: funds can never move twice);
//        unknown, nonce passed → another transaction used the nonce: failed, funds released.
// A withdrawal is never signed twice and never sent as two different transactions; one that waits is
// resent and logged, and its record says when it was last sent.
import { type Hex, keccak256 } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { ChainRpcError } from "../chain/backend.ts";
import { type ChainFees, TRANSFER_GAS } from "../chain/chain-client.ts";
import type { StateStore } from "../store/state-store.ts";
import type { DomainContext } from "./context.ts";
import { withdrawalKeys } from "./indexes.ts";
import { isInFlight, NonceAllocator } from "./nonce-allocator.ts";
import { C, type WithdrawalRecord } from "./records.ts";
import { SerialRunner } from "./serial-runner.ts";
import type { WalletService } from "./wallets.ts";
import { markFailed, markSent, markSettled } from "./withdrawal-transitions.ts";

export interface ExecutorOptions {
  /** Reconcile at least this often, blocks or not. Default 2 s. */
  reconcileIntervalMs?: number;
  /** A transaction the node does not know is sent again at most this often. Default 2 s. */
  resendAfterMs?: number;
  /** Notices worth an operator's eye (resends, failures). */
  log?: (message: string) => void;
  /** The deployment's one allocator, shared with /web3 raw-transaction signing. Default: the executor's own. */
  nonces?: NonceAllocator;
}

/** Chain calls made at once while reconciling. */
const PARALLEL_CHECKS = 16;

export class WithdrawalExecutor {
  private readonly runner = new SerialRunner(async () => {
    await this.sendApproved();
    await this.reconcileInFlight();
  });
  private readonly nonces: NonceAllocator;
  private readonly log: (message: string) => void;
  private timer: NodeJS.Timeout | undefined;
  /** Last transient error (chain unreachable); the next pass retries. */
  lastError: string | undefined;

  constructor(
    private readonly ctx: DomainContext,
    private readonly wallets: WalletService,
    private readonly opts: ExecutorOptions = {},
  ) {
    this.nonces = opts.nonces ?? new NonceAllocator(ctx);
    this.log = opts.log ?? (() => undefined);
  }

  /** Reconciles now (what a previous run left in flight) and then on a timer. */
  start(): void {
    if (this.timer || this.runner.closed) return;
    this.timer = setInterval(() => void this.kick(), this.opts.reconcileIntervalMs ?? 2_000);
    this.timer.unref?.();
    void this.kick();
  }

  /** The EVM network's withdrawals are this executor's; Solana's are solana-withdrawal-executor.ts's. */
  private isMine(w: WithdrawalRecord): boolean {
    return w.network_id === this.ctx.catalog.network.id;
  }

  /** Runs a pass now, or right after the one in progress. */
  kick(): Promise<void> {
    return this.runner.kick();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.runner.close();
  }

  /**
   * After the chain was replaced (its state file removed, or --upstream points elsewhere), transactions
   * signed for the old chain do not exist: fail them with a clear reason instead of watching forever.
   */
  failForChainReset(): void {
    for (const w of inFlightWithdrawals(this.ctx.store).filter((w) => this.isMine(w))) {
      this.commitFailed(
        w,
        "chain_reset",
        "the sandbox chain was reset; the transaction does not exist on the current chain",
      );
    }
  }

  // ---- step 1 and 2: new approvals ----

  private async sendApproved(): Promise<void> {
    const fresh = [...this.ctx.store.scan<WithdrawalRecord>(C.withdrawals, withdrawalKeys.inStatus("approved"))].filter(
      (w) => this.isMine(w) && w.raw_tx === undefined,
    );
    if (fresh.length === 0) return;
    let prepared: WithdrawalRecord[];
    try {
      prepared = await this.prepareAll(fresh);
    } catch (error) {
      // Chain unreachable before anything was signed: they stay approved, the next pass retries.
      this.lastError = error instanceof Error ? error.message : String(error);
      return;
    }
    await inBatches(
      groupBy(prepared, (w) => w.from_address),
      PARALLEL_CHECKS,
      async (ofAddress) => {
        // One address's transactions in nonce order, so the node never has to queue a gap.
        for (const w of ofAddress) {
          if (this.runner.closed) return;
          await this.send(w);
        }
      },
    );
  }

  /** Allocates nonces, signs, and commits every signed transaction in one transaction, before any send. */
  private prepareAll(fresh: WithdrawalRecord[]): Promise<WithdrawalRecord[]> {
    // Exclusive until committed: the nonces are held by stored in-flight records from then on.
    return this.nonces.exclusive(async () => {
      const fees = await this.ctx.chain.fees();
      const prepared: WithdrawalRecord[] = [];
      for (const [address, list] of groupBy(fresh, (w) => w.from_address)) {
        const nonces = await this.nonces.allocate(address, list.length);
        for (let i = 0; i < list.length; i++) prepared.push(await this.sign(list[i]!, nonces[i]!, fees));
      }
      const at = this.ctx.now().toISOString();
      this.ctx.store.transact((tx) => {
        for (const w of prepared) tx.put(C.withdrawals, { ...w, updated_at: at });
      });
      return prepared.sort((a, b) => (a.nonce as number) - (b.nonce as number));
    });
  }

  private async sign(w: WithdrawalRecord, nonce: number, fees: ChainFees): Promise<WithdrawalRecord> {
    const account = privateKeyToAccount(this.wallets.privateKeyOf(w.wallet_id));
    const raw = await account.signTransaction({
      type: "eip1559",
      chainId: this.ctx.chain.chainId,
      nonce,
      to: w.recipient_address as Hex,
      value: BigInt(w.amount_wei),
      gas: TRANSFER_GAS,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas:
        fees.maxPriorityFeePerGas < fees.maxFeePerGas ? fees.maxPriorityFeePerGas : fees.maxFeePerGas,
    });
    return { ...w, nonce, raw_tx: raw, tx_hash: keccak256(raw) };
  }

  /** Hands the stored bytes to the node and records it; a first send that the chain refuses fails the withdrawal. */
  private async send(w: WithdrawalRecord): Promise<void> {
    try {
      await this.ctx.chain.sendRaw(w.raw_tx as Hex);
    } catch (error) {
      // "already known" after a resend, or mined meanwhile: the same bytes are on chain, that is success.
      const known = await this.ctx.chain.knowsTransaction(w.tx_hash as Hex).catch(() => false);
      if (!known) {
        if (error instanceof ChainRpcError && !w.send_count) {
          // Never accepted by the node: nothing can be mined; its nonce is released to the next withdrawal.
          this.commitFailed(w, "send_failed", `the chain refused the transaction: ${error.message}`);
          this.log(
            `withdrawal ${w.id}: the chain refused its transaction (nonce ${w.nonce}): ${error.message}; failed, funds released`,
          );
          return;
        }
        this.lastError = error instanceof Error ? error.message : String(error);
        this.log(
          `withdrawal ${w.id}: sending ${w.tx_hash} failed (${this.lastError}); it stays in flight and is sent again`,
        );
        return;
      }
    }
    this.commitSent(w);
  }

  private commitSent(w: WithdrawalRecord): void {
    markSent(this.ctx, w.id);
  }

  // ---- step 3: reconciliation ----

  private async reconcileInFlight(): Promise<void> {
    const inFlight = inFlightWithdrawals(this.ctx.store).filter((w) => this.isMine(w));
    await inBatches(
      inFlight.map((w) => [w.id, [w]] as const),
      PARALLEL_CHECKS,
      async ([w]) => {
        if (this.runner.closed) return;
        try {
          await this.reconcile(w);
        } catch (error) {
          this.lastError = error instanceof Error ? error.message : String(error);
        }
      },
    );
  }

  private async reconcile(w: WithdrawalRecord): Promise<void> {
    if (await this.settleIfMined(w)) return;
    // Handed to the node moments ago: only the receipt is worth asking for until a resend could be due.
    const last = w.last_sent_at ? Date.parse(w.last_sent_at) : 0;
    const resendDue =
      w.status !== "processing" || this.ctx.now().getTime() - last >= (this.opts.resendAfterMs ?? 2_000);
    if (!resendDue) return;
    const hash = w.tx_hash as Hex;
    if (await this.ctx.chain.knowsTransaction(hash)) {
      if (w.status === "approved") this.commitSent(w); // sent before a crash, not yet recorded
      return;
    }
    const mined = await this.ctx.chain.minedNonce(w.from_address as Hex);
    if (mined > (w.nonce as number)) {
      // Mined between the two checks, or another transaction took the nonce: the receipt decides.
      if (await this.settleIfMined(w)) return;
      this.commitFailed(
        w,
        "nonce_used",
        `nonce ${w.nonce} of ${w.from_address} was used by another transaction; this withdrawal's transaction can never be mined`,
      );
      this.log(`withdrawal ${w.id}: nonce ${w.nonce} was used by another transaction; failed, funds released`);
      return;
    }
    this.log(
      `withdrawal ${w.id}: transaction ${hash} (nonce ${w.nonce}) is not known to the node; sending the stored bytes again (send ${(w.send_count ?? 0) + 1})`,
    );
    await this.send(w);
  }

  /** Settles from the receipt when there is one; true if it did. */
  private async settleIfMined(w: WithdrawalRecord): Promise<boolean> {
    const receipt = await this.ctx.chain.receipt(w.tx_hash as Hex);
    if (!receipt) return false;
    const block = await this.ctx.chain.blockHeader(receipt.blockNumber);
    const ok = receipt.status === "success";
    markSettled(this.ctx, w.id, {
      ok,
      block_number: Number(receipt.blockNumber),
      block_hash: receipt.blockHash,
      gas_used: receipt.gasUsed.toString(),
      effective_gas_price_wei: receipt.effectiveGasPrice.toString(),
      confirmed_at: new Date(Number(block.timestamp) * 1000).toISOString(),
      ...(ok
        ? {}
        : {
            error: `the transaction reverted on chain (status 0 in block ${receipt.blockNumber})`,
            status_reason: "reverted",
          }),
    });
    return true;
  }

  private commitFailed(w: WithdrawalRecord, reason: string, message: string): void {
    markFailed(this.ctx, w, reason, message);
  }
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** Runs `work` over the groups, at most `limit` at once. */
async function inBatches<K, T>(
  groups: Iterable<readonly [K, T[]]>,
  limit: number,
  work: (items: T[]) => Promise<void>,
): Promise<void> {
  const queue = [...groups];
  const workers = Array.from({ length: Math.min(limit, queue.length) }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await work(next[1]);
  });
  await Promise.all(workers);
}

/** Every withdrawal in flight, oldest first, from the status index (approved ones not yet signed are left out). */
export function inFlightWithdrawals(store: StateStore): WithdrawalRecord[] {
  return [
    ...store.scan<WithdrawalRecord>(
      C.withdrawals,
      withdrawalKeys.inStatus("approved"),
      withdrawalKeys.inStatus("processing"),
    ),
  ].filter(isInFlight);
}
