// UpstreamChain: the gateway in front of another JSON-RPC node over HTTP. Real forwarding (a second
// gateway with its own key in front of the embedded chain), block polling, and bounded failures.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import {
  ChainRpcError,
  connectUpstreamChain,
  type EmbeddedChain,
  type NewBlock,
  startEmbeddedChain,
  type UpstreamChain,
} from "../reference/chain/index.ts";
import { type NodeAccess, startNodeAccess } from "../reference/node/index.ts";
import { OUTER_BOUND_MS } from "./reference-helpers.ts";
import { freePort } from "./support/free-port.ts";

const UPSTREAM_KEY = "upstream-key";
const FRONT_KEY = "front-key";
let chain: EmbeddedChain;
let upstreamNode: NodeAccess;
let upstream: UpstreamChain;
let front: NodeAccess;

beforeAll(async () => {
  chain = await startEmbeddedChain({ chainId: 4242, blockTimeSeconds: 0.2 });
  upstreamNode = await startNodeAccess({ backend: chain, apiKeys: new Set([UPSTREAM_KEY]) });
  upstream = await connectUpstreamChain({
    url: upstreamNode.httpUrl,
    headers: { authorization: `APIKEY ${UPSTREAM_KEY}` },
    pollIntervalMs: 100,
  });
  front = await startNodeAccess({ backend: upstream, apiKeys: new Set([FRONT_KEY]) });
});

afterAll(async () => {
  await front.close();
  await upstream.close();
  await upstreamNode.close();
  await chain.close();
});

async function rpc(body: unknown): Promise<any> {
  const response = await fetch(front.httpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `APIKEY ${FRONT_KEY}` },
    body: JSON.stringify(body),
  });
  return response.json();
}

describe("forwarding to an upstream node", () => {
  it("reads the upstream chain id at connect time", () => {
    expect(upstream.kind).toBe("upstream");
    expect(upstream.chainId).toBe(4242);
  });

  it("serves the seed methods through the upstream", async () => {
    const number = await rpc({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber" });
    expect(number).toMatchObject({ jsonrpc: "2.0", id: 1, result: expect.stringMatching(/^0x[0-9a-f]+$/) });
    const block = await rpc({ jsonrpc: "2.0", id: "b", method: "eth_getBlockByNumber", params: ["latest", false] });
    expect(block.result).toMatchObject({
      number: expect.stringMatching(/^0x/),
      hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      timestamp: expect.stringMatching(/^0x/),
    });
  });

  it("passes the upstream's JSON-RPC errors on", async () => {
    const answer = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "eth_getBalance",
      params: [`0x${"00".repeat(20)}`, "0xzz"],
    });
    expect(answer).toMatchObject({ id: 1, error: { code: -32602, message: expect.stringContaining("invalid") } });
    // The upstream's own refusal is a JSON-RPC error too, with its code.
    const wrongKey = await connectUpstreamChain({ url: upstreamNode.httpUrl, headers: {} }).catch((e: Error) => e);
    expect(wrongKey).toBeInstanceOf(Error);
    expect((wrongKey as Error).message).toMatch(/not a usable JSON-RPC node: unauthorized/);
  });

  it("announces new blocks by polling, in order", async () => {
    const seen: NewBlock[] = [];
    const stop = upstream.onBlock((block) => seen.push(block));
    try {
      await waitFor(() => seen.length >= 3);
    } finally {
      stop();
    }
    expect(seen.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.number).toBe(seen[i - 1]!.number + 1n);
    expect(seen[0]!.header).not.toHaveProperty("transactions");
  });

  it("delivers newHeads to WebSocket subscribers of the front gateway", async () => {
    const ws = new WebSocket(`${front.wsUrl}?api_key=${FRONT_KEY}`);
    try {
      const head = await new Promise<any>((resolve, reject) => {
        ws.on("open", () => ws.send('{"jsonrpc":"2.0","id":1,"method":"eth_subscribe","params":["newHeads"]}'));
        ws.on("message", (data) => {
          const message = JSON.parse(String(data));
          if (message.method === "eth_subscription") resolve(message.params.result);
        });
        ws.on("error", reject);
      });
      expect(head.number).toMatch(/^0x[0-9a-f]+$/);
    } finally {
      ws.close();
    }
  });
});

