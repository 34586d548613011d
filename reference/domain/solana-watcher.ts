// Follows the Solana runtime's slots as chain-watcher.ts follows EVM blocks: scans each sealed slot
// (every slot below the head; the head slot still takes transactions) for System Program transfers to
// SOL deposit addresses, advances the confirmations of pending SOL deposits and wakes the SOL executor.
// A slot's transactions are read from the runtime's ledger, so a pass after a restart sees the slots
// produced while the wallet API was down, and a rescan of the same slot records nothing twice.
import { base58 } from "@scure/base";
import { systemTransfers } from "../../lib/solana/system-program.ts";
import type { StateStore } from "../store/state-store.ts";
import type { DomainContext } from "./context.ts";
import type { DepositService } from "./deposits.ts";
import type { WalletAssetRecord } from "./records.ts";
import { SerialRunner } from "./serial-runner.ts";
import type { SolanaWithdrawalExecutor } from "./solana-withdrawal-executor.ts";

const CURSOR = "solana.scan_cursor";
const GENESIS = "solana.genesis_hash";

export class SolanaWatcher {
  private readonly runner = new SerialRunner(async () => this.pass());
  private unsubscribe: (() => void) | undefined;
  lastSlot: number | undefined;

  constructor(
    private readonly ctx: DomainContext,
    private readonly deposits: DepositService,
    private readonly executor: SolanaWithdrawalExecutor,
  ) {}

  private get store(): StateStore {
    return this.ctx.store;
  }

  /** Records the ledger the state is built on; true when it was replaced since the last run. */
  start(): { chainReset: boolean } {
    const node = this.ctx.solana;
    if (!node) return { chainReset: false };
    const known = this.store.getMeta<string>(GENESIS);
    const chainReset = known !== undefined && known !== node.genesisHash;
    if (known === undefined || chainReset) {
      this.store.transact((tx) => {
        tx.setMeta(GENESIS, node.genesisHash);
        // The last slot counted as scanned: the one below the head (-1 on a fresh ledger, whose slot 0 is open).
        tx.setMeta(CURSOR, String(node.head - 1));
      });
    }
    this.unsubscribe = node.onSlot(() => void this.kick());
    void this.kick();
    return { chainReset };
  }

  kick(): Promise<void> {
    return this.runner.kick();
  }

  async close(): Promise<void> {
    this.unsubscribe?.();
    await this.runner.close();
  }

  private async pass(): Promise<void> {
    const node = this.ctx.solana!;
    const sealed = node.head - 1;
    let cursor = Number(this.store.getMeta<string>(CURSOR) ?? sealed);
    if (sealed < cursor) cursor = sealed; // the ledger went back (a crash lost slots without transactions)
    if (sealed > cursor) {
      const sol = this.ctx.catalog.nativeAssetOf("sol");
      for (const landed of this.deposits.watchesAny() ? node.transactionsInSlots(cursor + 1, sealed) : []) {
        if (landed.err !== null) continue; // a failed transaction moved nothing but its fee
        // One deposit per (transaction, receiving address), summing that address's transfers in it.
        const received = new Map<string, { attached: WalletAssetRecord; from: string; lamports: bigint }>();
        for (const t of systemTransfers(landed.transaction.message)) {
          const to = base58.encode(t.to);
          const from = base58.encode(t.from);
          const attached = from === to ? undefined : this.deposits.watched(to, sol.id);
          if (attached === undefined) continue;
          const entry = received.get(to) ?? { attached, from, lamports: 0n };
          entry.lamports += t.lamports;
          received.set(to, entry);
        }
        for (const [to, { attached, from, lamports }] of received) {
          if (lamports === 0n) continue;
          const block = node.block(landed.slot);
          this.deposits.recordDetected(
            attached,
            {
              hash: landed.signature,
              key: `sol:${landed.signature}:${to}`,
              from,
              to,
              valueWei: lamports,
              blockNumber: BigInt(landed.slot),
              blockHash: block?.blockhash ?? "",
            },
            BigInt(node.head),
          );
        }
      }
      this.store.transact((tx) => tx.setMeta(CURSOR, String(sealed)));
    }
    this.deposits.updateConfirmations(BigInt(node.head), this.ctx.catalog.solana.id);
    this.lastSlot = node.head;
    await this.executor.kick();
  }
}
