// The embedded chain (anvil as a supervised child): it mines on its own, funds a faucet, announces blocks in order, and
// mines a signed transaction at the next block.

import { createWalletClient, custom, defineChain, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmbeddedChain, type NewBlock, startEmbeddedChain } from "../reference/chain/index.ts";
import { OUTER_BOUND_MS } from "./reference-helpers.ts";

const FAUCET_KEY = `0x${"4c".repeat(32)}`;
let chain: EmbeddedChain;

beforeAll(async () => {
  chain = await startEmbeddedChain({ chainId: 31337, blockTimeSeconds: 0.2, faucetPrivateKey: FAUCET_KEY });
});

afterAll(async () => {
  await chain.close();
});

async function blockNumber(): Promise<bigint> {
  return BigInt((await chain.request({ method: "eth_blockNumber" })) as string);
}

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = OUTER_BOUND_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("embedded chain", () => {
  it("reports its chain id and funds the given faucet key", async () => {
    expect(chain.kind).toBe("embedded");
    expect(chain.chainId).toBe(31337);
    expect(await chain.request({ method: "eth_chainId" })).toBe("0x7a69");
    expect(chain.faucet.privateKey).toBe(FAUCET_KEY);
    expect(chain.faucet.address).toBe(privateKeyToAccount(FAUCET_KEY as `0x${string}`).address);
    const balance = BigInt(
      (await chain.request({ method: "eth_getBalance", params: [chain.faucet.address, "latest"] })) as string,
    );
    expect(balance).toBe(1_000_000n * 10n ** 18n);
  });

  it("generates a faucet key when none is given and rejects a malformed one", async () => {
    const other = await startEmbeddedChain({ blockTimeSeconds: 0 });
    try {
      expect(other.faucet.privateKey).toMatch(/^0x[0-9a-f]{64}$/);
      expect(other.faucet.privateKey).not.toBe(FAUCET_KEY);
      expect(other.chainId).toBe(1337);
    } finally {
      await other.close();
    }
    await expect(startEmbeddedChain({ faucetPrivateKey: "0x1234" })).rejects.toThrow(/faucetPrivateKey/);
    await expect(startEmbeddedChain({ faucetPrivateKey: `0x${"00".repeat(32)}` })).rejects.toThrow(/faucetPrivateKey/);
  });

  it("produces blocks on its own", async () => {
    const start = await blockNumber();
    const later = await waitFor(async () => {
      const now = await blockNumber();
      return now >= start + 2n ? now : undefined;
    });
    expect(later).toBeGreaterThanOrEqual(start + 2n);
  });

  it("announces consecutive blocks to every listener, and stops after removal", async () => {
    const seenA: NewBlock[] = [];
    const seenB: NewBlock[] = [];
    const removeA = chain.onBlock((block) => seenA.push(block));
    const removeB = chain.onBlock((block) => {
      seenB.push(block);
      throw new Error("a faulty listener must not stop the others");
    });
    await waitFor(async () => (seenA.length >= 3 ? true : undefined));
    removeA();
    removeB();
    for (let i = 1; i < seenA.length; i++) expect(seenA[i]!.number).toBe(seenA[i - 1]!.number + 1n);
    expect(seenA[0]!.hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(seenA[0]!.header).toMatchObject({ number: `0x${seenA[0]!.number.toString(16)}` });
    expect(seenB.length).toBeGreaterThan(0);
    const count = seenA.length;
    await waitFor(async () => ((await blockNumber()) > seenA[count - 1]!.number + 2n ? true : undefined));
    expect(seenA.length).toBe(count);
  });

  it("mines a transaction signed by the faucet at a later block", async () => {
    const account = privateKeyToAccount(FAUCET_KEY as `0x${string}`);
    const wallet = createWalletClient({
      account,
      chain: defineChain({
        id: 31337,
        name: "embedded",
        nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
        rpcUrls: { default: { http: [] } },
      }),
      transport: custom({ request: ({ method, params }) => chain.request({ method, params }) }),
    });
    const to = `0x${"12".repeat(20)}` as const;
    const hash = await wallet.sendTransaction({ to, value: parseEther("1.5") });
    const receipt = await waitFor(
      async () => (await chain.request({ method: "eth_getTransactionReceipt", params: [hash] })) ?? undefined,
    );
    expect(receipt).toMatchObject({ status: "0x1", transactionHash: hash });
    expect(await chain.request({ method: "eth_getBalance", params: [to, "latest"] })).toBe(
      `0x${parseEther("1.5").toString(16)}`,
    );
  });

  it("reports chain errors as ChainRpcError without internals, and refuses calls once closed", async () => {
    await expect(chain.request({ method: "eth_getBalance", params: ["0xzz", "latest"] })).rejects.toMatchObject({
      name: "ChainRpcError",
      code: -32602,
    });
    const closing = await startEmbeddedChain({ blockTimeSeconds: 0 });
    await closing.close();
    await expect(closing.request({ method: "eth_blockNumber" })).rejects.toThrow(/closed/);
  });
});

describe("the embedded chain as a supervised node", () => {
  it("restarts a node that exits on its own, on its state file and the same port", async () => {
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const dir = mkdtempSync(join(tmpdir(), "custody-chain-"));
    const node = await startEmbeddedChain({ dbPath: dir, blockTimeSeconds: 0.2, faucetPrivateKey: FAUCET_KEY });
    try {
      const url = node.url;
      const genesis = (
        (await node.request({ method: "eth_getBlockByNumber", params: ["0x0", false] })) as { hash: string }
      ).hash;
      const to = `0x${"34".repeat(20)}` as const;
      const account = privateKeyToAccount(FAUCET_KEY as `0x${string}`);
      const wallet = createWalletClient({
        account,
        chain: defineChain({
          id: 1337,
          name: "embedded",
          nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
          rpcUrls: { default: { http: [] } },
        }),
        transport: custom({ request: ({ method, params }) => node.request({ method, params }) }),
      });
      const hash = await wallet.sendTransaction({ to, value: 7n });
      await waitFor(
        async () => (await node.request({ method: "eth_getTransactionReceipt", params: [hash] })) ?? undefined,
      );
      // The node stops on its own (SIGTERM to its process group: it writes its state and exits).
      process.kill(-(node.pid as number), "SIGTERM");
      await waitFor(async () => (node.restarts === 1 ? true : undefined));
      const receipt = await waitFor(
        async () =>
          (await node.request({ method: "eth_getTransactionReceipt", params: [hash] }).catch(() => undefined)) ??
          undefined,
      );
      expect(receipt).toMatchObject({ status: "0x1" });
      expect(node.url).toBe(url);
      expect(
        ((await node.request({ method: "eth_getBlockByNumber", params: ["0x0", false] })) as { hash: string }).hash,
      ).toBe(genesis);
      expect(await node.request({ method: "eth_getBalance", params: [to, "latest"] })).toBe("0x7");
    } finally {
      await node.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
