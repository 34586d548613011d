// What every domain service shares: the store, the clock, the catalog, the chains and the key seed.
import type { ChainClient } from "../chain/chain-client.ts";
import type { SolanaRuntime } from "../chain/solana/runtime.ts";
import type { StateStore } from "../store/state-store.ts";
import type { Catalog } from "./catalog.ts";

export interface DomainSettings {
  /** Delay between createWallet and the wallet becoming `success` (the seed's creation is asynchronous). */
  walletCreationDelayMs: number;
  /** Approvals a withdrawal needs before it is sent (the sandbox policy: 1, by an admin or owner key). */
  requiredApprovals: number;
}

export const DEFAULT_DOMAIN_SETTINGS: DomainSettings = { walletCreationDelayMs: 500, requiredApprovals: 1 };

export interface DomainContext {
  store: StateStore;
  now: () => Date;
  catalog: Catalog;
  chain: ChainClient;
  /** The embedded Solana runtime, when it runs (see reference/chain/solana). */
  solana?: SolanaRuntime;
  /** Master seed of every wallet key (see key-derivation.ts). */
  masterSeed: Uint8Array;
  settings: DomainSettings;
}
