// The built SDK (a --package output compiled with tsc) runs unchanged on Node, and on Bun and Deno
// when their binaries are found (BUN_BIN / DENO_BIN, else on PATH; `npm install bun deno` ships both).
// The servers are this test's; each runtime runs test/fixtures/sdk-runtimes/call.mjs (the client) and
// webhooks-rpc.mjs (the ./webhooks and ./rpc entry points) against them. The edge-style runtime is
// Vercel's edge-runtime (a VM context with web APIs only), running the entries bundled by esbuild for
// the browser platform.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { EdgeRuntime } from "edge-runtime";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { parse } from "yaml";
import { generateWebhookKeyPair, signWebhook, webhookHmac } from "../runtime/webhooks/signature.ts";
import { contractPackage } from "./support/contract-package.ts";

const ROOT = join(import.meta.dirname, "..");
const DIR = join(ROOT, ".tmp-sdk-runtimes");
const spec = parse(readFileSync(join(ROOT, "spec", "openapi.yaml"), "utf8"));
const WALLET = spec.components.examples.WalletResponse.value;
const CREATED = spec.components.examples.WithdrawalCreatedResponse.value;

function findBinary(name: string, env: string): string | undefined {
  const given = process.env[env];
  if (given) return given;
  const found = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

let server: Server;
let baseUrl: string;
/** Serves a signed delivery (GET /delivery) and a JSON-RPC node (POST /rpc, upgrade /ws). */
let nodeServer: Server;
let nodeUrl: string;
const RPC_KEY = "rpc-runtime-key";
const HMAC_SECRET = "runtime-secret";
const EVENT = spec.components.examples.DepositConfirmedEvent.value;
const rpcSeen: string[] = [];
let script: { status: number; body: unknown }[] = [];
const keys: string[] = [];

beforeAll(async () => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  // The built package (shared with test/generator-zod-mini.test.ts), linked where the scripts import it.
  const built = await contractPackage("classic");
  expect(built.output).toBe("");
  symlinkSync(built.dir, join(DIR, "sdk"), "dir");
  for (const file of ["call.mjs", "webhooks-rpc.mjs"])
    copyFileSync(join(ROOT, "test", "fixtures", "sdk-runtimes", file), join(DIR, file));
  ({ server: nodeServer, url: nodeUrl } = await startNodeServer());
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.headers["idempotency-key"]) keys.push(String(req.headers["idempotency-key"]));
      const reply = script.shift() ?? {
        status: 500,
        body: { success: false, message: "script ran out", code: 500, data: null },
      };
      res.writeHead(reply.status, { "content-type": "application/json", "x-request-id": "rt-1" });
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const s of [server, nodeServer]) {
    s?.closeAllConnections();
    await new Promise((resolve) => (s ? s.close(resolve) : resolve(undefined)));
  }
  rmSync(DIR, { recursive: true, force: true });
});

const runtimes: [string, string[] | undefined][] = [
  ["node", [process.execPath, "call.mjs"]],
  ["bun", ((bin) => (bin ? [bin, "run", "call.mjs"] : undefined))(findBinary("bun", "BUN_BIN"))],
  [
    "deno",
    ((bin) =>
      bin
        ? [bin, "run", "--allow-net=127.0.0.1", "--allow-read", "--allow-env", "--node-modules-dir=manual", "call.mjs"]
        : undefined)(findBinary("deno", "DENO_BIN")),
  ],
];

describe("the built SDK on every runtime found", () => {
  for (const [name, command] of runtimes) {
    it.skipIf(command === undefined)(
      `${name}: signs, validates, raises typed errors, retries with one idempotency key`,
      async () => {
        keys.length = 0;
        script = [
          { status: 200, body: WALLET },
          { status: 404, body: { success: false, message: "not found", code: 404, data: null } },
          { status: 200, body: { ...WALLET, data: { ...WALLET.data, id: 7 } } },
          { status: 503, body: { success: false, message: "busy", code: 503, data: null } },
          { status: 201, body: CREATED },
        ];
        const [bin, ...args] = command as string[];
        const out = await new Promise<string>((resolve, reject) => {
          const child = execFile(bin, [...args, baseUrl], DIR);
          child.then(resolve, reject);
        });
        expect(JSON.parse(out.trim().split("\n").pop() as string)).toEqual({
          name: WALLET.data.name,
          status: 200,
          requestId: "rt-1",
          notFound: true,
          invalid: true,
          attempts: 2,
        });
        expect(keys).toHaveLength(2);
        expect(keys[1]).toBe(keys[0]);
      },
    );
  }
});

