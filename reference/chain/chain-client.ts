// The wallet API's view of the chain: a viem public client over the node's ChainBackend, plus the
// few calls the domain makes. Going through ChainBackend (not HTTP to our own gateway) keeps the wallet
// API working whatever the node access does with keys and limits, and works for both the embedded
// chain and an --upstream node.
import { createPublicClient, custom, type Hex, type PublicClient } from "viem";
import type { ChainBackend } from "./backend.ts";

export interface ChainFees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

export const TRANSFER_GAS = 21_000n;

export class ChainClient {
  readonly viem: PublicClient;

  constructor(readonly backend: ChainBackend) {
    this.viem = createPublicClient({
      transport: custom({ request: ({ method, params }) => backend.request({ method, params }) }, { retryCount: 0 }),
    });
  }

  get chainId(): number {
    return this.backend.chainId;
  }

  /**
   * The node's height, asked by this call itself. viem's getBlockNumber joins a request already in flight
   * (cacheTime 0 only turns off its cache), whose answer can predate a block this caller has just mined:
   * under load /_sandbox/mine answered the height from before its own blocks.
   */
  async head(): Promise<bigint> {
    return BigInt((await this.backend.request({ method: "eth_blockNumber", params: [] })) as string);
  }

  async balanceAt(address: Hex, blockNumber: bigint): Promise<bigint> {
    return this.viem.getBalance({ address, blockNumber });
  }

  async blockWithTransactions(blockNumber: bigint) {
    return this.viem.getBlock({ blockNumber, includeTransactions: true });
  }

  async blockHeader(blockNumber: bigint) {
    return this.viem.getBlock({ blockNumber });
  }

  /** The receipt, or undefined while the transaction is not mined. */
  async receipt(hash: Hex) {
    try {
      return await this.viem.getTransactionReceipt({ hash });
    } catch (error) {
      if ((error as { name?: string }).name === "TransactionReceiptNotFoundError") return undefined;
      throw error;
    }
  }

  /** True when the node knows the transaction (in its pool or mined). */
  async knowsTransaction(hash: Hex): Promise<boolean> {
    const tx = await this.backend.request({ method: "eth_getTransactionByHash", params: [hash] });
    return tx !== null && tx !== undefined;
  }

  /** Transactions of this address already mined (the nonce its next mined transaction must carry). */
  async minedNonce(address: Hex): Promise<number> {
    return this.viem.getTransactionCount({ address, blockTag: "latest" });
  }

  async pendingNonce(address: Hex): Promise<number> {
    return this.viem.getTransactionCount({ address, blockTag: "pending" });
  }

  async fees(): Promise<ChainFees> {
    const fees = await this.viem.estimateFeesPerGas();
    return { maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas };
  }

  /** Broadcasts a signed transaction; resolves with the hash the node reports. */
  async sendRaw(raw: Hex): Promise<Hex> {
    return (await this.backend.request({ method: "eth_sendRawTransaction", params: [raw] })) as Hex;
  }

  /** The genesis block hash: tells whether a restarted sandbox is talking to the same chain. */
  async genesisHash(): Promise<Hex> {
    const block = await this.viem.getBlock({ blockNumber: 0n });
    return block.hash;
  }
}
