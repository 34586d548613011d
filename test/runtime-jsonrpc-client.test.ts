import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getGlobalDispatcher, WebSocket as UndiciWebSocket } from "undici";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type WebSocket as ServerSocket, WebSocketServer } from "ws";
import {
  type HttpRpcOptions,
  httpRpc as httpRpcOn,
  JsonRpcError,
  RpcTransportError,
  type WsRpcOptions,
  wsRpc as wsRpcOn,
} from "../runtime/jsonrpc/client.ts";
import type { StandardWebSocketClass } from "../runtime/jsonrpc/socket.ts";

const KEY = "rpc-key-1";
const UNAUTHORIZED = '{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"unauthorized"}}';

/** A tiny JSON-RPC server: enough methods to exercise the client, auth by query or header. */
const received: unknown[] = [];
function answer(message: Record<string, unknown>, socket?: ServerSocket): Record<string, unknown> | undefined {
  received.push(message);
  const reply = (body: Record<string, unknown>) =>
    "id" in message ? { jsonrpc: "2.0", id: message.id, ...body } : undefined;
  switch (message.method) {
    case "eth_blockNumber":
      return reply({ result: "0x10" });
    case "echo":
      return reply({ result: message.params ?? null });
    case "fail":
      return reply({ error: { code: -32602, message: "invalid params", data: { field: 0 } } });
    case "hang":
      return undefined;
    case "eth_subscribe":
      // The first notifications go out right behind the answer, before the client can register.
      setImmediate(() => {
        socket?.send(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: "0xsub1" }));
        for (const n of [1, 2])
          socket?.send(
            JSON.stringify({
              jsonrpc: "2.0",
              method: "eth_subscription",
              params: { subscription: "0xsub1", result: { number: n } },
            }),
          );
        setTimeout(
          () =>
            socket?.send(
              JSON.stringify({
                jsonrpc: "2.0",
                method: "eth_subscription",
                params: { subscription: "0xsub1", result: { number: 3 } },
              }),
            ),
          20,
        );
      });
      return undefined;
    case "eth_unsubscribe":
      return reply({ result: true });
    default:
      return reply({ error: { code: -32601, message: "method not found" } });
  }
}

function authorized(req: IncomingMessage): boolean {
  const url = new URL(req.url ?? "/", "http://x");
  return url.searchParams.get("api_key") === KEY || req.headers.authorization === `APIKEY ${KEY}`;
}