const WEBHOOKS_RPC = {
  event: EVENT.event,
  resource: EVENT.resource_id,
  tampered: "no_valid_signature",
  overHttp: "0x10",
  overWs: "0x10",
};

describe("the built SDK's ./webhooks and ./rpc on every runtime found", () => {
  for (const [name, command] of runtimes) {
    it.skipIf(command === undefined)(
      `${name}: verifies a signed delivery (Ed25519 and HMAC) and calls eth_blockNumber over HTTP and WebSocket`,
      async () => {
        rpcSeen.length = 0;
        const [bin, ...args] = (command as string[]).map((arg) => (arg === "call.mjs" ? "webhooks-rpc.mjs" : arg));
        const out = await execFile(bin, [...args, nodeUrl], DIR);
        expect(JSON.parse(out.trim().split("\n").pop() as string)).toEqual(WEBHOOKS_RPC);
        expect(rpcSeen).toEqual(["http eth_blockNumber", "ws eth_blockNumber"]);
      },
    );
  }

  it("edge-runtime (web APIs only): the entries bundled by esbuild for the browser platform verify and call over HTTP and WebSocket", async () => {
    const entry = join(DIR, "edge-entry.mjs");
    writeFileSync(
      entry,
      `import { verifyWebhook } from "./sdk/dist/webhooks.js";
import { createRpcClient } from "./sdk/dist/rpc.js";
globalThis.checkSdk = async (base) => {
  const delivery = await (await fetch(base + "/delivery")).json();
  const event = verifyWebhook({ publicKeyBase64: delivery.publicKeyBase64, headers: delivery.headers, body: delivery.body, hmacSecret: delivery.hmacSecret });
  let tampered = "accepted";
  try { verifyWebhook({ publicKeyBase64: delivery.publicKeyBase64, headers: delivery.headers, body: delivery.body.replace(/"amount":"/, '"amount":"9') }); } catch (error) { tampered = error.reason; }
  const rpc = createRpcClient({ url: base + "/rpc", wsUrl: base.replace(/^http/, "ws") + "/ws", apiKey: delivery.rpcApiKey });
  const overHttp = await rpc.eth_blockNumber();
  const overWs = await rpc.ws.eth_blockNumber();
  await rpc.close();
  return JSON.stringify({ event: event.event, resource: event.resource_id, tampered, overHttp, overWs, process: typeof process });
};
`,
    );
    // platform "browser" fails the build on any node: import; the metafile says what went in.
    const bundled = await build({
      entryPoints: [entry],
      bundle: true,
      platform: "browser",
      format: "iife",
      minify: true,
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    const inputs = Object.keys(bundled.metafile.inputs);
    expect(inputs.filter((input) => input.startsWith("node:") || /node_modules\/undici\//.test(input))).toEqual([]);
    expect(inputs.some((input) => input.includes("webhooks/ed25519"))).toBe(true);
    rpcSeen.length = 0;
    const edge = new EdgeRuntime({ initialCode: bundled.outputFiles[0].text });
    const answer = JSON.parse(await (edge.evaluate(`checkSdk(${JSON.stringify(nodeUrl)})`) as Promise<string>));
    expect(answer).toEqual({ ...WEBHOOKS_RPC, process: "undefined" });
    expect(rpcSeen).toEqual(["http eth_blockNumber", "ws eth_blockNumber"]);
  });
});

describe("the built SDK's client in an edge-style runtime", () => {
  it("edge-runtime (web APIs only): the client bundled for the browser platform signs with Web Crypto, validates and raises typed errors", async () => {
    const entry = join(DIR, "edge-client.mjs");
    writeFileSync(
      entry,
      `import { CustodialWalletServiceClient, NotFoundError } from "./sdk/dist/client.js";
globalThis.checkClient = async (baseUrl) => {
  const client = new CustodialWalletServiceClient({ baseUrl, apiKey: "edge-key", apiSecret: "edge-secret", maxRetries: 0 });
  const { data, response } = await client.getWallet({ params: { wallet_id: "${WALLET.data.id}" } }).withResponse();
  let notFound = false;
  try { await client.getWallet({ params: { wallet_id: "${WALLET.data.id}" } }); } catch (error) { notFound = error instanceof NotFoundError; }
  return JSON.stringify({ name: data.name, status: response.status, notFound, process: typeof process });
};
`,
    );
    const bundled = await build({
      entryPoints: [entry],
      bundle: true,
      platform: "browser",
      format: "iife",
      minify: true,
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    expect(
      Object.keys(bundled.metafile.inputs).filter(
        (input) => input.startsWith("node:") || /node_modules\/(undici|ws)\//.test(input),
      ),
    ).toEqual([]);
    script = [
      { status: 200, body: WALLET },
      { status: 404, body: { success: false, message: "not found", code: 404, data: null } },
    ];
    const signatures: string[] = [];
    const spy = (req: IncomingMessage) => void signatures.push(String(req.headers["access-sign"] ?? ""));
    server.prependListener("request", spy);
    try {
      const edge = new EdgeRuntime({ initialCode: bundled.outputFiles[0].text });
      const answer = JSON.parse(await (edge.evaluate(`checkClient(${JSON.stringify(baseUrl)})`) as Promise<string>));
      expect(answer).toEqual({ name: WALLET.data.name, status: 200, notFound: true, process: "undefined" });
    } finally {
      server.removeListener("request", spy);
    }
    // Signed on every request (base64 of a hex HMAC-SHA256: 88 characters).
    expect(signatures).toHaveLength(2);
    for (const sign of signatures) expect(sign).toMatch(/^[A-Za-z0-9+/]{86}==$/);
  });
});

/** A delivery signed as the sandbox signs it (canonical-json Ed25519 and the HMAC header), and a node answering eth_blockNumber. */
async function startNodeServer(): Promise<{ server: Server; url: string }> {
  const keys = generateWebhookKeyPair();
  const body = JSON.stringify(EVENT);
  const headers = {
    ...signWebhook({ privateKey: keys.privateKey, body, profile: "canonical-json" }),
    "x-webhook-hmac-signature": webhookHmac(HMAC_SECRET, body),
  };
  const delivery = JSON.stringify({
    publicKeyBase64: keys.publicKeyBase64,
    headers,
    body,
    hmacSecret: HMAC_SECRET,
    rpcApiKey: RPC_KEY,
  });
  const keyOf = (req: IncomingMessage) => new URL(req.url ?? "/", "http://x").searchParams.get("api_key");
  const answer = (text: string, via: string) => {
    const call = JSON.parse(text) as { id: number; method: string };
    rpcSeen.push(`${via} ${call.method}`);
    return JSON.stringify(
      call.method === "eth_blockNumber"
        ? { jsonrpc: "2.0", id: call.id, result: "0x10" }
        : { jsonrpc: "2.0", id: call.id, error: { code: -32601, message: "method not found" } },
    );
  };
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => {
      if (req.method === "GET" && req.url === "/delivery")
        return void res.writeHead(200, { "content-type": "application/json" }).end(delivery);
      if (req.method === "POST" && req.url?.startsWith("/rpc") && keyOf(req) === RPC_KEY)
        return void res.writeHead(200, { "content-type": "application/json" }).end(answer(text, "http"));
      res.writeHead(404).end();
    });
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on("upgrade", (req, socket, head) => {
    if (!req.url?.startsWith("/ws") || keyOf(req) !== RPC_KEY)
      return void socket.end("HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
    wss.handleUpgrade(req, socket, head, (ws) => ws.on("message", (data) => ws.send(answer(String(data), "ws"))));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Runs a command without blocking the event loop (the server above answers it). */
async function execFile(bin: string, args: string[], cwd: string): Promise<string> {
  const { execFile: run } = await import("node:child_process");
  return new Promise((resolve, reject) => {
    run(bin, args, { cwd, env: { ...process.env, NO_COLOR: "1" }, timeout: 50_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${bin} failed: ${stderr || error.message}`)) : resolve(stdout),
    );
  });
}
