// Confirmed balances by (block number, address). The state at a given block does not change, so a
// cached answer is exactly what the node would say again; reading it from the embedded chain costs a
// state-trie walk (hundreds of µs), and the overview asks for it on every request. Everything is
// dropped whenever a new head is seen, which bounds the memory and means a reorganized block is
// asked again as soon as the head moves. Concurrent readers of the same entry share one node call.

/** Entries kept at most; beyond that the cache starts over (one block rarely has this many readers). */
const MAX_ENTRIES = 10_000;

export class BalanceCache {
  private readonly entries = new Map<string, Promise<bigint>>();
  private head: bigint | undefined;

  /** Call with every head read from the node: a different head than last time empties the cache. */
  seeHead(head: bigint): void {
    if (head === this.head) return;
    this.head = head;
    this.entries.clear();
  }

  /** The balance of `address` at `block`, from the cache or from `read` (whose failures are not kept). */
  balanceAt(address: string, block: bigint, read: () => Promise<bigint>): Promise<bigint> {
    const key = `${block}:${address.toLowerCase()}`;
    const cached = this.entries.get(key);
    if (cached !== undefined) return cached;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    const pending = read();
    this.entries.set(key, pending);
    pending.catch(() => {
      if (this.entries.get(key) === pending) this.entries.delete(key);
    });
    return pending;
  }

  get size(): number {
    return this.entries.size;
  }
}
