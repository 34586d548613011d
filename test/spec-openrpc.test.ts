// spec/openrpc.json: the node access (JSON-RPC) contract. Structure, traceability, the seed's two
// methods, transports and authentication, and examples that validate against their schemas.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const doc: any = JSON.parse(readFileSync(new URL("../spec/openrpc.json", import.meta.url), "utf8"));
const UNAUTHORIZED = { jsonrpc: "2.0", id: null, error: { code: -32001, message: "unauthorized" } };
const ASSUMED_METHODS = [
  "eth_chainId",
  "net_version",
  "eth_getBalance",
  "eth_getTransactionByHash",
  "eth_getTransactionReceipt",
  "eth_sendRawTransaction",
  "eth_getTransactionCount",
  "eth_estimateGas",
  "eth_gasPrice",
  "eth_call",
  "eth_subscribe",
  "eth_unsubscribe",
];

/** Follows "#/components/..." references of the document. */
function resolve(node: any): any {
  if (!node?.$ref) return node;
  const target = node.$ref
    .slice(2)
    .split("/")
    .reduce((n: any, k: string) => n?.[k], doc);
  if (target === undefined) throw new Error(`unresolved ${node.$ref}`);
  return target;
}

/** A zod validator for a schema of this document (its refs rewritten to $defs, which fromJSONSchema resolves). */
function validator(schema: unknown) {
  const rewrite = (value: unknown): unknown =>
    JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', '"#/$defs/'));
  return z.fromJSONSchema({ ...(rewrite(schema) as object), $defs: rewrite(doc.components.schemas) } as any);
}

function method(name: string): any {
  const found = doc.methods.find((m: any) => m.name === name);
  if (!found) throw new Error(`method ${name} missing`);
  return found;
}

describe("spec/openrpc.json", () => {
  it("is OpenRPC 1.x with version 0.1.0", () => {
    expect(doc.openrpc).toMatch(/^1\.[23]\.\d+$/);
    expect(doc.info.version).toBe("0.1.0");
    expect(doc.info.title).toBeTruthy();
  });

  it("gives every method a unique name, params, a result and x-source (x-reason when assumed)", () => {
    const names = doc.methods.map((m: any) => m.name);
    expect(new Set(names).size).toBe(names.length);
    for (const m of doc.methods) {
      expect(Array.isArray(m.params), m.name).toBe(true);
      for (const p of m.params.map(resolve)) expect(p.name && p.schema, m.name).toBeTruthy();
      expect(m.result?.name && m.result?.schema, m.name).toBeTruthy();
      expect(["seed", "assumed"], m.name).toContain(m["x-source"]);
      if (m["x-source"] === "assumed" || m["x-assumed-parts"])
        expect(String(m["x-reason"] ?? "").length, m.name).toBeGreaterThan(10);
    }
  });

  it("marks the seed methods seed and the common methods assumed", () => {
    expect(method("eth_blockNumber")["x-source"]).toBe("seed");
    expect(method("eth_getBlockByNumber")["x-source"]).toBe("seed");
    for (const name of ASSUMED_METHODS) expect(method(name)["x-source"], name).toBe("assumed");
  });

  it("resolves every $ref", () => {
    const refs: string[] = [];
    const walk = (n: any) => {
      if (!n || typeof n !== "object") return;
      if (typeof n.$ref === "string") refs.push(n.$ref);
      Object.values(n).forEach(walk);
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of refs) expect(() => resolve({ $ref: ref }), ref).not.toThrow();
  });

  it("takes a block tag or hex number plus a boolean in eth_getBlockByNumber and returns hash, number and timestamp", () => {
    const m = method("eth_getBlockByNumber");
    const [block, full] = m.params.map(resolve);
    const blockParam = validator(block.schema);
    expect(blockParam.safeParse("latest").success).toBe(true);
    expect(blockParam.safeParse("0x72a11e").success).toBe(true);
    expect(blockParam.safeParse("7512350").success).toBe(false);
    expect(full.schema).toEqual({ type: "boolean" });
    expect(doc.components.schemas.Block.required).toEqual(["hash", "number", "timestamp"]);
    const result = validator(m.result.schema);
    expect(result.safeParse({ hash: `0x${"ab".repeat(32)}`, number: "0x1", timestamp: "0x6787883c" }).success).toBe(
      true,
    );
    expect(result.safeParse({ hash: `0x${"ab".repeat(32)}`, number: 1, timestamp: "0x6787883c" }).success).toBe(false);
    expect(method("eth_blockNumber").params).toEqual([]);
  });

  it("validates every method example against its schemas", () => {
    let checked = 0;
    for (const m of doc.methods) {
      for (const ex of m.examples ?? []) {
        const params = m.params.map(resolve);
        ex.params.forEach((p: any, i: number) => {
          expect(validator(params[i].schema).safeParse(p.value).success, `${m.name} param ${p.name}`).toBe(true);
          checked++;
        });
        expect(validator(m.result.schema).safeParse(ex.result.value).success, `${m.name} result`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(3);
  });

  it("serves HTTP at {rpc_url}/rpc and WebSocket at /ws, subscriptions only over WebSocket", () => {
    expect(doc.servers.map((s: any) => s.url)).toEqual(["{rpc_url}/rpc", "{ws_scheme}://{rpc_host}/ws"]);
    const transports = doc["x-custody-transports"];
    expect(transports["x-source"]).toBe("seed");
    expect(transports.http).toMatchObject({ method: "POST", path: "/rpc", "content-type": "application/json" });
    expect(transports.websocket.path).toBe("/ws");
    for (const name of ["eth_subscribe", "eth_unsubscribe"])
      expect(method(name)["x-custody-transports"]).toEqual(["websocket"]);
    expect(method("eth_subscribe").params[0].schema.enum).toEqual(["newHeads"]);
  });

  it("accepts the key as api_key or `authorization: APIKEY <key>` and answers 401 with a JSON-RPC error otherwise", () => {
    const auth = doc["x-custody-auth"];
    expect(auth["x-source"]).toBe("seed");
    expect(auth["x-reason"]).toBeTruthy();
    expect(auth.ways).toEqual([
      { in: "query", name: "api_key", value: "<API_KEY>" },
      expect.objectContaining({ in: "header", name: "authorization", value: "APIKEY <API_KEY>" }),
    ]);
    expect(auth.transports).toEqual(["http", "websocket"]);
    expect(auth.unauthenticated.http).toMatchObject({ status: 401, body: UNAUTHORIZED });
    expect(auth.unauthenticated.websocket).toMatchObject({ upgrade: "refused", status: 401, body: UNAUTHORIZED });
  });

  it("marks every x-custody-* extension object", () => {
    for (const key of Object.keys(doc).filter((k) => k.startsWith("x-custody-"))) {
      expect(["seed", "assumed"], key).toContain(doc[key]["x-source"]);
      expect(doc[key]["x-reason"], key).toBeTruthy();
    }
  });
});