/** A socket's messages: answered, a batch at once, "slow" after 50 ms, "drop" by closing it. */
function serve(ws: ServerSocket): void {
  ws.on("message", (data) => {
    const parsed = JSON.parse(String(data));
    if (Array.isArray(parsed)) return ws.send(JSON.stringify(parsed.map((m) => answer(m, ws)).filter(Boolean)));
    if (parsed.method === "slow") {
      setTimeout(() => ws.send(JSON.stringify({ jsonrpc: "2.0", id: parsed.id, result: "slow" })), 50);
      return;
    }
    if (parsed.method === "drop") return ws.terminate();
    const out = answer(parsed, ws);
    if (out !== undefined) ws.send(JSON.stringify(out));
  });
}

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (!authorized(req)) {
      res.writeHead(401, { "content-type": "application/json" }).end(UNAUTHORIZED);
      return;
    }
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const parsed = JSON.parse(body);
      const out = Array.isArray(parsed)
        ? parsed
            .map((m) => answer(m))
            .filter(Boolean)
            .reverse()
        : answer(parsed);
      if (out === undefined) res.writeHead(204).end();
      else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(out));
    });
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on("upgrade", (req, socket, head) => {
    if (!authorized(req)) {
      socket.end(
        `HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: ${UNAUTHORIZED.length}\r\nconnection: close\r\n\r\n${UNAUTHORIZED}`,
      );
      return;
    }
    const accept = () => wss.handleUpgrade(req, socket, head, serve);
    // /slow-open: the handshake completes only after 300 ms (a target far away or busy).
    if (req.url?.startsWith("/slow-open")) setTimeout(accept, 300);
    else accept();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

// Off Node (and with dispatcher: false) fetch sends; on Node undici's global dispatcher (lazily), or the one handed in.
for (const [transport, dispatcher] of [
  ["fetch", false],
  ["the default (on Node: undici, imported lazily)", undefined],
  ["an undici dispatcher handed in", getGlobalDispatcher()],
] as const)
  describe(`httpRpc over ${transport}`, () => {
    const httpRpc = (options: HttpRpcOptions) => httpRpcOn({ ...options, dispatcher });
    for (const auth of ["query", "header"] as const) {
      it(`calls methods with the key in the ${auth}`, async () => {
        const client = httpRpc({ url: `http://${base}/rpc`, apiKey: KEY, auth });
        expect(await client.request("eth_blockNumber")).toBe("0x10");
        expect(await client.request("echo", [1, "two", { three: 3 }])).toEqual([1, "two", { three: 3 }]);
      });
    }

    it("auto-increments request ids and omits params when none are given", async () => {
      received.length = 0;
      const client = httpRpc({ url: `http://${base}/rpc`, apiKey: KEY });
      await client.request("eth_blockNumber");
      await client.request("echo", []);
      expect(received).toEqual([
        { jsonrpc: "2.0", id: 1, method: "eth_blockNumber" },
        { jsonrpc: "2.0", id: 2, method: "echo", params: [] },
      ]);
    });

    it("raises JsonRpcError with code, message and data", async () => {
      const client = httpRpc({ url: `http://${base}/rpc`, apiKey: KEY });
      const error = (await client.request("fail", [1]).catch((e: unknown) => e)) as JsonRpcError;
      expect(error).toBeInstanceOf(JsonRpcError);
      expect(error).toMatchObject({ code: -32602, message: "invalid params", data: { field: 0 } });
      await expect(client.request("nope")).rejects.toMatchObject({ code: -32601 });
    });

    it("reports a missing or wrong key as the server's -32001 error", async () => {
      for (const client of [
        httpRpc({ url: `http://${base}/rpc` }),
        httpRpc({ url: `http://${base}/rpc`, apiKey: "wrong", auth: "header" }),
      ]) {
        await expect(client.request("eth_blockNumber")).rejects.toMatchObject({
          name: "JsonRpcError",
          code: -32001,
          message: "unauthorized",
        });
      }
    });

    it("sends notifications and batches, answering a batch in call order", async () => {
      received.length = 0;
      const client = httpRpc({ url: `http://${base}/rpc`, apiKey: KEY });
      await client.notify("echo", ["note"]);
      expect(received).toEqual([{ jsonrpc: "2.0", method: "echo", params: ["note"] }]);
      const results = await client.batch([
        { method: "eth_blockNumber" },
        { method: "fail" },
        { method: "echo", params: ["x"] },
      ]);
      expect(results[0]).toEqual({ ok: true, result: "0x10" });
      expect(results[1].ok).toBe(false);
      expect(!results[1].ok && results[1].error.code).toBe(-32602);
      expect(results[2]).toEqual({ ok: true, result: ["x"] });
    });

    it("reports an unreachable endpoint as a transport error", async () => {
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
      const port = (probe.address() as AddressInfo).port;
      await new Promise((resolve) => probe.close(resolve));
      const error = (await httpRpc({ url: `http://127.0.0.1:${port}/rpc` })
        .request("eth_blockNumber")
        .catch((e: unknown) => e)) as RpcTransportError;
      expect(error).toBeInstanceOf(RpcTransportError);
      expect(error.kind).toBe("network");
    });
  });

describe("httpRpc's sender", () => {
  it("is fetch with dispatcher: false, the dispatcher handed in otherwise, and undici's (not fetch) by default on Node", async () => {
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    try {
      const url = `http://${base}/rpc`;
      await httpRpcOn({ url, apiKey: KEY, dispatcher: false }).request("eth_blockNumber");
      expect(fetchSpy).toHaveBeenCalledTimes(1);
      const sent: string[] = [];
      const global = getGlobalDispatcher();
      const recording = {
        request: (options: Parameters<typeof global.request>[0]) => (sent.push(options.path), global.request(options)),
      };
      expect(await httpRpcOn({ url, apiKey: KEY, dispatcher: recording }).request("eth_blockNumber")).toBe("0x10");
      expect(sent).toEqual([`/rpc?api_key=${KEY}`]);
      expect(await httpRpcOn({ url, apiKey: KEY }).request("eth_blockNumber")).toBe("0x10");
      expect(fetchSpy).toHaveBeenCalledTimes(1);
    } finally {
      fetchSpy.mockRestore();
    }
  });
});

// ws on Node; the standard WebSocket (undici's here, the global one on Bun, Deno, browsers, edge) elsewhere.
for (const [implementation, webSocket] of [
  ["ws", undefined],
  ["the standard WebSocket", UndiciWebSocket as unknown as StandardWebSocketClass],
] as const)
  describe(`wsRpc over ${implementation}`, () => {
    const wsRpc = (options: WsRpcOptions) => wsRpcOn({ ...options, webSocket });
    for (const auth of ["query", "header"] as const) {
      it(`connects with the key in the ${auth} and may send before the socket is open`, async () => {
        const client = wsRpc({ url: `ws://${base}/ws`, apiKey: KEY, auth });
        try {
          expect(await client.request("eth_blockNumber")).toBe("0x10");
        } finally {
          await client.close();
        }
      });
    }

    it("matches answers to requests by id when they come back out of order", async () => {
      const client = wsRpc({ url: `ws://${base}/ws`, apiKey: KEY });
      try {
        const [slow, fast] = await Promise.all([client.request("slow"), client.request("echo", ["fast"])]);
        expect(slow).toBe("slow");
        expect(fast).toEqual(["fast"]);
        await expect(client.request("fail")).rejects.toBeInstanceOf(JsonRpcError);
        const batch = await client.batch([{ method: "echo", params: [1] }, { method: "nope" }]);
        expect(batch[0]).toEqual({ ok: true, result: [1] });
        expect(batch[1].ok).toBe(false);
      } finally {
        await client.close();
      }
    });

    it("routes eth_subscription notifications, including those that race the subscribe answer", async () => {
      const client = wsRpc({ url: `ws://${base}/ws`, apiKey: KEY });
      try {
        const seen: unknown[] = [];
        const all: string[] = [];
        client.onNotification((method) => all.push(method));
        const third = new Promise<void>((resolve) => {
          void client
            .subscribe(["newHeads"], (result) => {
              seen.push(result);
              if (seen.length === 3) resolve();
            })
            .then((sub) => {
              expect(sub.id).toBe("0xsub1");
              subscription = sub;
            });
        });
        let subscription: { unsubscribe(): Promise<boolean> } | undefined;
        await third;
        expect(seen).toEqual([{ number: 1 }, { number: 2 }, { number: 3 }]);
        expect(all).toEqual(["eth_subscription", "eth_subscription", "eth_subscription"]);
        expect(await subscription!.unsubscribe()).toBe(true);
      } finally {
        await client.close();
      }
    });

    it.skipIf(webSocket !== undefined)(
      "rejects with the server's -32001 error when the upgrade is refused",
      async () => {
        const client = wsRpc({ url: `ws://${base}/ws`, apiKey: "wrong" });
        await expect(client.ready).rejects.toMatchObject({
          name: "JsonRpcError",
          code: -32001,
          message: "unauthorized",
        });
        await expect(client.request("eth_blockNumber")).rejects.toMatchObject({ code: -32001 });
        await client.close();
      },
    );

    it.skipIf(webSocket === undefined)(
      "rejects naming the endpoint when the upgrade is refused (the standard API hides the status)",
      async () => {
        const client = wsRpc({ url: `ws://${base}/ws`, apiKey: "wrong" });
        await expect(client.ready).rejects.toMatchObject({ name: "RpcTransportError", kind: "network" });
        await expect(client.ready).rejects.toThrow(`WebSocket ws://${base} failed`);
        await expect(client.request("eth_blockNumber")).rejects.toBeInstanceOf(RpcTransportError);
        await client.close();
      },
    );

    it("a time limit that ends while the socket is still opening rejects the request, never the process", async () => {
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on("unhandledRejection", onUnhandled);
      const client = wsRpc({ url: `ws://${base}/slow-open`, apiKey: KEY, timeoutMs: 50 });
      try {
        const timedOut = (await client.request("hang").catch((e: unknown) => e)) as RpcTransportError;
        // The request's own limit, or the socket's (the same 50 ms) when it ends first.
        expect(timedOut).toBeInstanceOf(RpcTransportError);
        expect(timedOut.message).toMatch(/no answer within 50 ms|did not open within 50 ms|handshake has timed out/);
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(unhandled).toEqual([]);
      } finally {
        process.off("unhandledRejection", onUnhandled);
        await client.close();
      }
    });

    it("times out an unanswered request and fails pending ones when the socket closes", async () => {
      const client = wsRpc({ url: `ws://${base}/ws`, apiKey: KEY, timeoutMs: 100 });
      try {
        const timedOut = (await client.request("hang").catch((e: unknown) => e)) as RpcTransportError;
        expect(timedOut).toBeInstanceOf(RpcTransportError);
        expect(timedOut.kind).toBe("timeout");
        const pending = client.request("hang").catch((e) => e);
        await client.notify("drop");
        const closed = (await pending) as RpcTransportError;
        expect(closed).toBeInstanceOf(RpcTransportError);
        expect(closed.kind).toBe("closed");
        await expect(client.request("eth_blockNumber")).rejects.toMatchObject({ kind: "closed" });
      } finally {
        await client.close();
      }
    });
  });
