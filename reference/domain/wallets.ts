// Wallets: asynchronous creation (pending → success, then a wallet.created event), attached assets and
// their deposit addresses. Each wallet has one address per family (evm, sol, tron), derived from its own
// keys (key-derivation.ts); an attached asset's deposit address is the wallet's address of its family.
import { randomUUID } from "node:crypto";
import type { SolanaKeypair } from "../../lib/solana/keys.ts";
import { badRequest, conflict, notFound } from "../../runtime/errors.ts";
import { assertWorkspace, findWallet } from "./access.ts";
import type { AddressFamily } from "./catalog.ts";
import type { DomainContext } from "./context.ts";
import { publishEvent } from "./events.ts";
import { newId } from "./ids.ts";
import { walletAssetKeys, walletKeys } from "./indexes.ts";
import {
  deriveAddressOf,
  deriveSolanaKeypair,
  deriveWalletAddress,
  deriveWalletPrivateKey,
  type Hex,
} from "./key-derivation.ts";
import type { PageQuery } from "./paging.ts";
import {
  type Actor,
  C,
  type WalletAssetRecord,
  type WalletPurpose,
  type WalletRecord,
  type WalletType,
} from "./records.ts";
import { creationStatusView } from "./views.ts";

export class WalletService {
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly ctx: DomainContext) {}

  create(
    actor: Actor,
    input: { name: string; wallet_type?: WalletType; wallet_purpose?: WalletPurpose },
  ): WalletRecord {
    const now = this.ctx.now().toISOString();
    const wallet: WalletRecord = {
      id: newId(),
      workspace_id: actor.workspaceId,
      name: input.name,
      wallet_type: input.wallet_type ?? "mpc",
      status: "pending",
      mpc_correlation_id: randomUUID(),
      ...(input.wallet_purpose !== undefined ? { wallet_purpose: input.wallet_purpose } : {}),
      created_by: actor.keyId,
      created_at: now,
      updated_at: now,
    };
    const saved = this.ctx.store.transact((tx) => {
      const w = tx.put(C.wallets, wallet);
      return w;
    });
    this.scheduleCompletion(saved.id, this.ctx.settings.walletCreationDelayMs);
    return saved;
  }

  get(actor: Actor, walletId: string): WalletRecord {
    return findWallet(this.ctx.store, actor, walletId);
  }

  /** One page of the workspace's wallets, oldest first. */
  page(actor: Actor, page: PageQuery): WalletRecord[] {
    return this.ctx.store.page<WalletRecord>(
      C.wallets,
      walletKeys.ofWorkspace(actor.workspaceId),
      page.offset,
      page.limit,
    );
  }

  /** Completes every creation a previous run left pending (after a restart with --data). */
  resumePending(): void {
    for (const w of this.ctx.store.scan<WalletRecord>(C.wallets, walletKeys.pending)) {
      this.scheduleCompletion(w.id, 0);
    }
  }

  attachAsset(actor: Actor, walletId: string, assetId: string): WalletAssetRecord {
    const wallet = this.readyWallet(actor, walletId, conflict);
    const asset = this.ctx.catalog.asset(assetId);
    if (!asset) throw badRequest(`asset_id: unknown asset '${assetId}'`);
    const network = this.ctx.catalog.networkOf(asset);
    if (network.disabled)
      throw badRequest(
        `asset_id: ${asset.symbol} is on ${network.name}, which moves no funds; its addresses are read with getDepositAddress?address_type=${asset.address_type}`,
      );
    const id = `${wallet.id}:${asset.id}`;
    // Attaching twice answers the attachment that exists: wallets get their native assets on creation.
    const existing = this.ctx.store.get<WalletAssetRecord>(C.walletAssets, id);
    if (existing) return existing;
    const record: WalletAssetRecord = {
      id,
      workspace_id: wallet.workspace_id,
      wallet_id: wallet.id,
      asset_id: asset.id,
      network_id: asset.network_id,
      address: this.addressOf(wallet, asset.address_type),
      created_at: this.ctx.now().toISOString(),
    };
    return this.ctx.store.transact((tx) => tx.put(C.walletAssets, record));
  }

  attachedAssets(actor: Actor, walletId: string): WalletAssetRecord[] {
    const wallet = findWallet(this.ctx.store, actor, walletId);
    return [...this.ctx.store.scan<WalletAssetRecord>(C.walletAssets, walletAssetKeys.ofWallet(wallet.id))];
  }

  /** One page of a wallet's attached assets, oldest first. */
  attachedAssetsPage(actor: Actor, walletId: string, page: PageQuery): WalletAssetRecord[] {
    const wallet = findWallet(this.ctx.store, actor, walletId);
    return this.ctx.store.page<WalletAssetRecord>(
      C.walletAssets,
      walletAssetKeys.ofWallet(wallet.id),
      page.offset,
      page.limit,
    );
  }

  /** The wallet's address of a family and that family's network; 404 while the wallet is being created. */
  addressOfType(
    actor: Actor,
    walletId: string,
    family: AddressFamily,
  ): { wallet_id: string; network_id: string; address: string } {
    const wallet = this.readyWallet(actor, walletId, notFound);
    return {
      wallet_id: wallet.id,
      network_id: this.ctx.catalog.networkOfFamily(family).id,
      address: this.addressOf(wallet, family),
    };
  }

  /** The address of a ready wallet in a family (the stored EVM address, the others derived). */
  addressOf(wallet: WalletRecord & { address: string }, family: AddressFamily): string {
    return family === "evm" ? wallet.address : deriveAddressOf(this.ctx.masterSeed, wallet.id, family);
  }

  /** The wallet a key signs with when it names none: keys are workspace-wide here, so the oldest ready wallet. */
  defaultWallet(actor: Actor): WalletRecord & { address: string } {
    for (const w of this.ctx.store.scan<WalletRecord>(C.wallets, walletKeys.ofWorkspace(actor.workspaceId))) {
      if (w.status === "success" && w.address) return w as WalletRecord & { address: string };
    }
    throw notFound("no wallet of this workspace has finished creation");
  }

  attachedAsset(actor: Actor, walletId: string, assetId: string): WalletAssetRecord {
    const wallet = findWallet(this.ctx.store, actor, walletId);
    const record = this.ctx.store.get<WalletAssetRecord>(C.walletAssets, `${wallet.id}:${assetId}`);
    if (!record) throw notFound(`asset '${assetId}' is not attached to this wallet`);
    return record;
  }

  /**
   * A wallet that finished creation; withdrawals, attaching and signing need one. `refuse` builds the
   * error for a wallet still being created (409 where the operation declares it, else 400).
   */
  readyWallet(actor: Actor, walletId: string, refuse: (message: string) => Error): WalletRecord & { address: string } {
    const wallet = findWallet(this.ctx.store, actor, walletId);
    if (wallet.status !== "success" || !wallet.address)
      throw refuse(`wallet is not ready (creation status is ${wallet.status})`);
    return wallet as WalletRecord & { address: string };
  }

  privateKeyOf(walletId: string): Hex {
    return deriveWalletPrivateKey(this.ctx.masterSeed, walletId);
  }

  solanaKeypairOf(walletId: string): SolanaKeypair {
    return deriveSolanaKeypair(this.ctx.masterSeed, walletId);
  }

  assertWorkspace(actor: Actor, workspaceId: string): void {
    assertWorkspace(actor, workspaceId);
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private scheduleCompletion(walletId: string, delayMs: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.complete(walletId);
    }, delayMs);
    timer.unref?.();
    this.timers.add(timer);
  }

  private complete(walletId: string): void {
    const wallet = this.ctx.store.get<WalletRecord>(C.wallets, walletId);
    if (wallet?.status !== "pending") return;
    const at = this.ctx.now();
    const updated: WalletRecord = {
      ...wallet,
      status: "success",
      address: deriveWalletAddress(this.ctx.masterSeed, wallet.id),
      updated_at: at.toISOString(),
      completed_at: at.toISOString(),
    };
    this.ctx.store.transact((tx) => {
      tx.put(C.wallets, updated);
      // As on the real service, a new wallet lists its assets with deposit addresses at once
      // (fystack/platform-sdk src/types.ts WalletAsset): the native asset of every network that moves
      // funds is attached on creation.
      for (const asset of this.ctx.catalog.activeNativeAssets()) {
        tx.put<WalletAssetRecord>(C.walletAssets, {
          id: `${wallet.id}:${asset.id}`,
          workspace_id: wallet.workspace_id,
          wallet_id: wallet.id,
          asset_id: asset.id,
          network_id: asset.network_id,
          address: this.addressOf(updated as WalletRecord & { address: string }, asset.address_type),
          created_at: at.toISOString(),
        });
      }
      publishEvent(tx, this.ctx.store, at, wallet.workspace_id, "wallet.created", creationStatusView(updated));
    });
  }
}
