// eth_subscribe over WebSocket: one block listener on the backend fans newHeads out to every
// subscription. The backend listener exists only while at least one subscription does.
import { randomBytes } from "node:crypto";
import type { ChainBackend, NewBlock } from "../chain/backend.ts";

/** A connection that can receive notifications (a WebSocket client). */
export interface Subscriber {
  send(text: string): void;
  readonly subscriptions: Set<string>;
}

export class SubscriptionHub {
  readonly #backend: ChainBackend;
  readonly #owners = new Map<string, Subscriber>();
  #stopBlocks: (() => void) | undefined;

  constructor(backend: ChainBackend) {
    this.#backend = backend;
  }

  /** Registers a newHeads subscription and returns its id (random, so ids are not guessable). */
  subscribeNewHeads(owner: Subscriber): string {
    const id = `0x${randomBytes(16).toString("hex")}`;
    this.#owners.set(id, owner);
    owner.subscriptions.add(id);
    this.#stopBlocks ??= this.#backend.onBlock((block) => this.#announce(block));
    return id;
  }

  /** Removes a subscription of this owner; false if it does not exist or belongs to someone else. */
  unsubscribe(owner: Subscriber, id: string): boolean {
    if (this.#owners.get(id) !== owner) return false;
    this.#owners.delete(id);
    owner.subscriptions.delete(id);
    this.#stopWhenIdle();
    return true;
  }

  /** Drops every subscription of a closed connection. */
  unsubscribeAll(owner: Subscriber): void {
    for (const id of owner.subscriptions) this.#owners.delete(id);
    owner.subscriptions.clear();
    this.#stopWhenIdle();
  }

  close(): void {
    this.#owners.clear();
    this.#stopWhenIdle();
  }

  #announce(block: NewBlock): void {
    const result = JSON.stringify(block.header); // serialized once per block, not once per subscriber
    for (const [id, owner] of this.#owners) {
      owner.send(`{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"${id}","result":${result}}}`);
    }
  }

  #stopWhenIdle(): void {
    if (this.#owners.size > 0 || !this.#stopBlocks) return;
    this.#stopBlocks();
    this.#stopBlocks = undefined;
  }
}
