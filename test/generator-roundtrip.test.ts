// Round trip in one process: the client generated from spec/ against the server generated from spec/
// (trivial handlers). Signed requests pass; tampered ones get the one 401 envelope.

import { mkdtemp, rm } from "node:fs/promises";
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../generator/index.ts";
import { UNAUTHORIZED_BODY } from "../runtime/envelope.ts";
import { ApiError } from "../runtime/errors.ts";
import type { FetchLike } from "../runtime/http/client.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const KEY = { keyId: "key_admin", secret: "s3cret-value", role: "admin", scopes: ["*"], workspaceId: "ws_1" };
const NETWORK = { id: "net_eth_sepolia", name: "Sepolia", is_evm: true, chain_id: 11155111 };

let work: string;
let server: Server;
let baseUrl: string;
let gen: Record<string, any>;
const seen: { op: string; input: unknown }[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(ROOT, ".tmp-gen-roundtrip-"));
  const out = join(work, "out");
  await generate({
    specPath: join(ROOT, "spec/openapi.yaml"),
    rpcSpecPath: join(ROOT, "spec/openrpc.json"),
    outDir: out,
  });
  gen = await import(pathToFileURL(join(out, "index.ts")).href);
  // Trivial handlers for three operations; the router answers 500 for the rest.
  const handlers = {
    async listNetworks(input: unknown) {
      seen.push({ op: "listNetworks", input });
      return [NETWORK];
    },
    async listAssets(input: { query: { network_id?: string } }) {
      seen.push({ op: "listAssets", input });
      return [{ id: "ast_eth_sepolia", network_id: input.query.network_id, symbol: "ETH" }];
    },
    async createWallet(
      input: { body: { name: string; wallet_type?: string } },
      ctx: { auth: { workspaceId: string } },
    ) {
      seen.push({ op: "createWallet", input });
      return {
        id: "wcs_1",
        wallet_id: "wal_1",
        status: "pending",
        workspace_id: ctx.auth.workspaceId,
        name: input.body.name,
        wallet_type: input.body.wallet_type,
      };
    },
  };
  const listener = gen.createServer(handlers, {
    resolveKey: async (id: string) => (id === KEY.keyId ? KEY : undefined),
    logger: { error() {} },
  });
  server = createHttpServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await rm(work, { recursive: true, force: true });
});

function client(options: Record<string, unknown> = {}) {
  // The generated client class (a paged list such as listNetworks is an instance property, not a prototype method).
  const Client = Object.values(gen).find(
    (v) => typeof v === "function" && /Client$/.test(v.name) && "prototype" in v && "getWalletOverview" in v.prototype,
  );
  return new (Client as new (o: unknown) => Record<string, any>)({
    baseUrl,
    apiKey: KEY.keyId,
    apiSecret: KEY.secret,
    retry: false,
    ...options,
  });
}

async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("signed requests pass", () => {
  it("GET: the envelope is unwrapped and the data validated", async () => {
    expect(await client().listNetworks()).toEqual([NETWORK]);
  });

  it("GET with a query parameter", async () => {
    expect(await client().listAssets({ query: { network_id: "net_eth_sepolia" } })).toEqual([
      { id: "ast_eth_sepolia", network_id: "net_eth_sepolia", symbol: "ETH" },
    ]);
    expect(seen.find((s) => s.op === "listAssets")?.input).toMatchObject({ query: { network_id: "net_eth_sepolia" } });
  });

  it("POST with a signed body; the body arrives as sent (a default is an annotation)", async () => {
    const status = await client().createWallet({ body: { name: "Treasury" } });
    expect(status).toMatchObject({ wallet_id: "wal_1", status: "pending", workspace_id: "ws_1", name: "Treasury" });
    expect(seen.find((s) => s.op === "createWallet")?.input).toEqual(
      expect.objectContaining({ body: { name: "Treasury" } }),
    );
  });
});

describe("tampered requests get the 401 envelope", () => {
  it("wrong secret: ApiError with status, code, message and request id", async () => {
    const error = await apiError(client({ apiSecret: "wrong" }).listNetworks());
    expect(error).toMatchObject({ status: 401, code: "unauthorized", message: "invalid api signature" });
    expect(error.requestId).toMatch(/\S+/);
  });

  it("a body changed after signing: the exact 401 bytes", async () => {
    let raw = "";
    const tamper: FetchLike = async (url, init) => {
      const res = await fetch(url, { ...init, body: JSON.stringify({ name: "Mallory" }) } as RequestInit);
      raw = await res.clone().text();
      return res as never;
    };
    const error = await apiError(client({ fetch: tamper }).createWallet({ body: { name: "Treasury" } }));
    expect(error.status).toBe(401);
    expect(raw).toBe(UNAUTHORIZED_BODY);
    expect(seen.filter((s) => s.op === "createWallet")).toHaveLength(1); // the handler never ran
  });

  it("a replaced signature header and an unknown key: the same 401", async () => {
    const signed = client();
    const badSign = await signed.transport.request({
      method: "GET",
      path: "/api/v1/networks",
      headers: { "ACCESS-SIGN": "AAAA" },
    });
    expect(badSign.status).toBe(401);
    expect(badSign.text).toBe(UNAUTHORIZED_BODY);
    const unknownKey = await client({ apiKey: "key_nobody" }).transport.request({
      method: "GET",
      path: "/api/v1/networks",
    });
    expect(unknownKey.status).toBe(401);
    expect(unknownKey.text).toBe(UNAUTHORIZED_BODY);
  });

  it("invalid input is refused before the handler, naming the field", async () => {
    const error = await apiError(client().createWallet({ body: { name: "" } }));
    expect(error.status).toBe(400);
    expect(error.code).toBe(400);
    expect(error.message).toContain("body.name");
  });
});
