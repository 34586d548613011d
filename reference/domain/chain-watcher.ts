// Follows the chain head: scans each new block for transfers to deposit addresses, advances deposit
// confirmations, settles sent withdrawals from their receipts and retries approved ones. One pass at a
// time (a block arriving mid-pass schedules one more pass), driven by the backend's new-block
// notifications plus a slow poll as a safety net (an upstream node may not push blocks).
import type { Hex } from "viem";
import type { ChainClient } from "../chain/chain-client.ts";
import type { StateStore } from "../store/state-store.ts";
import type { DepositService } from "./deposits.ts";
import { SerialRunner } from "./serial-runner.ts";
import type { WithdrawalExecutor } from "./withdrawal-executor.ts";

const CURSOR = "chain.scan_cursor";
const GENESIS = "chain.genesis_hash";
/** Blocks scanned per pass, so catching up on a long chain does not hold everything else back. */
const MAX_BLOCKS_PER_PASS = 500;

export interface WatcherOptions {
  pollIntervalMs?: number;
  onError?: (error: unknown) => void;
}

export class ChainWatcher {
  private readonly runner = new SerialRunner(() => this.guardedPass());
  private unsubscribe: (() => void) | undefined;
  private poll: NodeJS.Timeout | undefined;
  /** Head seen by the last completed pass (for health). */
  lastHead: bigint | undefined;
  lastError: string | undefined;

  constructor(
    private readonly store: StateStore,
    private readonly chain: ChainClient,
    private readonly deposits: DepositService,
    private readonly executor: WithdrawalExecutor,
    private readonly opts: WatcherOptions = {},
  ) {}

  /**
   * Checks that the chain is the one the stored state was built on; on first start records it and
   * starts scanning at the current head. Returns true when the chain was reset since the last run.
   */
  async start(): Promise<{ chainReset: boolean }> {
    const genesis = await this.chain.genesisHash();
    const head = await this.chain.head();
    const known = this.store.getMeta<string>(GENESIS);
    const chainReset = known !== undefined && known !== genesis;
    if (known === undefined || chainReset) {
      this.store.transact((tx) => {
        tx.setMeta(GENESIS, genesis);
        tx.setMeta(CURSOR, head.toString());
      });
    }
    this.unsubscribe = this.chain.backend.onBlock(() => void this.kick());
    this.poll = setInterval(() => void this.kick(), this.opts.pollIntervalMs ?? 2_000);
    this.poll.unref?.();
    void this.kick();
    return { chainReset };
  }

  kick(): Promise<void> {
    return this.runner.kick();
  }

  // Report a failure once, not on every poll while the node stays down.
  private async guardedPass(): Promise<void> {
    try {
      await this.pass();
      this.lastError = undefined;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (message !== this.lastError) this.opts.onError?.(error);
      this.lastError = message;
    }
  }

  async close(): Promise<void> {
    this.unsubscribe?.();
    if (this.poll) clearInterval(this.poll);
    await this.runner.close();
  }

  private async pass(): Promise<void> {
    const head = await this.chain.head();
    let cursor = BigInt(this.store.getMeta<string>(CURSOR) ?? head.toString());
    if (head < cursor) cursor = head; // the chain went backwards (reset): resume from its head
    const end = cursor + BigInt(MAX_BLOCKS_PER_PASS) < head ? cursor + BigInt(MAX_BLOCKS_PER_PASS) : head;
    let scanned = cursor;
    for (let n = cursor + 1n; n <= end && !this.runner.closed; n++) {
      await this.scanBlock(n, end);
      scanned = n;
    }
    // One cursor write per pass, not per block: a crash mid-pass rescans a few blocks, which changes
    // nothing (a deposit's id is its transaction hash, so it is recorded once).
    if (scanned !== cursor) this.store.transact((tx) => tx.setMeta(CURSOR, scanned.toString()));
    if (end < head) this.runner.again();
    if (this.runner.closed) return;
    this.deposits.updateConfirmations(end);
    this.lastHead = head;
    await this.executor.kick();
  }

  private async scanBlock(n: bigint, scannedTo: bigint): Promise<void> {
    if (!this.deposits.watchesAny()) return;
    const block = await this.chain.blockWithTransactions(n);
    for (const t of block.transactions) {
      if (!t.to || t.value === 0n) continue;
      // One index lookup per transfer, whatever the number of deposit addresses.
      const attached = this.deposits.watched(t.to);
      if (!attached || t.from.toLowerCase() === t.to.toLowerCase()) continue;
      // A transfer that reverted moved nothing. A mined transaction without a receipt yet (the node still
      // indexing its block) fails the pass, so the block is scanned again instead of skipped for good.
      const receipt = await this.chain.receipt(t.hash as Hex);
      if (!receipt) throw new Error(`block ${n}: no receipt yet for ${t.hash}; scanning it again`);
      if (receipt.status !== "success") continue;
      this.deposits.recordDetected(
        attached,
        { hash: t.hash, from: t.from, to: t.to, valueWei: t.value, blockNumber: n, blockHash: block.hash as string },
        scannedTo,
      );
    }
  }
}
