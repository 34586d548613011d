// The one place that hands out nonces for a wallet's withdrawals.
//
// Rule: the smallest nonce at or above the chain's pending nonce that no in-flight withdrawal of the
// address holds. Why each part:
//   - below the pending nonce every nonce is mined or waiting in the node's pool (perhaps a transaction
//     we did not send): taking one would replace or collide with it;
//   - in-flight withdrawals (signed and stored, not yet settled) keep their nonces even when the node
//     forgot them (a crash empties its pool): the reconciler sends those exact bytes again;
//   - a nonce released by a withdrawal that failed before it was mined is a gap: the next withdrawal
//     fills it, so later transactions of the wallet are not held up behind it.
// Both users of the wallet keys' nonces (the withdrawal executor and /web3 raw-transaction signing) share
// one allocator per deployment and allocate inside `exclusive`, held until the nonce is either stored with
// its withdrawal or broadcast: two allocations never race and never hand out the same nonce.
import type { Hex } from "viem";
import type { DomainContext } from "./context.ts";
import { withdrawalKeys } from "./indexes.ts";
import { C, type WithdrawalRecord } from "./records.ts";
import { isInFlight } from "./withdrawal-states.ts";

export { isInFlight };

export class NonceAllocator {
  #tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly ctx: DomainContext) {}

  /** Runs `fn` alone: from an allocation until its nonce is stored in flight or on the node. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(fn, fn);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /** `count` nonces for `address`, ascending, reconciled with the chain's pending nonce. */
  async allocate(address: string, count: number): Promise<number[]> {
    const pending = await this.ctx.chain.pendingNonce(address as Hex);
    const held = new Set<number>();
    for (const w of this.ctx.store.scan<WithdrawalRecord>(C.withdrawals, withdrawalKeys.inFlightFrom(address))) {
      held.add(w.nonce as number);
    }
    const nonces: number[] = [];
    for (let n = pending; nonces.length < count; n++) if (!held.has(n)) nonces.push(n);
    return nonces;
  }
}
