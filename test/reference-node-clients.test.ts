// Real third-party clients against the node access (gateway + embedded chain): viem and ethers over
// HTTP and WebSocket, and @polkadot/rpc-provider's WsProvider with the key in the query.
import { WsProvider } from "@polkadot/rpc-provider";
import { FetchRequest, JsonRpcProvider, Wallet, WebSocketProvider } from "ethers";
import { createPublicClient, createWalletClient, defineChain, http, parseEther, webSocket } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmbeddedChain, startEmbeddedChain } from "../reference/chain/index.ts";
import { type NodeAccess, startNodeAccess } from "../reference/node/index.ts";

const KEY = "client-test-key";
const CHAIN_ID = 31337;
let chain: EmbeddedChain;
let node: NodeAccess;

const sandbox = defineChain({
  id: CHAIN_ID,
  name: "custody sandbox",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: [] } },
});

beforeAll(async () => {
  chain = await startEmbeddedChain({ chainId: CHAIN_ID, blockTimeSeconds: 0.25 });
  node = await startNodeAccess({ backend: chain, apiKeys: new Set([KEY]) });
});

afterAll(async () => {
  await node.close();
  await chain.close();
});

const headerTransport = () => http(node.httpUrl, { fetchOptions: { headers: { authorization: `APIKEY ${KEY}` } } });

describe("viem", () => {
  it("reads the chain over HTTP with the key in the authorization header", async () => {
    const client = createPublicClient({ chain: sandbox, transport: headerTransport() });
    expect(await client.getChainId()).toBe(CHAIN_ID);
    const number = await client.getBlockNumber({ cacheTime: 0 });
    const block = await client.getBlock({ blockTag: "latest" });
    expect(block.number).toBeGreaterThanOrEqual(number);
    expect(block.hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(typeof block.timestamp).toBe("bigint");
  });

  it("fails clearly without the key (HTTP 401)", async () => {
    const client = createPublicClient({ chain: sandbox, transport: http(node.httpUrl, { retryCount: 0 }) });
    await expect(client.getBlockNumber()).rejects.toThrow(/401|unauthorized/i);
  });

  it("sends a faucet-signed transaction over HTTP and reads its receipt", async () => {
    const account = privateKeyToAccount(chain.faucet.privateKey);
    const wallet = createWalletClient({ account, chain: sandbox, transport: headerTransport() });
    const client = createPublicClient({ chain: sandbox, transport: headerTransport(), pollingInterval: 100 });
    const to = `0x${"34".repeat(20)}` as const;
    const hash = await wallet.sendTransaction({ to, value: parseEther("0.25") });
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 100, timeout: 20_000 });
    expect(receipt.status).toBe("success");
    expect(receipt.from.toLowerCase()).toBe(account.address.toLowerCase());
    expect(await client.getBalance({ address: to })).toBe(parseEther("0.25"));
  });

  it("reads the chain and watches new blocks over WebSocket with the key in the query", async () => {
    const client = createPublicClient({
      chain: sandbox,
      transport: webSocket(`${node.wsUrl}?api_key=${KEY}`, { reconnect: false }),
    });
    try {
      expect(await client.getChainId()).toBe(CHAIN_ID);
      const number = await client.getBlockNumber({ cacheTime: 0 });
      expect((await client.getBlock({ blockNumber: number })).number).toBe(number);
      const next = await new Promise<bigint>((resolve, reject) => {
        // Over a WebSocket transport viem watches with eth_subscribe("newHeads") rather than polling.
        const unwatch = client.watchBlockNumber({
          onBlockNumber: (n) => {
            if (n > number) {
              unwatch();
              resolve(n);
            }
          },
          onError: reject,
        });
      });
      expect(next).toBeGreaterThan(number);
    } finally {
      (await client.transport.getRpcClient()).close();
    }
  });
});

describe("ethers v6", () => {
  it("reads the chain over HTTP (batched) with the key in the authorization header", async () => {
    const request = new FetchRequest(node.httpUrl);
    request.setHeader("authorization", `APIKEY ${KEY}`);
    const provider = new JsonRpcProvider(request, undefined, { staticNetwork: false });
    try {
      // Issued together: once the network is known, ethers sends the others as one JSON-RPC batch.
      const [network, number, block] = await Promise.all([
        provider.getNetwork(),
        provider.getBlockNumber(),
        provider.getBlock("latest"),
      ]);
      expect(network.chainId).toBe(BigInt(CHAIN_ID));
      expect(block!.number).toBeGreaterThanOrEqual(number);
    } finally {
      provider.destroy();
    }
  });

  it("sends a transaction over HTTP and waits for one confirmation", async () => {
    const request = new FetchRequest(node.httpUrl);
    request.setHeader("authorization", `APIKEY ${KEY}`);
    const provider = new JsonRpcProvider(request, CHAIN_ID, { staticNetwork: true, pollingInterval: 100 });
    try {
      const wallet = new Wallet(chain.faucet.privateKey, provider);
      const to = `0x${"56".repeat(20)}`;
      const tx = await wallet.sendTransaction({ to, value: 10n ** 15n });
      const receipt = await tx.wait(1, 20_000);
      expect(receipt!.status).toBe(1);
      expect(await provider.getBalance(to)).toBe(10n ** 15n);
    } finally {
      provider.destroy();
    }
  });

  it("reads the chain and receives blocks over WebSocket with the key in the query", async () => {
    const provider = new WebSocketProvider(`${node.wsUrl}?api_key=${KEY}`);
    try {
      expect((await provider.getNetwork()).chainId).toBe(BigInt(CHAIN_ID));
      const number = await provider.getBlockNumber();
      const next = await new Promise<number>((resolve) => {
        void provider.on("block", (n: number) => {
          if (n > number) resolve(n);
        });
      });
      expect(next).toBeGreaterThan(number);
    } finally {
      await provider.destroy();
    }
  });
});

describe("@polkadot/rpc-provider WsProvider", () => {
  it("connects with the key in the query and sends requests as soon as it is ready", async () => {
    const provider = new WsProvider(`${node.wsUrl}?api_key=${KEY}`, false);
    try {
      await provider.connect();
      await provider.isReady;
      const [number, chainId] = await Promise.all([
        provider.send<string>("eth_blockNumber", []),
        provider.send<string>("eth_chainId", []),
      ]);
      expect(number).toMatch(/^0x[0-9a-f]+$/);
      expect(Number.parseInt(chainId, 16)).toBe(CHAIN_ID);
      const block = await provider.send<{ number: string; hash: string; timestamp: string }>("eth_getBlockByNumber", [
        "latest",
        false,
      ]);
      expect(block.number).toMatch(/^0x[0-9a-f]+$/);
      expect(block.timestamp).toMatch(/^0x[0-9a-f]+$/);
    } finally {
      await provider.disconnect();
    }
  });

  it("receives newHeads through its subscription API", async () => {
    const provider = new WsProvider(`${node.wsUrl}?api_key=${KEY}`, false);
    try {
      await provider.connect();
      await provider.isReady;
      const head = await new Promise<{ number: string }>((resolve, reject) => {
        provider
          .subscribe(
            "eth_subscription",
            "eth_subscribe",
            ["newHeads"],
            (error: Error | null, result: { number: string }) => {
              if (error) reject(error);
              else resolve(result);
            },
          )
          .catch(reject);
      });
      expect(head.number).toMatch(/^0x[0-9a-f]+$/);
    } finally {
      await provider.disconnect();
    }
  });
});
