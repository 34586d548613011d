// Small spec pairs for the diff checks: a base document, a mutation, the changes as "level id where".
import { SpecDoc } from "../../diff/document.ts";
import { diffDocuments } from "../../diff/index.ts";
import type { DiffReport } from "../../diff/types.ts";

type Doc = Record<string, any>;

export function baseSpec(): Doc {
  return {
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    security: [{ Key: [] }],
    paths: {
      "/wallets/{id}": {
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        get: {
          operationId: "getWallet",
          "x-custody-scopes": ["wallets:read"],
          "x-custody-min-role": "viewer",
          parameters: [{ name: "verbose", in: "query", schema: { type: "boolean" } }],
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Wallet" } } },
            },
            "404": {
              description: "no",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
            },
          },
        },
      },
      "/wallets": {
        post: {
          operationId: "createWallet",
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: "#/components/schemas/CreateWallet" } } },
          },
          responses: {
            "201": {
              description: "ok",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Wallet" } } },
            },
          },
        },
        get: {
          operationId: "listWallets",
          responses: {
            "200": {
              description: "ok",
              content: {
                "application/json": { schema: { type: "array", items: { $ref: "#/components/schemas/Wallet" } } },
              },
            },
          },
        },
      },
    },
    webhooks: {
      "wallet.created": {
        post: {
          requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/WalletEvent" } } } },
          responses: { "200": { description: "ok" } },
        },
      },
    },
    components: {
      securitySchemes: {
        Key: { type: "apiKey", in: "header", name: "X-Key" },
        Bearer: { type: "http", scheme: "bearer" },
      },
      schemas: {
        Amount: {
          type: "object",
          required: ["value", "unit"],
          properties: {
            value: { type: "string", pattern: "^[0-9]+$" },
            unit: { type: "string", enum: ["wei", "gwei"] },
          },
        },
        Wallet: {
          allOf: [
            { $ref: "#/components/schemas/Base" },
            {
              type: "object",
              required: ["name", "type", "balance"],
              properties: {
                name: { type: "string", maxLength: 64 },
                type: { type: "string", enum: ["mpc", "hot"] },
                balance: { $ref: "#/components/schemas/Amount" },
                reserved: { $ref: "#/components/schemas/Amount" },
                label: { type: "string" },
              },
            },
          ],
        },
        Base: {
          type: "object",
          required: ["id"],
          properties: { id: { type: "string", readOnly: true }, parent: { $ref: "#/components/schemas/Base" } },
        },
        CreateWallet: {
          type: "object",
          required: ["name"],
          properties: {
            name: { type: "string", maxLength: 64 },
            type: { type: "string", enum: ["mpc", "hot"] },
            count: { type: "integer", minimum: 1, maximum: 10 },
            id: { type: "string", readOnly: true },
          },
        },
        WalletEvent: {
          type: "object",
          required: ["event", "wallet"],
          properties: {
            event: { type: "string", enum: ["wallet.created"] },
            wallet: { $ref: "#/components/schemas/Wallet" },
          },
        },
        Error: { type: "object", properties: { code: { type: "integer" } } },
      },
    },
  };
}

export function rpcSpec(): Doc {
  return {
    openrpc: "1.2.6",
    info: { title: "rpc", version: "1" },
    methods: [
      {
        name: "eth_getBalance",
        params: [
          { name: "address", required: true, schema: { $ref: "#/components/schemas/Address" } },
          { name: "block", required: false, schema: { type: "string" } },
        ],
        result: {
          name: "balance",
          schema: {
            type: "object",
            required: ["hex"],
            properties: { hex: { type: "string" }, decimals: { type: "integer" } },
          },
        },
      },
      { name: "eth_blockNumber", params: [], result: { name: "n", schema: { type: "string" } } },
    ],
    components: { schemas: { Address: { type: "string", pattern: "^0x[0-9a-fA-F]{40}$" } } },
  };
}

export function diffOf(mutate: (doc: Doc) => void, base: Doc = baseSpec()): DiffReport {
  const next = structuredClone(base);
  mutate(next);
  return diffDocuments({ openapi: { old: new SpecDoc(base, "old.yaml"), next: new SpecDoc(next, "new.yaml") } });
}

export function rpcDiffOf(mutate: (doc: Doc) => void): DiffReport {
  const base = rpcSpec();
  const next = structuredClone(base);
  mutate(next);
  return diffDocuments({ rpc: { old: new SpecDoc(base, "old.json"), next: new SpecDoc(next, "new.json") } });
}

/** "level id where" per change, sorted. */
export function lines(report: DiffReport): string[] {
  return report.changes.map((c) => `${c.level} ${c.id} ${c.where}`).sort();
}
