// The catalog: one network per address family the sandbox knows, each with its native asset.
//   EVM     the embedded anvil chain (or --upstream), ETH;
//   Solana  the embedded LiteSVM runtime, SOL (disabled, addresses only, when the runtime is not installed);
//   Tron    addresses only: Tron transfers are not simulated, so the network is listed as disabled.
// USD prices are fixed sandbox values, not market prices, so balances in USD are reproducible.
import type { Asset, Network, Web3WalletDetail } from "../../generated/types.ts";

/** A catalog network: the spec's Network with the fields the sandbox always sets. */
export type NetworkInfo = Network &
  Required<Pick<Network, "name" | "native_currency" | "confirmation_blocks" | "is_evm" | "disabled">>;

/** evm, sol or tron: the spec's address_type values (AddressType of the real service's SDK). */
export type AddressFamily = Web3WalletDetail["address_type"];

/** A catalog asset: the spec's Asset with the fields the sandbox always sets. */
export type AssetInfo = Asset &
  Required<Pick<Asset, "name" | "symbol" | "decimals" | "network_id" | "price_usd">> & { address_type: AddressFamily };

// Fixed UUID v4 ids: the real service's SDK refuses asset and network ids that are not UUID v4
// (fystack/platform-sdk src/sdk.ts, requestWithdrawal and rescanTransaction).
export const SANDBOX_NETWORK_ID = "6f1c9a52-3b7e-4d0a-9e21-5c8f0b7d4a10";
export const SANDBOX_ETH_ASSET_ID = "0b9e4f7c-2d61-4a83-b5c9-7e1f3a6d8c20";
export const SANDBOX_SOLANA_NETWORK_ID = "3c7d9e1a-5b2f-4e8c-9a6d-1f0b8e2c4d71";
export const SANDBOX_SOL_ASSET_ID = "8a2f6d4c-1e9b-4c3a-b7d5-2e6f0a9c8b42";
export const SANDBOX_TRON_NETWORK_ID = "c5e1a7f3-9d2b-4b6e-8c4a-7d3f1e9b5a83";
export const SANDBOX_TRX_ASSET_ID = "e9b3c1d7-4a6f-4e2b-9d8c-5b1a3f7e2c94";

/** The chain id the real service's SolanaSigner sends for Solana (fystack/platform-sdk src/solanaSigner.ts). */
export const SOLANA_CHAIN_ID = 1399811149;
/** Slots until a Solana deposit counts: the 32-slot depth of Solana's finalized commitment. */
export const SOLANA_CONFIRMATION_SLOTS = 32;

/** When the sandbox catalog was defined: its assets' created_at/updated_at (fixed, so runs compare). */
export const CATALOG_DATE = "2025-01-01T00:00:00.000Z";

/** Sandbox prices: fixed, clearly not live market data. */
export const SANDBOX_PRICES_USD: Readonly<Record<string, string>> = { ETH: "3000.00", SOL: "150.00", TRX: "0.25" };

