// The embedded EVM chain behind the sandbox's node access.
//
// Why ganache 7.9.2's in-process provider: it runs inside this Node process (no binary to download, no
// child process to supervise), exposes an EIP-1193 `request`, mines blocks on its own at a fixed
// interval (`miner.blockTime`: transactions wait for the next block, so deposits gain confirmations
// over time like on a real network), and works on Node 20. Hardhat 3 needs Node 22; anvil is a native
// binary download.
import ganache from "ganache";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import { BlockListeners, ChainRpcError, toNewBlock, type BlockListener, type ChainBackend, type RpcCall } from "./backend.ts";

export interface EmbeddedChainOptions {
  /** EIP-155 chain id (also used as the network id). Default 1337, ganache's own default. */
  chainId?: number;
  /** Seconds between blocks; fractions allowed; 0 mines every transaction at once. Default 1. */
  blockTimeSeconds?: number;
  /** 0x-prefixed 32-byte hex key of the funded faucet account; generated when absent. */
  faucetPrivateKey?: string;
  /** Faucet balance in wei. Default 1,000,000 ether. */
  faucetBalanceWei?: bigint;
  /** Folder where ganache keeps the chain (LevelDB) so it survives a restart; in memory when absent. */
  dbPath?: string;
}

export interface Faucet {
  privateKey: `0x${string}`;
  address: `0x${string}`;
}

/** The part of ganache's provider this module uses (its published types are far wider). */
interface GanacheProvider {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
  on(event: "message", listener: (message: unknown) => void): unknown;
  disconnect(): Promise<void>;
}

const DEFAULT_CHAIN_ID = 1337;
const DEFAULT_FAUCET_BALANCE_WEI = 1_000_000n * 10n ** 18n;

export class EmbeddedChain implements ChainBackend {
  readonly kind = "embedded" as const;
  readonly chainId: number;
  readonly blockTimeSeconds: number;
  readonly faucet: Faucet;
  readonly #provider: GanacheProvider;
  readonly #listeners = new BlockListeners();
  #headsSubscription: Promise<string> | undefined;
  #closed = false;

  private constructor(provider: GanacheProvider, chainId: number, blockTimeSeconds: number, faucet: Faucet) {
    this.#provider = provider;
    this.chainId = chainId;
    this.blockTimeSeconds = blockTimeSeconds;
    this.faucet = faucet;
  }

  /** Starts the chain and resolves once it answers requests. */
  static async start(options: EmbeddedChainOptions = {}): Promise<EmbeddedChain> {
    const chainId = options.chainId ?? DEFAULT_CHAIN_ID;
    const blockTimeSeconds = options.blockTimeSeconds ?? 1;
    if (!Number.isSafeInteger(chainId) || chainId <= 0) throw new Error(`chainId must be a positive integer, got ${chainId}`);
    if (!Number.isFinite(blockTimeSeconds) || blockTimeSeconds < 0) {
      throw new Error(`blockTimeSeconds must be a number >= 0, got ${blockTimeSeconds}`);
    }
    const faucet = faucetFrom(options.faucetPrivateKey);
    const balance = options.faucetBalanceWei ?? DEFAULT_FAUCET_BALANCE_WEI;
    const provider = ganache.provider({
      logging: { quiet: true },
      chain: { chainId, networkId: chainId },
      miner: { blockTime: blockTimeSeconds },
      wallet: { accounts: [{ secretKey: faucet.privateKey, balance: `0x${balance.toString(16)}` }] },
      ...(options.dbPath ? { database: { dbPath: options.dbPath } } : {}),
    }) as unknown as GanacheProvider;
    const chain = new EmbeddedChain(provider, chainId, blockTimeSeconds, faucet);
    await chain.request({ method: "eth_blockNumber" });
    return chain;
  }

  async request(call: RpcCall): Promise<unknown> {
    if (this.#closed) throw new ChainRpcError(-32000, "the embedded chain is closed");
    try {
      return await this.#provider.request({ method: call.method, params: call.params ?? [] });
    } catch (error) {
      throw asChainError(error);
    }
  }

  onBlock(listener: BlockListener): () => void {
    const remove = this.#listeners.add(listener);
    this.#ensureHeadsSubscription();
    return remove;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#listeners.clear();
    await this.#provider.disconnect();
  }

  // One internal newHeads subscription feeds every listener; ganache pushes it as a "message" event.
  #ensureHeadsSubscription(): void {
    if (this.#headsSubscription || this.#closed) return;
    const subscription = this.#provider.request({ method: "eth_subscribe", params: ["newHeads"] }).then(String);
    this.#headsSubscription = subscription;
    this.#provider.on("message", (message) => {
      const data = (message as { type?: string; data?: { subscription?: unknown; result?: unknown } }).data;
      if ((message as { type?: string }).type !== "eth_subscription" || !data) return;
      void subscription.then((id) => {
        if (data.subscription !== id) return;
        const block = toNewBlock(data.result);
        if (block) this.#listeners.emit(block);
      });
    });
    subscription.catch(() => {
      // Only fails if the chain was closed meanwhile; nothing left to notify.
    });
  }
}

/** Starts an embedded chain (see EmbeddedChain). */
export function startEmbeddedChain(options: EmbeddedChainOptions = {}): Promise<EmbeddedChain> {
  return EmbeddedChain.start(options);
}

function faucetFrom(privateKey: string | undefined): Faucet {
  const key = privateKey ?? generatePrivateKey();
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) throw new Error("faucetPrivateKey must be 0x followed by 64 hex digits");
  try {
    const normalized = key.toLowerCase() as `0x${string}`;
    return { privateKey: normalized, address: privateKeyToAddress(normalized) };
  } catch {
    throw new Error("faucetPrivateKey is not a valid secp256k1 private key");
  }
}

// Ganache throws plain Errors (sometimes with a numeric code and revert data); keep code, message and
// data, drop everything else (stack, internals).
function asChainError(error: unknown): ChainRpcError {
  if (error instanceof ChainRpcError) return error;
  const e = error as { code?: unknown; message?: unknown; data?: unknown } | null;
  const message = typeof e?.message === "string" && e.message !== "" ? e.message : "the embedded chain failed";
  const code = typeof e?.code === "number" && Number.isInteger(e.code) ? e.code : -32000;
  return new ChainRpcError(code, message, e?.data);
}

// The interface both backends implement, and the upstream one, for callers that start from this file.
export type { BlockListener, ChainBackend, NewBlock, RpcCall } from "./backend.ts";
export { ChainRpcError } from "./backend.ts";
export { UpstreamChain, connectUpstreamChain, type UpstreamChainOptions } from "./upstream-chain.ts";
