// The wallet API's view of the chain height (reference/chain/chain-client.ts) never answers with a
// request that was already in flight when it was asked: a block mined in between must show.
import { describe, expect, it } from "vitest";
import type { ChainBackend } from "../reference/chain/backend.ts";
import { ChainClient } from "../reference/chain/chain-client.ts";

/** A node whose first eth_blockNumber answers only when released, with the height of when it was asked. */
function slowFirstAnswer() {
  let height = 5n;
  let release = () => {};
  let calls = 0;
  const backend: ChainBackend = {
    kind: "embedded",
    chainId: 31337,
    async request({ method }) {
      if (method === "evm_mine") return void height++;
      if (method !== "eth_blockNumber") throw new Error(`unexpected ${method}`);
      const answer = `0x${height.toString(16)}`;
      if (calls++ === 0) await new Promise<void>((resolve) => (release = resolve));
      return answer;
    },
    onBlock: () => () => {},
    close: async () => {},
  };
  return { backend, release: () => release() };
}

describe("ChainClient.head", () => {
  it("answers the height after a block mined while an earlier head() was in flight", async () => {
    const { backend, release } = slowFirstAnswer();
    const chain = new ChainClient(backend);
    const earlier = chain.head(); // a poller's request, still unanswered
    await backend.request({ method: "evm_mine", params: [] });
    const after = chain.head();
    release();
    expect(await earlier).toBe(5n);
    expect(await after).toBe(6n);
  });
});