/** A self-contained logo (no network fetch), since the real service's asset records carry logo_url. */
function logo(symbol: string, color: string): string {
  return `data:image/svg+xml;utf8,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="16" fill="${color}"/><text x="16" y="20" font-size="9" text-anchor="middle" fill="#fff">${symbol}</text></svg>`)}`;
}

function nativeAsset(
  id: string,
  name: string,
  symbol: string,
  decimals: number,
  family: AddressFamily,
  networkId: string,
  color: string,
): AssetInfo {
  return {
    id,
    name,
    symbol,
    decimals,
    asset_type: "native",
    is_native: true,
    address_type: family,
    is_whitelisted: true,
    network_id: networkId,
    price_usd: SANDBOX_PRICES_USD[symbol]!,
    logo_url: logo(symbol, color),
    created_at: CATALOG_DATE,
    updated_at: CATALOG_DATE,
  };
}

export interface CatalogOptions {
  chainId: number;
  confirmationBlocks?: number;
  /** True when the embedded Solana runtime runs; otherwise the Solana network is listed disabled. */
  solana?: boolean;
  solanaConfirmationSlots?: number;
}

export class Catalog {
  /** The EVM network (the first listed). */
  readonly network: NetworkInfo;
  readonly solana: NetworkInfo;
  readonly tron: NetworkInfo;
  readonly assets: readonly AssetInfo[];

  constructor(opts: CatalogOptions) {
    this.network = {
      id: SANDBOX_NETWORK_ID,
      name: "Sandbox EVM",
      is_evm: true,
      chain_id: opts.chainId,
      native_currency: "ETH",
      is_testnet: true,
      internal_code: "SANDBOX_EVM",
      confirmation_blocks: opts.confirmationBlocks ?? 3,
      disabled: false,
    };
    this.solana = {
      id: SANDBOX_SOLANA_NETWORK_ID,
      name: opts.solana
        ? "Sandbox Solana (LiteSVM)"
        : "Sandbox Solana (addresses only: the Solana runtime is not installed)",
      is_evm: false,
      chain_id: SOLANA_CHAIN_ID,
      native_currency: "SOL",
      is_testnet: true,
      internal_code: "SANDBOX_SOL",
      confirmation_blocks: opts.solanaConfirmationSlots ?? SOLANA_CONFIRMATION_SLOTS,
      disabled: !opts.solana,
    };
    this.tron = {
      id: SANDBOX_TRON_NETWORK_ID,
      name: "Sandbox Tron (addresses only: Tron transfers are not simulated)",
      is_evm: false,
      native_currency: "TRX",
      is_testnet: true,
      internal_code: "SANDBOX_TRON",
      // Tron's solidified depth; nothing confirms here, the network moves no funds.
      confirmation_blocks: 19,
      disabled: true,
    };
    this.assets = [
      nativeAsset(SANDBOX_ETH_ASSET_ID, "Ether (sandbox)", "ETH", 18, "evm", SANDBOX_NETWORK_ID, "#627eea"),
      nativeAsset(SANDBOX_SOL_ASSET_ID, "Solana (sandbox)", "SOL", 9, "sol", SANDBOX_SOLANA_NETWORK_ID, "#9945ff"),
      nativeAsset(
        SANDBOX_TRX_ASSET_ID,
        "Tron (sandbox, addresses only)",
        "TRX",
        6,
        "tron",
        SANDBOX_TRON_NETWORK_ID,
        "#ff060a",
      ),
    ];
  }

  networks(): NetworkInfo[] {
    return [this.network, this.solana, this.tron];
  }

  findNetwork(id: string): NetworkInfo | undefined {
    return this.networks().find((n) => n.id === id);
  }

  /** The network of an asset of this catalog. */
  networkOf(asset: AssetInfo): NetworkInfo {
    return this.findNetwork(asset.network_id)!;
  }

  /** The network whose addresses are of `family`. */
  networkOfFamily(family: AddressFamily): NetworkInfo {
    return family === "evm" ? this.network : family === "sol" ? this.solana : this.tron;
  }

  /** An asset by symbol on a network named by id or internal_code (case-insensitive), as the SDK's asset+network. */
  assetBySymbol(symbol: string, network: string): AssetInfo | undefined {
    const n = network.toLowerCase();
    const net = this.networks().find((x) => x.id.toLowerCase() === n || (x.internal_code ?? "").toLowerCase() === n);
    return net
      ? this.assets.find((a) => a.network_id === net.id && a.symbol.toLowerCase() === symbol.toLowerCase())
      : undefined;
  }

  asset(id: string): AssetInfo | undefined {
    return this.assets.find((a) => a.id === id);
  }

  listAssets(networkId?: string): AssetInfo[] {
    return this.assets.filter((a) => networkId === undefined || a.network_id === networkId);
  }

  /** The EVM native asset: the one whose transfers the EVM block watcher sees. */
  nativeAsset(): AssetInfo {
    return this.assets[0]!;
  }

  /** The native asset of a family's network. */
  nativeAssetOf(family: AddressFamily): AssetInfo {
    return this.assets.find((a) => a.address_type === family && a.is_native)!;
  }

  /** Native assets of the networks that move funds: attached to every new wallet. */
  activeNativeAssets(): AssetInfo[] {
    return this.assets.filter((a) => a.is_native && !this.networkOf(a).disabled);
  }
}
