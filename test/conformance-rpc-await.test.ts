// Requests sent together over one WebSocket may be answered in any order: the checks match answers by
// id and must not drop the one that arrives first while waiting for another.
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import type { HttpProbe } from "../conformance/transport/probe.ts";
import { Redactor } from "../conformance/transport/redact.ts";
import { RpcClient } from "../conformance/transport/rpc.ts";
import { openWs } from "../conformance/transport/ws-probe.ts";

let server: WebSocketServer;
let url: string;

beforeAll(async () => {
  // Answers each pair of requests in reverse order, after a notification.
  server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  server.on("connection", (socket) => {
    const held: { id: unknown }[] = [];
    socket.on("message", (data) => {
      held.push(JSON.parse(String(data)) as { id: unknown });
      if (held.length < 2) return;
      socket.send(
        JSON.stringify({ jsonrpc: "2.0", method: "eth_subscription", params: { subscription: "0x1", result: {} } }),
      );
      for (const r of held.reverse())
        socket.send(JSON.stringify({ jsonrpc: "2.0", id: r.id, result: `0x${String(r.id)}` }));
      held.length = 0;
    });
  });
  await new Promise((resolve) => server.once("listening", resolve));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function client(timeoutMs: number): RpcClient {
  return new RpcClient(
    { rpcUrl: url, wsUrl: url, apiKey: "k" },
    undefined as unknown as HttpProbe,
    new Redactor(),
    timeoutMs,
  );
}

describe("awaitIds", () => {
  it("matches answers that arrive out of order, in the order asked", async () => {
    const conn = await openWs({ url, timeoutMs: 2000, redactor: new Redactor() });
    try {
      conn.send({ jsonrpc: "2.0", id: 1, method: "a", params: [] });
      conn.send({ jsonrpc: "2.0", id: 2, method: "b", params: [] });
      const [one, two] = await client(2000).awaitIds(conn, [1, 2]);
      expect(one!.result).toBe("0x1");
      expect(two!.result).toBe("0x2");
    } finally {
      conn.close();
    }
  });

  it("names the ids still missing when the time runs out", async () => {
    const conn = await openWs({ url, timeoutMs: 2000, redactor: new Redactor() });
    try {
      conn.send({ jsonrpc: "2.0", id: 1, method: "a", params: [] });
      conn.send({ jsonrpc: "2.0", id: 2, method: "b", params: [] });
      await expect(client(300).awaitIds(conn, [1, 3])).rejects.toThrow(/no answer with id 3 within 300 ms/);
    } finally {
      conn.close();
    }
  });
});
