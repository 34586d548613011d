// JSON-RPC 2.0 semantics, authentication and limits of the node-access gateway, over raw HTTP and raw
// WebSocket, against a scripted backend (deterministic: blocks are emitted by the test).
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import {
  type BlockListener,
  BlockListeners,
  type ChainBackend,
  ChainRpcError,
  type RpcCall,
} from "../reference/chain/backend.ts";
import { attachRpcGateway, createRpcGateway, type NodeAccess, startNodeAccess } from "../reference/node/index.ts";
import { OUTER_BOUND_MS } from "./reference-helpers.ts";

const KEY = "node-key-1";
const UNAUTHORIZED = '{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"unauthorized"}}';

/** A backend whose answers the test controls; it records the calls it received. */
class ScriptedBackend implements ChainBackend {
  readonly kind = "embedded" as const;
  readonly chainId = 1337;
  readonly calls: RpcCall[] = [];
  readonly listeners = new BlockListeners();
  blockNumber = 5n;

  async request(call: RpcCall): Promise<unknown> {
    this.calls.push(call);
    switch (call.method) {
      case "eth_blockNumber":
        return `0x${this.blockNumber.toString(16)}`;
      case "eth_getBlockByNumber":
        return {
          number: `0x${this.blockNumber.toString(16)}`,
          hash: `0x${"ab".repeat(32)}`,
          timestamp: "0x10",
          transactions: [],
        };
      case "eth_call":
        throw new ChainRpcError(3, "execution reverted", "0x08c379a0");
      case "eth_estimateGas": {
        const error = new Error("boom\n    at secretFrame (/srv/internal.ts:1:1)");
        throw error;
      }
      case "eth_getLogs":
        return new Promise(() => undefined); // never answers
      case "eth_gasPrice":
        return undefined; // a backend answering nothing still yields a JSON-RPC result (null)
      default:
        return "0x1";
    }
  }

  onBlock(listener: BlockListener): () => void {
    return this.listeners.add(listener);
  }

  emitBlock(): void {
    this.blockNumber++;
    const number = `0x${this.blockNumber.toString(16)}`;
    this.listeners.emit({
      number: this.blockNumber,
      hash: `0x${"cd".repeat(32)}`,
      header: { number, hash: `0x${"cd".repeat(32)}` },
    });
  }

  async close(): Promise<void> {}
}

let backend: ScriptedBackend;
let node: NodeAccess;

beforeAll(async () => {
  backend = new ScriptedBackend();
  node = await startNodeAccess({
    backend,
    apiKeys: new Set([KEY, "another-key"]),
    maxBatchSize: 5,
    maxBodyBytes: 4096,
    maxWsMessageBytes: 4096,
  });
});

afterAll(async () => {
  await node.close();
});

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

