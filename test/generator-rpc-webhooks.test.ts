// rpc.ts and webhooks.ts generated from spec/: the typed JSON-RPC client over HTTP and WebSocket
// against a small fake node, and verifyWebhook against deliveries signed by runtime/webhooks/signature.ts.

import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { generate } from "../generator/index.ts";
import { RpcTransportError } from "../runtime/jsonrpc/client.ts";
import { generateWebhookKeyPair, signWebhook } from "../runtime/webhooks/signature.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const API_KEY = "rpc_key_1";
const BLOCK = {
  hash: `0x${"ab".repeat(32)}`,
  parentHash: `0x${"cd".repeat(32)}`,
  number: "0x10",
  timestamp: "0x6553f100",
  transactions: [],
};

let work: string;
let out: string;
let server: Server;
let wss: WebSocketServer;
let base: string;
let badResult = false;

/** Answers a JSON-RPC request the way a node would (only what the test needs). */
function answer(request: { id: unknown; method: string; params?: unknown[] }): unknown {
  if (request.method === "eth_blockNumber") return { jsonrpc: "2.0", id: request.id, result: badResult ? 16 : "0x10" };
  if (request.method === "eth_getBlockByNumber")
    return { jsonrpc: "2.0", id: request.id, result: request.params?.[0] === "latest" ? BLOCK : null };
  return { jsonrpc: "2.0", id: request.id, error: { code: -32601, message: "method not found" } };
}

beforeAll(async () => {
  work = await mkdtemp(join(ROOT, ".tmp-gen-rpc-"));
  out = join(work, "out");
  await generate({
    specPath: join(ROOT, "spec/openapi.yaml"),
    rpcSpecPath: join(ROOT, "spec/openrpc.json"),
    outDir: out,
  });
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.searchParams.get("api_key") !== API_KEY && req.headers.authorization !== `APIKEY ${API_KEY}`) {
      res
        .writeHead(401, { "content-type": "application/json" })
        .end('{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"unauthorized"}}');
      return;
    }
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer(JSON.parse(body)))),
    );
  });
  wss = new WebSocketServer({ server, path: "/ws" });
  wss.on("connection", (socket) =>
    socket.on("message", (data) => socket.send(JSON.stringify(answer(JSON.parse(String(data)))))),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  wss?.close();
  await new Promise((resolve) => server?.close(resolve));
  await rm(work, { recursive: true, force: true });
});

describe("rpc.ts", () => {
  it("declares params as tuples and results per OpenRPC method", async () => {
    const text = await readFile(join(out, "rpc.ts"), "utf8");
    expect(text).toContain(
      "export type EthGetBlockByNumberParams = [block: RpcBlockNumberOrTag, fullTransactions: boolean];",
    );
    expect(text).toContain("export type EthGetBlockByNumberResult = RpcBlock | null;");
    expect(text).toContain("eth_blockNumber(...params: EthBlockNumberParams): Promise<EthBlockNumberResult>;");
    expect(text).toContain("export function createRpcClient(options: RpcClientOptions): RpcClient {");
  });

  it("calls typed methods over HTTP (key in the query or a header) and over WebSocket", async () => {
    const { createRpcClient } = await import(pathToFileURL(join(out, "rpc.ts")).href);
    const viaQuery = createRpcClient({ url: `http://${base}/rpc`, wsUrl: `ws://${base}/ws`, apiKey: API_KEY });
    const viaHeader = createRpcClient({ url: `http://${base}/rpc`, apiKey: API_KEY, auth: "header" });
    try {
      expect(await viaQuery.eth_blockNumber()).toBe("0x10");
      expect(await viaHeader.eth_getBlockByNumber("latest", false)).toEqual(BLOCK);
      expect(await viaHeader.eth_getBlockByNumber("0x99", false)).toBeNull();
      expect(await viaQuery.ws.eth_blockNumber()).toBe("0x10");
    } finally {
      await viaQuery.close();
      await viaHeader.close();
    }
  });

  it("refuses a result that does not match the method's schema", async () => {
    const { createRpcClient } = await import(pathToFileURL(join(out, "rpc.ts")).href);
    const client = createRpcClient({ url: `http://${base}/rpc`, apiKey: API_KEY });
    badResult = true;
    try {
      const error = await client.eth_blockNumber().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RpcTransportError);
      expect((error as RpcTransportError).message).toMatch(/eth_blockNumber: the result does not match the spec/);
    } finally {
      badResult = false;
      await client.close();
    }
  });
});

