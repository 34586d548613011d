// The fuzz properties of the generated server, shared by test/hardening-fuzz-server.test.ts (a small
// run per operation in `npm test`) and test/hardening-fuzz-server.scale.test.ts (the large run, in
// `npm run test:scale`): the same properties and checks, only the number of cases differs.
// CUSTODY_FUZZ_RUNS overrides the runs per operation of either, CUSTODY_FUZZ_SEED fixes the seed.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OperationEntry } from "../generated/operations.ts";
import {
  type FuzzSandbox,
  FuzzTally,
  fuzzOnce,
  operationList,
  ownerRequestArb,
  requestArb,
  startFuzzSandbox,
  strayRequestArb,
} from "./hardening-fuzz-kit.ts";

/** At most this many owner-signed valid requests per operation to reach its handler (one in four does, or more). */
const OWNER_ATTEMPTS = 100;

/** Registers the fuzz properties (every operation, stray requests, handlers reached); returns the sandbox getter. */
export function describeServerFuzz(defaultRuns: number): () => FuzzSandbox {
  const runs = Number(process.env.CUSTODY_FUZZ_RUNS ?? defaultRuns);
  const seed = process.env.CUSTODY_FUZZ_SEED === undefined ? undefined : Number(process.env.CUSTODY_FUZZ_SEED);
  const tally = new FuzzTally();
  let fuzz: FuzzSandbox;

  beforeAll(async () => {
    fuzz = await startFuzzSandbox();
  });
  afterAll(async () => {
    await fuzz?.close();
    // The counts quoted in docs/measurements/hardening.md come from this line.
    console.log(`[fuzz] ${tally.summary()}`);
  });

  /**
   * Internal errors logged while answering requests since `from` (the router names the request id).
   * Background work (the chain watcher on a loaded machine) may log too; that is not an answer and is
   * only shown.
   */
  function requestErrorsSince(from: number): string[] {
    const fresh = fuzz.internalErrors.slice(from);
    const background = fresh.filter((m) => !m.includes("(request "));
    if (background.length > 0) console.warn(`[fuzz] background errors: ${background.join("; ")}`);
    return fresh.filter((m) => m.includes("(request "));
  }

  /**
   * The positive control of a small run: when the mixed cases reached no handler of `op` (a few in a
   * hundred do for some operations), owner-signed requests it accepts, each under the same checks, until
   * one is answered by the handler.
   */
  async function reachHandler(op: OperationEntry): Promise<void> {
    for (let i = 0; i < OWNER_ATTEMPTS && !tally.handlerReached.get(op.operationId); i++) {
      const [plan] = fc.sample(ownerRequestArb(op, fuzz.target), {
        numRuns: 1,
        ...(seed !== undefined ? { seed: seed + i } : {}),
      });
      await fuzzOnce(plan, fuzz.target, tally);
    }
  }

  const params = (numRuns: number) => ({ numRuns, ...(seed !== undefined ? { seed } : {}) });

  describe("every operation answers hostile requests with a declared status and the envelope", () => {
    it.each(operationList.map((op) => [op.operationId, op] as const))("%s", async (_id, op) => {
      const before = fuzz.internalErrors.length;
      await fc.assert(
        fc.asyncProperty(requestArb(op, fuzz.target), (plan) => fuzzOnce(plan, fuzz.target, tally)),
        params(runs),
      );
      await reachHandler(op);
      expect(requestErrorsSince(before)).toEqual([]);
    });

    it("requests that match no operation get the 404 envelope (or the HTTP layer's 400)", async () => {
      const before = fuzz.internalErrors.length;
      await fc.assert(
        fc.asyncProperty(strayRequestArb(fuzz.target), (plan) => fuzzOnce(plan, fuzz.target, tally)),
        params(runs * 2),
      );
      expect(requestErrorsSince(before)).toEqual([]);
    });

    it("reached the handlers: correctly signed requests were answered 2xx for every operation", () => {
      const missing = operationList
        .filter((op) => (tally.handlerReached.get(op.operationId) ?? 0) === 0)
        .map((op) => op.operationId);
      expect(missing).toEqual([]);
    });
  });

  return () => fuzz;
}