async function post(
  body: string,
  init: { headers?: Record<string, string>; query?: string; url?: string } = {},
): Promise<Answer> {
  const headers = init.headers ?? { "content-type": "application/json", authorization: `APIKEY ${KEY}` };
  const response = await fetch(`${init.url ?? node.httpUrl}${init.query ?? ""}`, { method: "POST", headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : undefined };
}

const call = (body: unknown) => post(JSON.stringify(body));

describe("HTTP authentication", () => {
  it("refuses a request without a key with 401 and the exact body", async () => {
    const answer = await post('{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}', {
      headers: { "content-type": "application/json" },
    });
    expect(answer.status).toBe(401);
    expect(answer.text).toBe(UNAUTHORIZED);
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
  });

  it("refuses a wrong key, an empty key and another scheme identically", async () => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}';
    const attempts = [
      post(body, { headers: { "content-type": "application/json", authorization: "APIKEY wrong" } }),
      post(body, { headers: { "content-type": "application/json", authorization: `Bearer ${KEY}` } }),
      post(body, { headers: { "content-type": "application/json" }, query: "?api_key=" }),
      post(body, { headers: { "content-type": "application/json" }, query: `?api_key=${KEY}x` }),
      post(body, { headers: { "content-type": "application/json" }, query: `?apikey=${KEY}` }),
    ];
    for (const answer of await Promise.all(attempts)) {
      expect(answer.status).toBe(401);
      expect(answer.text).toBe(UNAUTHORIZED);
    }
  });

  it("accepts the key as authorization header (any scheme case) or as api_key query", async () => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}';
    const answers = await Promise.all([
      post(body, { headers: { "content-type": "application/json", authorization: `APIKEY ${KEY}` } }),
      post(body, { headers: { "content-type": "application/json", authorization: `apikey ${KEY}` } }),
      post(body, { headers: { "content-type": "application/json", authorization: "ApiKey another-key" } }),
      post(body, { headers: { "content-type": "application/json" }, query: `?api_key=${KEY}` }),
      post(body, {
        headers: { "content-type": "application/json", authorization: "Basic Zm9vOmJhcg==" },
        query: `?api_key=${KEY}`,
      }),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ jsonrpc: "2.0", id: 1, result: "0x5" });
    }
  });

  it("accepts a key added to the set after the gateway started", async () => {
    const keys = new Set<string>();
    const gatewayNode = await startNodeAccess({ backend, apiKeys: keys });
    try {
      const body = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}';
      const headers = { "content-type": "application/json", authorization: "APIKEY later" };
      expect((await post(body, { url: gatewayNode.httpUrl, headers })).status).toBe(401);
      keys.add("later");
      expect((await post(body, { url: gatewayNode.httpUrl, headers })).json).toEqual({
        jsonrpc: "2.0",
        id: 1,
        result: "0x539",
      });
    } finally {
      await gatewayNode.close();
    }
  });

  it("answers CORS preflight without credentials", async () => {
    const response = await fetch(node.httpUrl, { method: "OPTIONS" });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-headers")).toContain("authorization");
  });
});

describe("HTTP transport rules", () => {
  it("allows only POST (405) after authentication", async () => {
    const response = await fetch(node.httpUrl, { headers: { authorization: `APIKEY ${KEY}` } });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toContain("POST");
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32600);
  });

  it("requires a JSON content type but ignores its charset", async () => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}';
    const auth = { authorization: `APIKEY ${KEY}` };
    expect((await post(body, { headers: { ...auth, "content-type": "text/plain" } })).status).toBe(415);
    expect((await post(body, { headers: { ...auth, "content-type": "application/json; charset=UTF-8" } })).status).toBe(
      200,
    );
    expect((await post(body, { headers: { ...auth, "content-type": "Application/JSON;charset=utf-8" } })).status).toBe(
      200,
    );
  });

  it("answers 413 with a JSON-RPC error for a body over the limit", async () => {
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: ["x".repeat(5000)] });
    const answer = await call(JSON.parse(big));
    expect(answer.status).toBe(413);
    expect(answer.json).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
  });

  it("answers 413 for a chunked body that grows over the limit", async () => {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        node.httpUrl,
        { method: "POST", headers: { "content-type": "application/json", authorization: `APIKEY ${KEY}` } },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on("error", reject);
      req.write('{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":["');
      for (let i = 0; i < 5; i++) req.write("x".repeat(1000));
      req.end('"]}');
    });
    expect(status).toBe(413);
    expect(JSON.parse(body)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
  });

  it("answers 404 for other paths", async () => {
    const response = await fetch(`${node.url}/other`, { method: "POST", headers: { authorization: `APIKEY ${KEY}` } });
    expect(response.status).toBe(404);
  });
});

