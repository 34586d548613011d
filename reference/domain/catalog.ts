// The catalog: one EVM network (the sandbox chain) and its native asset. The USD price is a fixed
// sandbox value, not a market price, so balances in USD are reproducible in tests and demos.
import type { Asset, Network } from "../../generated/types.ts";

/** A catalog network: the spec's Network with the fields the sandbox always sets. */
export type NetworkInfo = Network & Required<Pick<Network, "name" | "chain_id" | "native_currency" | "confirmation_blocks">>;

/** A catalog asset: the spec's Asset with the fields the sandbox always sets. */
export type AssetInfo = Asset & Required<Pick<Asset, "name" | "symbol" | "decimals" | "network_id" | "price_usd">>;

// Fixed UUID v4 ids: the real service's SDK refuses asset and network ids that are not UUID v4
// (fystack/platform-sdk src/sdk.ts, requestWithdrawal and rescanTransaction).
export const SANDBOX_NETWORK_ID = "6f1c9a52-3b7e-4d0a-9e21-5c8f0b7d4a10";
export const SANDBOX_ETH_ASSET_ID = "0b9e4f7c-2d61-4a83-b5c9-7e1f3a6d8c20";

/** When the sandbox catalog was defined: its assets' created_at/updated_at (fixed, so runs compare). */
export const CATALOG_DATE = "2025-01-01T00:00:00.000Z";

/** A self-contained logo (no network fetch), since the real service's asset records carry logo_url. */
const SANDBOX_ETH_LOGO = `data:image/svg+xml;utf8,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="16" fill="#627eea"/><text x="16" y="20" font-size="9" text-anchor="middle" fill="#fff">ETH</text></svg>')}`;

/** Sandbox prices: fixed, clearly not live market data. */
export const SANDBOX_PRICES_USD: Readonly<Record<string, string>> = { ETH: "3000.00" };

export class Catalog {
  readonly network: NetworkInfo;
  readonly assets: readonly AssetInfo[];

  constructor(opts: { chainId: number; confirmationBlocks?: number }) {
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
    this.assets = [
      {
        id: SANDBOX_ETH_ASSET_ID,
        name: "Ether (sandbox)",
        symbol: "ETH",
        decimals: 18,
        asset_type: "native",
        is_native: true,
        address_type: "evm",
        is_whitelisted: true,
        network_id: SANDBOX_NETWORK_ID,
        price_usd: SANDBOX_PRICES_USD.ETH,
        logo_url: SANDBOX_ETH_LOGO,
        created_at: CATALOG_DATE,
        updated_at: CATALOG_DATE,
      },
    ];
  }

  networks(): NetworkInfo[] {
    return [this.network];
  }

  findNetwork(id: string): NetworkInfo | undefined {
    return id === this.network.id ? this.network : undefined;
  }

  /** An asset by symbol on a network named by id or internal_code (case-insensitive), as the SDK's asset+network. */
  assetBySymbol(symbol: string, network: string): AssetInfo | undefined {
    const n = network.toLowerCase();
    const net = this.networks().find((x) => x.id.toLowerCase() === n || (x.internal_code ?? "").toLowerCase() === n);
    return net ? this.assets.find((a) => a.network_id === net.id && a.symbol.toLowerCase() === symbol.toLowerCase()) : undefined;
  }

  asset(id: string): AssetInfo | undefined {
    return this.assets.find((a) => a.id === id);
  }

  listAssets(networkId?: string): AssetInfo[] {
    return this.assets.filter((a) => networkId === undefined || a.network_id === networkId);
  }

  /** The native asset of the network: the one whose transfers the deposit watcher sees. */
  nativeAsset(): AssetInfo {
    return this.assets[0];
  }
}