describe("webhooks.ts", () => {
  // The real service's envelope (spec x-custody-webhook-signature.event-envelope); the event id travels in a header.
  const event = {
    webhook_id: "whk_1",
    resource_id: "wal_1",
    url: "https://hooks.example.com/custody",
    payload: {
      id: "wal_1",
      wallet_id: "wal_1",
      status: "success",
      workspace_id: "ws_1",
      name: "Treasury",
      wallet_type: "mpc",
    },
    event: "wallet.created",
  };
  const eventId = "evt_01";
  const body = JSON.stringify(event);
  const now = 1_735_689_600;

  it("a union discriminated by type, one schema per event type", async () => {
    const text = await readFile(join(out, "webhooks.ts"), "utf8");
    expect(text).toContain('export const WebhookEventSchema = z.discriminatedUnion("event", [');
    expect(text).toContain('"wallet.created": S.WalletCreatedEventSchema,');
  });

  it("exports the spec's x-custody-webhook-delivery as webhookDelivery, its x-* annotations left out; none without the extension", async () => {
    const { webhookDelivery } = await import(pathToFileURL(join(out, "webhooks.ts")).href);
    expect(webhookDelivery.attempts["timeout-seconds"]).toBe(10);
    expect(webhookDelivery.latency["healthy-endpoint-seconds"]).toBe(5);
    expect(JSON.stringify(webhookDelivery)).not.toMatch(/"x-(source|reason)"/);
    const { webhookDelivery: fromModel } = await import("../generator/model/webhooks.ts");
    expect(fromModel({})).toBeUndefined();
    expect(
      fromModel({
        "x-custody-webhook-delivery": { "x-source": "assumed", a: { "x-reason": "r", b: [1, { "x-z": 1, c: 2 }] } },
      }),
    ).toEqual({ a: { b: [1, { c: 2 }] } });
  });

  it("verifyWebhook accepts a signed delivery and returns the typed event; refuses tampering and replays", async () => {
    const hooks = await import(pathToFileURL(join(out, "webhooks.ts")).href);
    const keys = generateWebhookKeyPair();
    const headers = signWebhook({
      profile: "standard-webhooks",
      privateKey: keys.privateKey,
      id: eventId,
      timestamp: now,
      body,
    });
    expect(
      hooks.verifyWebhook({ profile: "standard-webhooks", publicKeyBase64: keys.publicKeyBase64, headers, body, now }),
    ).toEqual(event);
    // The spec's default profile is canonical-json (the real service's): verified without naming it.
    const canonical = signWebhook({ profile: "canonical-json", privateKey: keys.privateKey, body: event });
    expect(hooks.verifyWebhook({ publicKeyBase64: keys.publicKeyBase64, headers: canonical, body })).toEqual(event);

    const reason = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        expect(error).toBeInstanceOf(hooks.WebhookVerificationError);
        return (error as { reason: string }).reason;
      }
      return "accepted";
    };
    expect(
      reason(() =>
        hooks.verifyWebhook({
          profile: "standard-webhooks",
          publicKeyBase64: keys.publicKeyBase64,
          headers,
          body: body.replace("Treasury", "Mallory"),
          now,
        }),
      ),
    ).toBe("no_valid_signature");
    expect(
      reason(() =>
        hooks.verifyWebhook({
          profile: "standard-webhooks",
          publicKeyBase64: keys.publicKeyBase64,
          headers,
          body,
          now: now + 301,
        }),
      ),
    ).toBe("timestamp_out_of_window");
    const other = generateWebhookKeyPair();
    expect(
      reason(() =>
        hooks.verifyWebhook({
          profile: "standard-webhooks",
          publicKeyBase64: other.publicKeyBase64,
          headers,
          body,
          now,
        }),
      ),
    ).toBe("no_valid_signature");
    // A validly signed body that is not a declared event.
    const odd = JSON.stringify({ ...event, event: "wallet.exploded" });
    const oddHeaders = signWebhook({
      profile: "standard-webhooks",
      privateKey: keys.privateKey,
      id: eventId,
      timestamp: now,
      body: odd,
    });
    expect(
      reason(() =>
        hooks.verifyWebhook({
          profile: "standard-webhooks",
          publicKeyBase64: keys.publicKeyBase64,
          headers: oddHeaders,
          body: odd,
          now,
        }),
      ),
    ).toBe("invalid_event");
  });
});
