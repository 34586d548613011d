// Settled withdrawals whose block the confirmed balance may not show yet. A completed (or reverted)
// withdrawal spent its amount and fee in block b; the confirmed balance is read at block
// `head - (confirmation_blocks - 1)`, which reaches b only a few blocks later. Until then the spend is
// held (balances.ts). Only recent settlements can matter, so they are kept here by wallet and asset,
// fed by the store's commits, and dropped once the confirmed block is well past them: a balance read
// costs the wallet's recent settlements, never its whole withdrawal history.
import type { StateStore } from "../store/state-store.ts";
import { C, type WithdrawalRecord } from "./records.ts";

/** Blocks past a settlement after which it is dropped (far beyond any confirmation depth or reorg the sandbox meets). */
const KEEP_BLOCKS = 64;

export class SettlingWithdrawals {
  private readonly byWalletAsset = new Map<string, Map<string, WithdrawalRecord>>();
  /** Highest confirmed block seen; entries at or below `highest - KEEP_BLOCKS` are dropped. */
  private highest = -1;

  constructor(store: StateStore) {
    // Once at start (the history is scanned a single time), then commit by commit.
    for (const w of store.list<WithdrawalRecord>(C.withdrawals, isSettled)) this.track(w);
    store.onCommit((ops) => {
      for (const op of ops) if ("c" in op && op.c === C.withdrawals && "v" in op) this.track(op.v as WithdrawalRecord);
    });
  }

  /** Settlements of this wallet and asset in blocks after `confirmedBlock`. */
  after(walletId: string, assetId: string, confirmedBlock: bigint): WithdrawalRecord[] {
    this.prune(Number(confirmedBlock));
    const entries = this.byWalletAsset.get(key(walletId, assetId));
    if (!entries) return [];
    return [...entries.values()].filter((w) => BigInt(w.block_number as number) > confirmedBlock);
  }

  private track(w: WithdrawalRecord): void {
    const k = key(w.wallet_id, w.asset_id);
    if (isSettled(w) && (w.block_number as number) > this.highest - KEEP_BLOCKS) {
      let entries = this.byWalletAsset.get(k);
      if (!entries) this.byWalletAsset.set(k, (entries = new Map()));
      entries.set(w.id, w);
      return;
    }
    const entries = this.byWalletAsset.get(k);
    entries?.delete(w.id);
    if (entries?.size === 0) this.byWalletAsset.delete(k);
  }

  /** Drops every settlement well below the confirmed block; a full pass only when the block moved on. */
  private prune(confirmed: number): void {
    if (confirmed <= this.highest) return;
    this.highest = confirmed;
    const floor = confirmed - KEEP_BLOCKS;
    for (const [k, entries] of this.byWalletAsset) {
      for (const [id, w] of entries) if ((w.block_number as number) <= floor) entries.delete(id);
      if (entries.size === 0) this.byWalletAsset.delete(k);
    }
  }
}

function isSettled(w: WithdrawalRecord): boolean {
  return (w.status === "completed" || w.status === "failed") && w.block_number !== undefined;
}

function key(walletId: string, assetId: string): string {
  return `${walletId}:${assetId}`;
}