describe("JSON-RPC 2.0 over HTTP", () => {
  it("answers the seed methods", async () => {
    expect((await call({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] })).json).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: "0x5",
    });
    const block = await call({ jsonrpc: "2.0", id: 2, method: "eth_getBlockByNumber", params: ["latest", false] });
    expect(block.json).toMatchObject({ jsonrpc: "2.0", id: 2, result: { number: "0x5", timestamp: "0x10" } });
  });

  it("answers a parse error with -32700 and id null", async () => {
    for (const body of ['{"jsonrpc":"2.0","id":1,"method":', "", "nope"]) {
      const answer = await post(body);
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    }
  });

  it("answers invalid requests with -32600", async () => {
    const cases: [unknown, unknown][] = [
      [{ id: 1, method: "eth_chainId" }, 1],
      [{ jsonrpc: "1.0", id: 1, method: "eth_chainId" }, 1],
      [{ jsonrpc: 2, id: "a", method: "eth_chainId" }, "a"],
      [{ jsonrpc: "2.0", id: 1, method: 5 }, 1],
      [{ jsonrpc: "2.0", id: 1 }, 1],
      [{ jsonrpc: "2.0", id: {}, method: "eth_chainId" }, null],
      [{ jsonrpc: "2.0", id: [1], method: "eth_chainId" }, null],
      [{ jsonrpc: "2.0", id: true, method: "eth_chainId" }, null],
      [1, null],
      ["eth_chainId", null],
      [null, null],
    ];
    for (const [request, id] of cases) {
      const answer = await call(request);
      expect(answer.json, JSON.stringify(request)).toMatchObject({ jsonrpc: "2.0", id, error: { code: -32600 } });
    }
  });

  it("answers unknown and admin methods with -32601, and eth_subscribe over HTTP too", async () => {
    for (const method of [
      "foo_bar",
      "personal_unlockAccount",
      "evm_mine",
      "miner_start",
      "debug_traceTransaction",
      "eth_sendTransaction",
      "eth_sign",
      "rpc.discover",
      "eth_subscribe",
    ]) {
      const answer = await call({ jsonrpc: "2.0", id: 7, method, params: [] });
      expect(answer.json, method).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32601 } });
    }
    expect(backend.calls.some((c) => c.method === "evm_mine" || c.method === "eth_sendTransaction")).toBe(false);
  });

  it("answers invalid params with -32602", async () => {
    const cases: unknown[] = [
      { jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: 5 },
      { jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: "x" },
      { jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: null },
      { jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: ["extra"] },
      { jsonrpc: "2.0", id: 1, method: "eth_getBlockByNumber", params: ["latest"] },
      { jsonrpc: "2.0", id: 1, method: "eth_getBlockByNumber", params: ["newest", false] },
      { jsonrpc: "2.0", id: 1, method: "eth_getBlockByNumber", params: ["0x01", false] },
      { jsonrpc: "2.0", id: 1, method: "eth_getBlockByNumber", params: [1, false] },
      { jsonrpc: "2.0", id: 1, method: "eth_getBlockByNumber", params: ["latest", "false"] },
      { jsonrpc: "2.0", id: 1, method: "eth_getBlockByNumber", params: { block: "latest", full: false } },
      { jsonrpc: "2.0", id: 1, method: "eth_getBalance", params: ["0x12"] },
      { jsonrpc: "2.0", id: 1, method: "eth_sendRawTransaction", params: ["0x123"] },
    ];
    for (const request of cases) {
      const answer = await call(request);
      expect(answer.json, JSON.stringify(request)).toMatchObject({ jsonrpc: "2.0", id: 1, error: { code: -32602 } });
    }
  });

  it("accepts every block tag and canonical hex numbers for eth_getBlockByNumber", async () => {
    for (const tag of ["latest", "earliest", "pending", "safe", "finalized", "0x0", "0x1f"]) {
      const answer = await call({ jsonrpc: "2.0", id: 1, method: "eth_getBlockByNumber", params: [tag, true] });
      expect(answer.json, tag).toHaveProperty("result");
    }
  });

  it("echoes ids of every valid type exactly", async () => {
    const ids = [0, -1, 42, 1.5, 2 ** 53 - 1, "", "abc", "ünï", null];
    for (const id of ids) {
      const answer = await call({ jsonrpc: "2.0", id, method: "eth_chainId" });
      expect(answer.json, String(id)).toEqual({ jsonrpc: "2.0", id, result: "0x539" });
    }
    // Ids JSON.parse cannot hold exactly come back as they were written.
    for (const raw of [
      "12345678901234567890",
      "1e400",
      "-0.1000000000000000055511151231257827",
      "0.30000000000000004",
    ]) {
      const answer = await post(`{"jsonrpc":"2.0","id":${raw},"method":"eth_chainId"}`);
      expect(answer.text).toBe(`{"jsonrpc":"2.0","id":${raw},"result":"0x539"}`);
    }
    // Another spelling of an exactly representable number comes back as the same JSON value.
    expect((await post('{"jsonrpc":"2.0","id":1.5E+3,"method":"eth_chainId"}')).json).toEqual({
      jsonrpc: "2.0",
      id: 1500,
      result: "0x539",
    });
  });

  it("treats a request without id as a notification: 204 and no body, but still executes it", async () => {
    const before = backend.calls.length;
    const answer = await call({ jsonrpc: "2.0", method: "eth_blockNumber" });
    expect(answer.status).toBe(204);
    expect(answer.text).toBe("");
    expect(backend.calls.length).toBe(before + 1);
    // Errors of notifications are not reported either.
    expect((await call({ jsonrpc: "2.0", method: "no_such_method" })).status).toBe(204);
  });

  it("answers batches item by item, in order, leaving out notifications", async () => {
    const answer = await post(
      JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "eth_blockNumber" },
        { jsonrpc: "2.0", method: "eth_blockNumber" },
        { jsonrpc: "2.0", id: "two", method: "nope" },
        1,
        { jsonrpc: "2.0", id: 3, method: "eth_chainId" },
      ]),
    );
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual([
      { jsonrpc: "2.0", id: 1, result: "0x5" },
      { jsonrpc: "2.0", id: "two", error: { code: -32601, message: expect.any(String) } },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.any(String) } },
      { jsonrpc: "2.0", id: 3, result: "0x539" },
    ]);
  });

  it("answers an empty batch and an oversized batch with one -32600 error", async () => {
    expect((await post("[]")).json).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    const six = Array.from({ length: 6 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "eth_chainId" }));
    expect((await call(six)).json).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
  });

  it("answers an all-notification batch with 204", async () => {
    const answer = await call([
      { jsonrpc: "2.0", method: "eth_chainId" },
      { jsonrpc: "2.0", method: "eth_blockNumber" },
    ]);
    expect(answer.status).toBe(204);
    expect(answer.text).toBe("");
  });

  it("passes chain errors on with code, message and data, and never a stack", async () => {
    const reverted = await call({
      jsonrpc: "2.0",
      id: 1,
      method: "eth_call",
      params: [{ to: `0x${"00".repeat(20)}` }, "latest"],
    });
    expect(reverted.json).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: 3, message: "execution reverted", data: "0x08c379a0" },
    });
    const failed = await call({ jsonrpc: "2.0", id: 2, method: "eth_estimateGas", params: [{}] });
    expect(failed.json).toEqual({ jsonrpc: "2.0", id: 2, error: { code: -32000, message: "boom" } });
    expect(failed.text).not.toContain("secretFrame");
  });

  it("answers locally what never changes and what the node must not reveal", async () => {
    const before = backend.calls.length;
    expect((await call({ jsonrpc: "2.0", id: 1, method: "eth_chainId" })).json).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: "0x539",
    });
    expect((await call({ jsonrpc: "2.0", id: 1, method: "eth_accounts" })).json).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: [],
    });
    expect((await call({ jsonrpc: "2.0", id: 1, method: "eth_gasPrice" })).json).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: null,
    });
    expect(backend.calls.length).toBe(before + 1);
  });
});

