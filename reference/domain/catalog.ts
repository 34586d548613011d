// The catalog: one EVM network (the sandbox chain) and its native asset. The USD price is a fixed
// sandbox value, not a market price, so balances in USD are reproducible in tests and demos.
import type { Asset, Network } from "../../generated/types.ts";

/** A catalog network: the spec's Network with the fields the sandbox always sets. */
export type NetworkInfo = Network & Required<Pick<Network, "name" | "chain_id" | "native_currency" | "confirmation_blocks">>;

/** A catalog asset: the spec's Asset with the fields the sandbox always sets. */
export type AssetInfo = Asset & Required<Pick<Asset, "name" | "symbol" | "decimals" | "network_id" | "price_usd">>;

export const SANDBOX_NETWORK_ID = "net_sandbox_evm";
export const SANDBOX_ETH_ASSET_ID = "ast_sandbox_eth";

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
      },
    ];
  }

  networks(): NetworkInfo[] {
    return [this.network];
  }

  findNetwork(id: string): NetworkInfo | undefined {
    return id === this.network.id ? this.network : undefined;
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
