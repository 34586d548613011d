// Solana's WebSocket subscriptions over the runtime's slot events: signatureSubscribe (one notification
// when the transaction reaches the asked commitment, then gone, as on a cluster), slotSubscribe and
// accountSubscribe (lamports at the asked commitment, notified when they change). Ids are integers,
// as Solana's RPC gives them; each belongs to the connection that made it.
import type { Commitment, SolanaRuntime } from "../../chain/solana/runtime.ts";
import type { Subscriber } from "../subscriptions.ts";
import { accountView } from "./views.ts";

type Subscription =
  | { kind: "signature"; owner: Subscriber; signature: string; commitment: Commitment }
  | { kind: "slot"; owner: Subscriber }
  | {
      kind: "account";
      owner: Subscriber;
      address: Uint8Array;
      key: string;
      commitment: Commitment;
      encoding: unknown;
      last: bigint;
    };

const RANK: Record<Commitment, number> = { processed: 0, confirmed: 1, finalized: 2 };

export class SolanaSubscriptions {
  readonly #subs = new Map<number, Subscription>();
  #next = 1;
  #stop: (() => void) | undefined;

  constructor(private readonly runtime: SolanaRuntime) {}

  signature(owner: Subscriber, signature: string, commitment: Commitment): number {
    const id = this.#add({ kind: "signature", owner, signature, commitment });
    // Already there: notify right after the subscription id is answered.
    setImmediate(() => this.#checkSignature(id));
    return id;
  }

  slot(owner: Subscriber): number {
    return this.#add({ kind: "slot", owner });
  }

  account(owner: Subscriber, address: Uint8Array, key: string, commitment: Commitment, encoding: unknown): number {
    const last = this.runtime.balance(key, this.runtime.slotAt(commitment));
    return this.#add({ kind: "account", owner, address, key, commitment, encoding, last });
  }

  /** Removes a subscription of this owner and kind; false when there is none. */
  remove(owner: Subscriber, id: unknown, kind: Subscription["kind"]): boolean {
    const sub = typeof id === "number" ? this.#subs.get(id) : undefined;
    if (!sub || sub.owner !== owner || sub.kind !== kind) return false;
    this.#drop(id as number);
    return true;
  }

  unsubscribeAll(owner: Subscriber): void {
    for (const [id, sub] of this.#subs) if (sub.owner === owner) this.#drop(id);
  }

  close(): void {
    this.#subs.clear();
    this.#stop?.();
    this.#stop = undefined;
  }

  #add(sub: Subscription): number {
    const id = this.#next++;
    this.#subs.set(id, sub);
    sub.owner.subscriptions.add(String(id));
    this.#stop ??= this.runtime.onSlot((slot) => this.#onSlot(slot));
    return id;
  }

  #drop(id: number): void {
    const sub = this.#subs.get(id);
    if (!sub) return;
    this.#subs.delete(id);
    sub.owner.subscriptions.delete(String(id));
    if (this.#subs.size === 0) {
      this.#stop?.();
      this.#stop = undefined;
    }
  }

  #onSlot(slot: number): void {
    for (const [id, sub] of [...this.#subs]) {
      if (sub.kind === "slot")
        notify(sub.owner, "slotNotification", id, {
          parent: Math.max(0, slot - 1),
          root: this.runtime.slotAt("finalized"),
          slot,
        });
      else if (sub.kind === "signature") this.#checkSignature(id);
      else this.#checkAccount(id, sub);
    }
  }

  #checkSignature(id: number): void {
    const sub = this.#subs.get(id);
    if (sub?.kind !== "signature") return;
    const status = this.runtime.signatureStatus(sub.signature);
    if (!status || RANK[status.confirmationStatus] < RANK[sub.commitment]) return;
    notify(sub.owner, "signatureNotification", id, {
      context: { slot: this.runtime.slotAt(sub.commitment) },
      value: { err: status.err },
    });
    this.#drop(id);
  }

  #checkAccount(id: number, sub: Extract<Subscription, { kind: "account" }>): void {
    const slot = this.runtime.slotAt(sub.commitment);
    const lamports = this.runtime.balance(sub.key, slot);
    if (lamports === sub.last) return;
    sub.last = lamports;
    notify(sub.owner, "accountNotification", id, {
      context: { slot },
      value: accountView(this.runtime, sub.address, slot, sub.encoding),
    });
  }
}

function notify(owner: Subscriber, method: string, subscription: number, result: unknown): void {
  owner.send(JSON.stringify({ jsonrpc: "2.0", method, params: { result, subscription } }));
}