// --- WebSocket -------------------------------------------------------------------------------------

function openSocket(url: string, headers?: Record<string, string>): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });
}

/** Collects every message a socket receives, parsed. */
function inbox(ws: WebSocket): { messages: unknown[]; next(predicate?: (m: any) => boolean): Promise<any> } {
  const messages: unknown[] = [];
  const waiters: { predicate: (m: any) => boolean; resolve: (m: unknown) => void }[] = [];
  ws.on("message", (data) => {
    const message = JSON.parse(String(data));
    messages.push(message);
    for (const waiter of [...waiters]) {
      if (waiter.predicate(message)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    }
  });
  return {
    messages,
    next(predicate = () => true) {
      const seen = messages.find(predicate);
      if (seen) {
        messages.splice(messages.indexOf(seen), 1);
        return Promise.resolve(seen);
      }
      return new Promise((resolve) =>
        waiters.push({
          predicate,
          resolve: (m) => {
            messages.splice(messages.indexOf(m), 1);
            resolve(m);
          },
        }),
      );
    },
  };
}

/** The raw HTTP answer to a WebSocket upgrade that the server refuses. */
function upgradeAnswer(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once("unexpected-response", (_req, res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.once("open", () => {
      ws.close();
      reject(new Error("the upgrade was accepted"));
    });
    ws.once("error", () => undefined);
  });
}

describe("WebSocket authentication", () => {
  it("refuses the upgrade with HTTP 401 and the exact body without a key or with a wrong one", async () => {
    for (const attempt of [
      upgradeAnswer(node.wsUrl),
      upgradeAnswer(`${node.wsUrl}?api_key=wrong`),
      upgradeAnswer(node.wsUrl, { authorization: "APIKEY wrong" }),
    ]) {
      expect(await attempt).toEqual({ status: 401, body: UNAUTHORIZED });
    }
  });

  it("accepts the key in the query and in the authorization header", async () => {
    for (const ws of [
      await openSocket(`${node.wsUrl}?api_key=${KEY}`),
      await openSocket(node.wsUrl, { authorization: `apikey ${KEY}` }),
    ]) {
      const box = inbox(ws);
      ws.send('{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}');
      expect(await box.next()).toEqual({ jsonrpc: "2.0", id: 1, result: `0x${backend.blockNumber.toString(16)}` });
      ws.close();
    }
  });

  it("refuses upgrades on other paths with 404", async () => {
    expect((await upgradeAnswer(`${node.url.replace("http", "ws")}/other?api_key=${KEY}`)).status).toBe(404);
  });
});

describe("JSON-RPC 2.0 over WebSocket", () => {
  let ws: WebSocket;
  let box: ReturnType<typeof inbox>;

  beforeAll(async () => {
    ws = await openSocket(`${node.wsUrl}?api_key=${KEY}`);
    box = inbox(ws);
  });

  afterAll(() => ws.close());

  it("answers a request sent in the same tick as the open event", async () => {
    const answer = await new Promise<unknown>((resolve, reject) => {
      const socket = new WebSocket(`${node.wsUrl}?api_key=${KEY}`);
      socket.on("open", () => socket.send('{"jsonrpc":"2.0","id":"first","method":"eth_chainId"}'));
      socket.on("message", (data) => {
        resolve(JSON.parse(String(data)));
        socket.close();
      });
      socket.on("error", reject);
    });
    expect(answer).toEqual({ jsonrpc: "2.0", id: "first", result: "0x539" });
  });

  it("answers a request that arrives in the same TCP segment as the upgrade request", async () => {
    const port = new URL(node.url).port;
    const frame = maskedTextFrame('{"jsonrpc":"2.0","id":99,"method":"eth_chainId"}');
    const handshake = [
      `GET /ws?api_key=${KEY} HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      "Upgrade: websocket",
      "Connection: Upgrade",
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
      "Sec-WebSocket-Version: 13",
      "",
      "",
    ].join("\r\n");
    const received = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1", () =>
        socket.write(Buffer.concat([Buffer.from(handshake), frame])),
      );
      let data = Buffer.alloc(0);
      socket.on("data", (chunk) => {
        data = Buffer.concat([data, chunk]);
        const text = data.toString("latin1");
        if (text.includes('"id":99')) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.on("error", reject);
    });
    expect(received.startsWith("HTTP/1.1 101")).toBe(true);
    expect(received).toContain('{"jsonrpc":"2.0","id":99,"result":"0x539"}');
  });

  it("applies the same JSON-RPC rules as HTTP", async () => {
    ws.send("{not json");
    expect(await box.next()).toMatchObject({ id: null, error: { code: -32700 } });
    ws.send('{"jsonrpc":"2.0","id":{},"method":"eth_chainId"}');
    expect(await box.next()).toMatchObject({ id: null, error: { code: -32600 } });
    ws.send('{"jsonrpc":"2.0","id":"m","method":"evm_mine"}');
    expect(await box.next()).toMatchObject({ id: "m", error: { code: -32601 } });
    ws.send('{"jsonrpc":"2.0","id":12345678901234567890,"method":"eth_getBlockByNumber","params":["latest"]}');
    const raw = await new Promise<string>((resolve) => ws.once("message", (data) => resolve(String(data))));
    expect(raw).toMatch(/^\{"jsonrpc":"2.0","id":12345678901234567890,"error":\{"code":-32602/);
    box.messages.length = 0;
    ws.send(
      '[{"jsonrpc":"2.0","id":1,"method":"eth_chainId"},{"jsonrpc":"2.0","method":"eth_chainId"},{"jsonrpc":"2.0","id":null,"method":"eth_chainId"}]',
    );
    expect(await box.next()).toEqual([
      { jsonrpc: "2.0", id: 1, result: "0x539" },
      { jsonrpc: "2.0", id: null, result: "0x539" },
    ]);
    // A notification gets no answer: the next answer on the socket is for the request after it.
    ws.send('{"jsonrpc":"2.0","method":"eth_chainId"}');
    ws.send('{"jsonrpc":"2.0","id":"after","method":"eth_chainId"}');
    expect(await box.next()).toEqual({ jsonrpc: "2.0", id: "after", result: "0x539" });
  });

  it("delivers newHeads notifications to the subscribing socket only, until unsubscribed", async () => {
    const other = await openSocket(`${node.wsUrl}?api_key=${KEY}`);
    const otherBox = inbox(other);
    ws.send('{"jsonrpc":"2.0","id":"sub","method":"eth_subscribe","params":["newHeads"]}');
    const subscribed = await box.next((m) => m.id === "sub");
    expect(subscribed.result).toMatch(/^0x[0-9a-f]{32}$/);
    backend.emitBlock();
    const notification = await box.next((m) => m.method === "eth_subscription");
    expect(notification).toEqual({
      jsonrpc: "2.0",
      method: "eth_subscription",
      params: {
        subscription: subscribed.result,
        result: { number: `0x${backend.blockNumber.toString(16)}`, hash: `0x${"cd".repeat(32)}` },
      },
    });
    ws.send(JSON.stringify({ jsonrpc: "2.0", id: "unsub", method: "eth_unsubscribe", params: [subscribed.result] }));
    expect(await box.next((m) => m.id === "unsub")).toEqual({ jsonrpc: "2.0", id: "unsub", result: true });
    // Another socket cannot cancel it, and a cancelled subscription cannot be cancelled twice.
    other.send(JSON.stringify({ jsonrpc: "2.0", id: "x", method: "eth_unsubscribe", params: [subscribed.result] }));
    expect(await otherBox.next()).toEqual({ jsonrpc: "2.0", id: "x", result: false });
    expect(otherBox.messages).toEqual([]);
    other.close();
  });

  it("rejects unsupported subscription kinds with -32602", async () => {
    ws.send('{"jsonrpc":"2.0","id":"s2","method":"eth_subscribe","params":["somethingElse"]}');
    expect(await box.next((m) => m.id === "s2")).toMatchObject({ error: { code: -32602 } });
  });

  it("stops listening for blocks once the last subscribed socket closes", async () => {
    const socket = await openSocket(`${node.wsUrl}?api_key=${KEY}`);
    const socketBox = inbox(socket);
    expect(backend.listeners.size).toBe(0);
    socket.send('{"jsonrpc":"2.0","id":1,"method":"eth_subscribe","params":["newHeads"]}');
    await socketBox.next();
    expect(backend.listeners.size).toBe(1);
    const closed = new Promise((resolve) => socket.once("close", resolve));
    socket.close();
    await closed;
    await waitFor(() => backend.listeners.size === 0);
    expect(backend.listeners.size).toBe(0);
  });

  it("closes a socket that sends a message over the size limit (1009)", async () => {
    const socket = await openSocket(`${node.wsUrl}?api_key=${KEY}`);
    const code = await new Promise<number>((resolve) => {
      socket.once("close", (c) => resolve(c));
      socket.on("error", () => undefined);
      socket.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: ["x".repeat(5000)] }));
    });
    expect(code).toBe(1009);
  });

  it("closes a socket with too many unanswered requests (1008)", async () => {
    const limited = await startNodeAccess({ backend, apiKeys: new Set([KEY]), maxInFlightPerSocket: 2 });
    try {
      const socket = await openSocket(`${limited.wsUrl}?api_key=${KEY}`);
      const code = await new Promise<number>((resolve) => {
        socket.once("close", (c) => resolve(c));
        for (let id = 0; id < 3; id++)
          socket.send(JSON.stringify({ jsonrpc: "2.0", id, method: "eth_getLogs", params: [{}] }));
      });
      expect(code).toBe(1008);
    } finally {
      await limited.close();
    }
  });

  it("answers pings (keepalive)", async () => {
    const pong = new Promise<void>((resolve) => ws.once("pong", () => resolve()));
    ws.ping();
    await pong;
  });
});

describe("keepalive", () => {
  it("terminates a connection that stops answering pings", async () => {
    const quick = await startNodeAccess({ backend, apiKeys: new Set([KEY]), pingIntervalMs: 50 });
    try {
      const socket = new WebSocket(`${quick.wsUrl}?api_key=${KEY}`, { autoPong: false });
      await new Promise((resolve) => socket.once("open", resolve));
      const closed = await new Promise<boolean>((resolve) => socket.once("close", () => resolve(true)));
      expect(closed).toBe(true);
    } finally {
      await quick.close();
    }
  });
});

describe("attachRpcGateway", () => {
  let server: Server;
  let base: string;
  let detach: () => void;
  const gateway = () => createRpcGateway({ backend: new ScriptedBackend(), apiKeys: new Set([KEY]) });
  const mounted = gateway();

  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("app");
    });
    detach = attachRpcGateway(server, mounted);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await mounted.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("serves /rpc and /ws next to the server's own routes", async () => {
    expect(await (await fetch(`${base}/anything`)).text()).toBe("app");
    const answer = await post('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}', { url: `${base}/rpc` });
    expect(answer.json).toEqual({ jsonrpc: "2.0", id: 1, result: "0x539" });
    const ws = await openSocket(`${base.replace("http", "ws")}/ws?api_key=${KEY}`);
    const box = inbox(ws);
    ws.send('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}');
    expect(await box.next()).toEqual({ jsonrpc: "2.0", id: 1, result: "0x539" });
    ws.close();
  });

  it("restores the previous listeners when detached", async () => {
    detach();
    const response = await fetch(`${base}/rpc`, { method: "POST", body: "{}" });
    expect(await response.text()).toBe("app");
    detach = attachRpcGateway(server, mounted);
  });
});

function maskedTextFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  if (payload.length >= 126) throw new Error("test frame too long");
  const mask = Buffer.from([1, 2, 3, 4]);
  const masked = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]!));
  return Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, masked]);
}

async function waitFor(condition: () => boolean, timeoutMs = OUTER_BOUND_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}
