// Balances come from chain state. The confirmed balance is the address's balance at block
// `latest - (confirmation_blocks - 1)` of its network (on Solana: the slot that deep, from the runtime's
// per-slot history), so a deposit counts once it has confirmation_blocks confirmations and not before.
// on_hold is what withdrawals have reserved but the confirmed state does not show as spent yet;
// available = confirmed - on_hold. A read costs the assets asked for: one head read per call (however
// many wallets), one balance read per asset (cached per block), and the holds of those assets from the
// index: open withdrawals, and settlements by block for the few blocks between the confirmed block and
// the head.
import type { Hex } from "viem";
import { formatAmount, usdValue } from "./amounts.ts";
import { BalanceCache } from "./balance-cache.ts";
import type { AssetInfo, NetworkInfo } from "./catalog.ts";
import type { DomainContext } from "./context.ts";
import { withdrawalKeys } from "./indexes.ts";
import { C, type WalletAssetRecord, type WithdrawalRecord } from "./records.ts";

export interface BalanceView {
  wallet_id: string;
  asset: AssetInfo;
  network: NetworkInfo;
  confirmed_wei: bigint;
  on_hold_wei: bigint;
  available_wei: bigint;
  /** Decimal strings in whole units, and USD values at the sandbox price. */
  balance: string;
  on_hold: string;
  available_balance: string;
  balance_usd: string;
  confirmed_block: number;
  refreshed_at: string;
}

/** Blocks past the head in which a settlement is still looked for (a receipt can be newer than the head read). */
const SETTLED_MARGIN_BLOCKS = 16;

export class BalanceService {
  // Balances at a block never change; the head is still read on every call, so nothing older than
  // the chain's current confirmed block is ever served.
  private readonly cache = new BalanceCache();

  constructor(private readonly ctx: DomainContext) {}

  /** The block whose state counts as confirmed. */
  async confirmedBlock(): Promise<bigint> {
    const head = await this.ctx.chain.head();
    this.cache.seeHead(head);
    const depth = BigInt(this.ctx.catalog.network.confirmation_blocks - 1);
    return head > depth ? head - depth : 0n;
  }

  /** The Solana slot whose state counts as confirmed. */
  confirmedSlot(): bigint {
    const head = BigInt(this.ctx.solana?.head ?? 0);
    const depth = BigInt(this.ctx.catalog.solana.confirmation_blocks - 1);
    return head > depth ? head - depth : 0n;
  }

  async balanceOf(attached: WalletAssetRecord): Promise<BalanceView> {
    if (this.isSolana(attached)) return this.balanceAtBlock(attached, this.confirmedSlot());
    return this.balanceAtBlock(attached, await this.confirmedBlock());
  }

  /** Balances of several attached assets; the EVM ones all at one confirmed block (one head read for all). */
  async balancesOf(attached: readonly WalletAssetRecord[]): Promise<BalanceView[]> {
    return (await this.balancesOfEach([attached]))[0];
  }

  /**
   * Balances of several groups of attached assets (a page of wallets): the EVM ones all at one confirmed
   * block (one head read for all), the Solana ones at one confirmed slot.
   */
  async balancesOfEach(groups: readonly (readonly WalletAssetRecord[])[]): Promise<BalanceView[][]> {
    if (groups.every((g) => g.length === 0)) return groups.map(() => []);
    const evmBlock = groups.some((g) => g.some((a) => !this.isSolana(a))) ? await this.confirmedBlock() : 0n;
    const slot = this.confirmedSlot();
    return Promise.all(
      groups.map((g) => Promise.all(g.map((a) => this.balanceAtBlock(a, this.isSolana(a) ? slot : evmBlock)))),
    );
  }

  private isSolana(attached: WalletAssetRecord): boolean {
    return attached.network_id === this.ctx.catalog.solana.id;
  }

  /** The chain's balance of the attachment's address at a block (a slot on Solana). */
  private chainBalance(attached: WalletAssetRecord, block: bigint): Promise<bigint> {
    if (this.isSolana(attached))
      return Promise.resolve(this.ctx.solana?.balance(attached.address, Number(block)) ?? 0n);
    const address = attached.address as Hex;
    return this.cache.balanceAt(address, block, () => this.ctx.chain.balanceAt(address, block));
  }

  private async balanceAtBlock(attached: WalletAssetRecord, block: bigint): Promise<BalanceView> {
    const asset = this.ctx.catalog.asset(attached.asset_id) as AssetInfo;
    const network = this.ctx.catalog.networkOf(asset);
    const confirmed = await this.chainBalance(attached, block);
    const onHold = this.onHoldWei(attached.wallet_id, asset.id, block);
    const available = confirmed > onHold ? confirmed - onHold : 0n;
    return {
      wallet_id: attached.wallet_id,
      asset,
      network,
      confirmed_wei: confirmed,
      on_hold_wei: onHold,
      available_wei: available,
      balance: formatAmount(confirmed, asset.decimals),
      on_hold: formatAmount(onHold, asset.decimals),
      available_balance: formatAmount(available, asset.decimals),
      balance_usd: usdValue(confirmed, asset.decimals, asset.price_usd),
      confirmed_block: Number(block),
      refreshed_at: this.ctx.now().toISOString(),
    };
  }

  /**
   * Amount + fee reserved by open withdrawals, plus what settled withdrawals spent in blocks newer than
   * the confirmed block (the confirmed balance does not show those as spent yet).
   */
  onHoldWei(walletId: string, assetId: string, confirmedBlock: bigint): bigint {
    let total = 0n;
    for (const w of this.ctx.store.scan<WithdrawalRecord>(C.withdrawals, withdrawalKeys.open(walletId, assetId))) {
      total += BigInt(w.amount_wei) + BigInt(w.fee_reserve_wei);
    }
    // Settled in a block (a slot on Solana) the confirmed state does not reach yet: up to the head, plus
    // a margin for a receipt newer than the head this read saw.
    const network = this.ctx.catalog.networkOf(this.ctx.catalog.asset(assetId) as AssetInfo);
    const first = Number(confirmedBlock) + 1;
    const last = first + network.confirmation_blocks + SETTLED_MARGIN_BLOCKS;
    for (let block = first; block <= last; block++) {
      for (const w of this.ctx.store.scan<WithdrawalRecord>(
        C.withdrawals,
        withdrawalKeys.settledIn(walletId, assetId, block),
      )) {
        const fee =
          w.network_fee_units !== undefined
            ? BigInt(w.network_fee_units)
            : BigInt(w.gas_used ?? "0") * BigInt(w.effective_gas_price_wei ?? "0");
        total += fee + (w.status === "completed" ? BigInt(w.amount_wei) : 0n);
      }
    }
    return total;
  }
}