describe("upstream failures are bounded", () => {
  let bad: Server;
  let badUrl: string;

  beforeAll(async () => {
    // Answers eth_chainId properly and misbehaves on purpose for the other methods.
    bad = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        const { id, method } = JSON.parse(body) as { id: number; method: string };
        switch (method) {
          case "eth_chainId":
            return res.end(JSON.stringify({ jsonrpc: "2.0", id, result: "0x1" }));
          case "hang":
            return; // never answers
          case "html_502":
            res.writeHead(502, { "content-type": "text/html" });
            return res.end("<html>bad gateway</html>");
          case "rate_limited":
            res.writeHead(429, { "content-type": "application/json" });
            return res.end(JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32005, message: "rate limited" } }));
          case "garbage":
            return res.end("{not json");
          case "no_result":
            return res.end(JSON.stringify({ jsonrpc: "2.0", id }));
          case "huge":
            return res.end(JSON.stringify({ jsonrpc: "2.0", id, result: "x".repeat(10_000) }));
          case "long_message":
            return res.end(JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32000, message: "m".repeat(5000) } }));
          default:
            return res.end(JSON.stringify({ jsonrpc: "2.0", id, result: null }));
        }
      });
    });
    await new Promise<void>((resolve) => bad.listen(0, "127.0.0.1", resolve));
    badUrl = `http://127.0.0.1:${(bad.address() as AddressInfo).port}/v3/SECRET-PROJECT-KEY`;
  });

  afterAll(async () => {
    bad.closeAllConnections();
    await new Promise((resolve) => bad.close(resolve));
  });

  it("turns timeouts, HTTP failures, invalid answers and oversized answers into short ChainRpcErrors", async () => {
    const node = await connectUpstreamChain({ url: badUrl, timeoutMs: 300, maxResponseBytes: 5000 });
    try {
      const failure = (method: string) =>
        node.request({ method }).then(
          () => undefined,
          (e: unknown) => e as ChainRpcError,
        );
      const [hang, html, limited, garbage, empty, huge, long] = await Promise.all(
        ["hang", "html_502", "rate_limited", "garbage", "no_result", "huge", "long_message"].map(failure),
      );
      expect(hang).toMatchObject({ code: -32000, message: "upstream timed out" });
      expect(html).toMatchObject({ code: -32000, message: "upstream responded with HTTP 502" });
      expect(limited).toMatchObject({ code: -32005, message: "rate limited" });
      expect(garbage).toMatchObject({ code: -32000, message: "upstream sent invalid JSON" });
      expect(empty).toMatchObject({ code: -32000, message: "upstream sent no JSON-RPC result" });
      expect(huge).toMatchObject({ code: -32000, message: "upstream response exceeds 5000 bytes" });
      expect(long!.message.length).toBeLessThanOrEqual(500);
      for (const error of [hang, html, limited, garbage, empty, huge, long]) {
        expect(error).toBeInstanceOf(ChainRpcError);
        expect(error!.message).not.toContain("SECRET");
      }
    } finally {
      await node.close();
    }
  });

  it("refuses unusable upstream URLs without revealing their path", async () => {
    const port = (bad.address() as AddressInfo).port;
    const closedPort = await freePort();
    await expect(connectUpstreamChain({ url: `http://127.0.0.1:${closedPort}/v3/SECRET` })).rejects.toThrow(
      new RegExp(
        `^upstream http://127.0.0.1:${closedPort} is not a usable JSON-RPC node: upstream unavailable \\(ECONNREFUSED\\)$`,
      ),
    );
    await expect(connectUpstreamChain({ url: "ftp://example.com" })).rejects.toThrow(/http or https/);
    await expect(connectUpstreamChain({ url: "not a url" })).rejects.toThrow(/not a valid URL/);
    await expect(connectUpstreamChain({ url: `http://user:pw@127.0.0.1:${port}/` })).rejects.toThrow(/credentials/);
  });

  it("answers the gateway's client with -32000 when the upstream fails", async () => {
    const node = await connectUpstreamChain({ url: badUrl, timeoutMs: 200 });
    const gateway = await startNodeAccess({ backend: node, apiKeys: new Set(["k"]) });
    try {
      bad.removeAllListeners("request");
      bad.on("request", (req, res) => {
        let body = "";
        req.on("data", (chunk) => (body += chunk));
        req.on("end", () => {
          res.writeHead(503);
          res.end("down");
        });
      });
      const response = await fetch(gateway.httpUrl, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "APIKEY k" },
        body: '{"jsonrpc":"2.0","id":5,"method":"eth_blockNumber"}',
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        jsonrpc: "2.0",
        id: 5,
        error: { code: -32000, message: "upstream responded with HTTP 503" },
      });
    } finally {
      await gateway.close();
      await node.close();
    }
  });
});

async function waitFor(condition: () => boolean, timeoutMs = OUTER_BOUND_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}
