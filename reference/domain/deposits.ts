// Deposits: native transfers to a wallet's deposit address, on the EVM chain and on Solana. Detected
// (deposit.pending) when the transaction is in a block (a slot); confirmed (deposit.confirmed) once it has
// its network's confirmation_blocks confirmations. Deposits never need approval.

import { createHash } from "node:crypto";
import type { DepositEventPayload } from "../../generated/types.ts";
import { formatAmount } from "./amounts.ts";
import type { DomainContext } from "./context.ts";
import { publishEvent } from "./events.ts";
import { uuidFromBytes } from "./ids.ts";
import { depositKeys, walletAssetKeys } from "./indexes.ts";
import { C, type DepositRecord, type WalletAssetRecord } from "./records.ts";
import { listTransaction } from "./transactions.ts";
import { depositEventPayloadView } from "./views.ts";

export interface DetectedTransfer {
  /** The transaction hash (EVM) or signature (Solana). */
  hash: string;
  /** What makes the deposit unique, when the hash alone does not (a Solana transaction can pay several addresses). */
  key?: string;
  from: string;
  to: string;
  valueWei: bigint;
  blockNumber: bigint;
  blockHash: string;
}

export class DepositService {
  constructor(private readonly ctx: DomainContext) {}

  /** Whether any deposit address exists (a block scan with none has nothing to look for). */
  watchesAny(): boolean {
    return this.ctx.store.size(C.walletAssets) > 0;
  }

  /**
   * The attachment of a native asset (default the EVM one) whose deposit address is `address` (what a
   * block scan sees), by index.
   */
  watched(address: string, assetId: string = this.ctx.catalog.nativeAsset().id): WalletAssetRecord | undefined {
    const key = walletAssetKeys.byAddress(address, assetId);
    return this.ctx.store.page<WalletAssetRecord>(C.walletAssets, key, 0, 1)[0];
  }

  /** Records a detected deposit once (a rescan of the same block changes nothing). */
  recordDetected(attached: WalletAssetRecord, t: DetectedTransfer, head: bigint): DepositRecord | undefined {
    const id = uuidFromBytes(
      createHash("sha256")
        .update(t.key ?? t.hash.toLowerCase())
        .digest(),
    );
    if (this.ctx.store.get(C.deposits, id)) return undefined;
    const asset = this.ctx.catalog.asset(attached.asset_id)!;
    const at = this.ctx.now();
    const deposit: DepositRecord = {
      id,
      workspace_id: attached.workspace_id,
      wallet_id: attached.wallet_id,
      asset_id: attached.asset_id,
      network_id: attached.network_id,
      from_address: t.from,
      to_address: attached.address,
      amount: formatAmount(t.valueWei, asset.decimals),
      amount_wei: t.valueWei.toString(),
      tx_hash: t.hash,
      block_number: Number(t.blockNumber),
      block_hash: t.blockHash,
      confirmations: Number(head - t.blockNumber + 1n),
      status: "pending",
      detected_at: at.toISOString(),
      updated_at: at.toISOString(),
    };
    this.ctx.store.transact((tx) => {
      tx.put(C.deposits, deposit);
      listTransaction(tx, "deposit", deposit);
      publishEvent(tx, this.ctx.store, at, deposit.workspace_id, "deposit.pending", this.eventData(deposit));
    });
    return deposit;
  }

  /** Updates confirmations of a network's pending deposits (default EVM); confirms those that reached confirmation_blocks. */
  updateConfirmations(head: bigint, networkId: string = this.ctx.catalog.network.id): void {
    const required = this.ctx.catalog.findNetwork(networkId)!.confirmation_blocks;
    for (const d of this.ctx.store.scan<DepositRecord>(C.deposits, depositKeys.pendingOn(networkId))) {
      const confirmations = Math.max(0, Number(head) - d.block_number + 1);
      if (confirmations === d.confirmations && confirmations < required) continue;
      const at = this.ctx.now();
      const confirmed = confirmations >= required;
      const updated: DepositRecord = {
        ...d,
        confirmations,
        status: confirmed ? "confirmed" : "pending",
        ...(confirmed ? { confirmed_at: at.toISOString() } : {}),
        updated_at: at.toISOString(),
      };
      this.ctx.store.transact((tx) => {
        tx.put(C.deposits, updated);
        if (!confirmed) return;
        publishEvent(tx, this.ctx.store, at, d.workspace_id, "deposit.confirmed", this.eventData(updated));
      });
    }
  }

  /**
   * After the chain was replaced, deposits still pending on the old one can never confirm; without
   * this they would "confirm" once the new chain reached their block height.
   */
  failForChainReset(networkId: string = this.ctx.catalog.network.id): void {
    const stranded = [...this.ctx.store.scan<DepositRecord>(C.deposits, depositKeys.pendingOn(networkId))];
    if (stranded.length === 0) return;
    const at = this.ctx.now().toISOString();
    this.ctx.store.transact((tx) => {
      for (const d of stranded)
        tx.put<DepositRecord>(C.deposits, {
          ...d,
          status: "failed",
          status_reason: "the sandbox chain was reset before the deposit confirmed",
          updated_at: at,
        });
    });
  }

  /** Deposit events carry the deposit as the real service does (direction "in"). */
  eventData(d: DepositRecord): DepositEventPayload {
    return depositEventPayloadView(d);
  }
}
