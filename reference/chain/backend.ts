// The one interface the node-access gateway (and the wallet API's deposit detection) needs from a chain:
// an EIP-1193-style `request`, new-block notifications and a clean shutdown. Two implementations:
// the embedded anvil chain (chain.ts) and a forwarder to any JSON-RPC HTTP node (upstream-chain.ts).

export type RpcParams = readonly unknown[] | Record<string, unknown>;

export interface RpcCall {
  method: string;
  params?: RpcParams;
}

/** A block as announced to `onBlock` listeners. `header` is the newHeads-style header object. */
export interface NewBlock {
  number: bigint;
  hash: string;
  header: Record<string, unknown>;
}

export type BlockListener = (block: NewBlock) => void;

export interface ChainBackend {
  readonly kind: "embedded" | "upstream";
  readonly chainId: number;
  /** Resolves with the JSON-RPC `result`; rejects with ChainRpcError (or any Error) on failure. */
  request(call: RpcCall): Promise<unknown>;
  /** Calls `listener` once per new block, in order. Returns the function that removes the listener. */
  onBlock(listener: BlockListener): () => void;
  close(): Promise<void>;
}

/** A JSON-RPC error reported by the chain; the gateway passes code, message and data on to its client. */
export class ChainRpcError extends Error {
  readonly code: number;
  readonly data?: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "ChainRpcError";
    this.code = code;
    if (data !== undefined) this.data = data;
  }
}

/** Converts a newHeads-style header (hex number and hash) into a NewBlock, or undefined if malformed. */
export function toNewBlock(header: unknown): NewBlock | undefined {
  if (header === null || typeof header !== "object") return undefined;
  const h = header as Record<string, unknown>;
  if (typeof h.number !== "string" || typeof h.hash !== "string" || !/^0x[0-9a-fA-F]+$/.test(h.number))
    return undefined;
  return { number: BigInt(h.number), hash: h.hash, header: h };
}

/** Fan-out helper shared by both backends: a listener that throws must not stop the others. */
export class BlockListeners {
  readonly #listeners = new Set<BlockListener>();

  get size(): number {
    return this.#listeners.size;
  }

  add(listener: BlockListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  emit(block: NewBlock): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(block);
      } catch {
        // A faulty listener is the listener's problem; block delivery to the others continues.
      }
    }
  }

  clear(): void {
    this.#listeners.clear();
  }
}
