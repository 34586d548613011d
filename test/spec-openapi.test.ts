// spec/openapi.yaml: valid OpenAPI 3.1, faithful to the seed's operations, and fully traced
// (every item says whether it comes from the seed or was assumed, and why).

import { readFileSync } from "node:fs";
import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const SPEC_PATH = new URL("../spec/openapi.yaml", import.meta.url);
const raw: any = parse(readFileSync(SPEC_PATH, "utf8"), { maxAliasCount: -1 });

const SEED_TAGS = [
  "catalog",
  "wallets",
  "balances",
  "withdrawals",
  "transactions",
  "signing",
  "webhooks",
  "api-keys",
  "audit",
  "observability",
];
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];
const UNAUTHORIZED = { success: false, message: "invalid api signature", code: "unauthorized", data: null };

// The operation table of the shared brief: operationId → [method, path, tag, success status, source].
const OPERATIONS: Record<string, [string, string, string, string, "seed" | "assumed"]> = {
  getWalletOverview: ["get", "/api/v1/wallets/{wallet_id}/overview", "balances", "200", "seed"],
  getWalletAssetBalance: ["get", "/api/v1/wallets/{wallet_id}/balance/{asset_id}", "balances", "200", "seed"],
  getWithdrawal: ["get", "/api/v1/withdrawals/{withdrawal_id}", "withdrawals", "200", "seed"],
  listWalletWithdrawals: ["get", "/api/v1/wallets/{wallet_id}/withdrawals", "withdrawals", "200", "seed"],
  getWalletCreationStatus: ["get", "/api/v1/wallets/creation-status/{wallet_id}", "wallets", "200", "seed"],
  resendWebhookDelivery: [
    "post",
    "/api/v1/workspaces/{workspace_id}/webhook-logs/{delivery_id}/resend",
    "webhooks",
    "200",
    "seed",
  ],
  deleteWebhook: ["delete", "/api/v1/workspaces/{workspace_id}/webhooks/{webhook_id}", "webhooks", "200", "seed"],
  getWebhookVerificationKey: [
    "get",
    "/api/v1/workspaces/{workspace_id}/webhook-verification-key",
    "webhooks",
    "200",
    "seed",
  ],
  createWallet: ["post", "/api/v1/wallets", "wallets", "202", "seed"],
  getDepositAddress: ["get", "/api/v1/wallets/{wallet_id}/deposit-address", "wallets", "200", "seed"],
  exportTransactions: ["get", "/api/v1/workspaces/{workspace_id}/transactions/export", "transactions", "200", "seed"],
  listNetworks: ["get", "/api/v1/networks", "catalog", "200", "assumed"],
  listAssets: ["get", "/api/v1/assets", "catalog", "200", "assumed"],
  listWallets: ["get", "/api/v1/workspaces/{workspace_id}/wallets", "wallets", "200", "assumed"],
  listWalletAssets: ["get", "/api/v1/wallets/{wallet_id}/assets", "wallets", "200", "assumed"],
  getWallet: ["get", "/api/v1/wallets/{wallet_id}", "wallets", "200", "assumed"],
  attachAsset: ["post", "/api/v1/wallets/{wallet_id}/assets", "wallets", "201", "assumed"],
  createWithdrawal: ["post", "/api/v1/wallets/{wallet_id}/request-withdrawal", "withdrawals", "201", "assumed"],
  getWalletWithdrawal: [
    "get",
    "/api/v1/wallets/{wallet_id}/withdrawals/{withdrawal_id}",
    "withdrawals",
    "200",
    "assumed",
  ],
  approveWithdrawal: ["post", "/api/v1/withdrawals/{withdrawal_id}/approve", "withdrawals", "200", "assumed"],
  rejectWithdrawal: ["post", "/api/v1/withdrawals/{withdrawal_id}/reject", "withdrawals", "200", "assumed"],
  listTransactions: ["get", "/api/v1/workspaces/{workspace_id}/transactions", "transactions", "200", "assumed"],
  rescanTransaction: ["post", "/api/v1/networks/rescan-transaction", "transactions", "200", "assumed"],
  signMessage: ["post", "/api/v1/wallets/{wallet_id}/sign-message", "signing", "200", "assumed"],
  getApiKeyWalletDetail: ["get", "/api/v1/web3/wallet-detail", "signing", "200", "assumed"],
  getWeb3WalletDetail: ["get", "/api/v1/web3/wallet-detail/{wallet_id}", "signing", "200", "assumed"],
  requestSign: ["post", "/api/v1/web3/{wallet_id}/sign", "signing", "202", "assumed"],
  getSignStatus: ["get", "/api/v1/web3/{wallet_id}/sign/{transaction_id}", "signing", "200", "assumed"],
  signRawTransaction: ["post", "/api/v1/web3/transaction/{wallet_id}/signRaw", "signing", "202", "assumed"],
  getTransactionStatus: ["get", "/api/v1/web3/transaction/{wallet_id}/{transaction_id}", "signing", "200", "assumed"],
  createWebhook: ["post", "/api/v1/workspaces/{workspace_id}/webhooks", "webhooks", "201", "assumed"],
  listWebhooks: ["get", "/api/v1/workspaces/{workspace_id}/webhooks", "webhooks", "200", "assumed"],
  listWebhookDeliveries: ["get", "/api/v1/workspaces/{workspace_id}/webhook-logs", "webhooks", "200", "assumed"],
  enableWebhook: [
    "post",
    "/api/v1/workspaces/{workspace_id}/webhooks/{webhook_id}/enable",
    "webhooks",
    "200",
    "assumed",
  ],
  requeueFailedWebhookDeliveries: [
    "post",
    "/api/v1/workspaces/{workspace_id}/webhooks/{webhook_id}/requeue-failed",
    "webhooks",
    "200",
    "assumed",
  ],
  createApiKey: ["post", "/api/v1/workspaces/{workspace_id}/api-keys", "api-keys", "201", "assumed"],
  listApiKeys: ["get", "/api/v1/workspaces/{workspace_id}/api-keys", "api-keys", "200", "assumed"],
  revokeApiKey: ["delete", "/api/v1/workspaces/{workspace_id}/api-keys/{key_id}", "api-keys", "200", "assumed"],
  listAuditLogs: ["get", "/api/v1/workspaces/{workspace_id}/audit-logs", "audit", "200", "assumed"],
  getHealth: ["get", "/api/v1/health", "observability", "200", "assumed"],
};
const SEED_OPS = Object.keys(OPERATIONS).slice(0, 8);

interface Op {
  method: string;
  path: string;
  op: any;
}

function operations(): Op[] {
  return Object.entries<any>(raw.paths).flatMap(([p, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ method: m, path: p, op: item[m] })),
  );
}

function webhookOperations(): Op[] {
  return Object.entries<any>(raw.webhooks).flatMap(([name, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ method: m, path: name, op: item[m] })),
  );
}

function byId(id: string): Op {
  const found = operations().find((o) => o.op.operationId === id);
  if (!found) throw new Error(`operation ${id} missing`);
  return found;
}

/** Resolves a local "#/components/..." reference of the raw document. */
function deref(node: any): any {
  if (!node?.$ref) return node;
  return node.$ref
    .slice(2)
    .split("/")
    .reduce((n: any, key: string) => n?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], raw);
}

/** Problems with the x-source / x-reason convention on one object, or [] when it is fine. */
function traceProblems(where: string, node: any): string[] {
  const problems: string[] = [];
  if (node["x-source"] !== "seed" && node["x-source"] !== "assumed")
    problems.push(`${where}: x-source must be seed or assumed`);
  const needsReason = node["x-source"] === "assumed" || node["x-assumed-parts"] !== undefined;
  if (needsReason && (typeof node["x-reason"] !== "string" || node["x-reason"].length < 10))
    problems.push(`${where}: x-reason missing`);
  if (typeof node["x-reason"] === "string" && node["x-reason"].includes("\n"))
    problems.push(`${where}: x-reason must be one line`);
  if (
    node["x-assumed-parts"] !== undefined &&
    !(Array.isArray(node["x-assumed-parts"]) && node["x-assumed-parts"].length > 0)
  ) {
    problems.push(`${where}: x-assumed-parts must be a non-empty list`);
  }
  return problems;
}

describe("spec/openapi.yaml validity", () => {
  it("validates with swagger-parser (on a copy, because validate mutates)", async () => {
    await expect(SwaggerParser.validate(structuredClone(raw))).resolves.toBeTruthy();
  });

  it("rejects a broken copy (the validation can fail)", async () => {
    const broken = structuredClone(raw);
    broken.paths["/api/v1/health"].get.responses["200"].content["application/json"].schema = {
      $ref: "#/components/schemas/Nope",
    };
    await expect(SwaggerParser.validate(broken)).rejects.toThrow();
  });

  it("is OpenAPI 3.1.0 with version 0.1.0 and a {base_url} server variable", () => {
    expect(raw.openapi).toBe("3.1.0");
    expect(raw.info.version).toBe("0.1.0");
    expect(raw.servers[0].url).toBe("{base_url}");
    expect(raw.servers[0].variables.base_url.default).toMatch(/^https?:\/\//);
  });
});

describe("operations", () => {
  it("has exactly the operations of the brief, with their method, path, tag and success status", () => {
    const actual = Object.fromEntries(operations().map((o) => [o.op.operationId, o]));
    expect(Object.keys(actual).sort()).toEqual(Object.keys(OPERATIONS).sort());
    for (const [id, [method, path, tag, status, source]] of Object.entries(OPERATIONS)) {
      const o = actual[id];
      expect({ id, method: o.method, path: o.path, tags: o.op.tags, source: o.op["x-source"] }).toEqual({
        id,
        method,
        path,
        tags: [tag],
        source,
      });
      const success = Object.keys(o.op.responses).filter((s) => s.startsWith("2"));
      expect({ id, success }).toEqual({ id, success: [status] });
    }
  });

  it("declares the ten seed tags, each with a description, and uses only those", () => {
    expect(raw.tags.map((t: any) => t.name)).toEqual(SEED_TAGS);
    for (const tag of raw.tags) expect(tag.description, tag.name).toMatch(/\w{3,}/);
    for (const { op } of [...operations(), ...webhookOperations()]) {
      expect(op.tags).toHaveLength(1);
      expect(SEED_TAGS).toContain(op.tags[0]);
    }
  });

  it("has unique operationIds across paths and webhooks", () => {
    const ids = [...operations(), ...webhookOperations()].map((o) => o.op.operationId);
    expect(ids.every((id) => typeof id === "string" && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("keeps the seed operations free of request bodies and query parameters (seed 4)", () => {
    for (const id of SEED_OPS) {
      const { op } = byId(id);
      expect(op.requestBody, id).toBeUndefined();
      const params = (op.parameters ?? []).map(deref).filter((p: any) => p.in !== "path");
      // Seed 4 leaves the withdrawal list's query parameters and pagination open ("not shown"): they are
      // assumed, optional, and a seed client that sends none still gets an answer.
      if (id === "listWalletWithdrawals") {
        expect(params.map((p: any) => p.name).sort(), id).toEqual(["limit", "offset", "status"]);
        for (const p of params) expect(p.required, `${id} ${p.name}`).toBe(false);
        expect(op["x-custody-pagination"]).toMatchObject({ style: "offset-limit", "x-source": "assumed" });
        continue;
      }
      expect(params, id).toEqual([]);
    }
  });

  it("declares every path parameter as a required string that appears in the path", () => {
    for (const { path, op } of operations()) {
      const params = (op.parameters ?? []).map(deref).filter((p: any) => p.in === "path");
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      expect(params.map((p: any) => p.name).sort(), path).toEqual(names.sort());
      for (const p of params) {
        expect(p.required, `${path} ${p.name}`).toBe(true);
        expect(deref(p.schema).type, `${path} ${p.name}`).toBe("string");
      }
    }
  });

  it("marks which responses the seed shows on each seed operation (seed 4 and 7)", () => {
    const seedErrors = (id: string) => {
      const shown = byId(id).op["x-seed-responses"];
      return Object.keys(shown)
        .filter((s) => s !== "200" && s !== "401")
        .sort();
    };
    expect(byId("getWalletOverview").op["x-seed-responses"]).toEqual({
      "200": "shown",
      "401": "shown",
      "404": "shown",
    });
    for (const id of ["getWalletAssetBalance", "listWalletWithdrawals", "getWebhookVerificationKey"])
      expect(seedErrors(id), id).toEqual(["404"]);
    for (const id of ["getWithdrawal", "getWalletCreationStatus", "resendWebhookDelivery", "deleteWebhook"]) {
      expect(seedErrors(id), id).toEqual(["400", "404"]);
      expect(byId(id).op["x-reason"], id).toBeTruthy();
    }
    for (const id of SEED_OPS) {
      const { op } = byId(id);
      for (const status of Object.keys(op["x-seed-responses"]))
        expect(op.responses[status], `${id} ${status}`).toBeDefined();
    }
  });
});

describe("responses", () => {
  it("declares 401, 403, 413 and 500 on every operation, 401 with the exact unauthorized envelope", () => {
    const unauthorized = raw.components.responses.Unauthorized;
    expect(deref(unauthorized.content["application/json"].examples.default).value).toEqual(UNAUTHORIZED);
    const schema = raw.components.schemas.UnauthorizedEnvelope.properties;
    expect([schema.success.const, schema.message.const, schema.code.const, schema.data.type]).toEqual([
      false,
      "invalid api signature",
      "unauthorized",
      "null",
    ]);
    for (const { op } of operations()) {
      expect(op.responses["401"], op.operationId).toEqual({ $ref: "#/components/responses/Unauthorized" });
      expect(op.responses["403"], op.operationId).toBeDefined();
      // The HMAC covers the raw body, so every request body is read and can exceed the limit.
      expect(op.responses["413"], op.operationId).toBeDefined();
      expect(op.responses["500"], op.operationId).toBeDefined();
    }
  });

  it("declares 400 on operations with a body or query parameters, and 409 where idempotency applies", () => {
    for (const { op } of operations()) {
      if (op.requestBody) expect(op.responses["400"], op.operationId).toBeDefined();
      const hasQuery = (op.parameters ?? []).map(deref).some((p: any) => p.in === "query");
      if (hasQuery) expect(op.responses["400"], op.operationId).toBeDefined();
    }
    const create = byId("createWithdrawal").op;
    const idem = create.parameters.map(deref).find((p: any) => p.name === "Idempotency-Key");
    // Optional: the real service's SDK sends no key (fystack/platform-sdk src/api.ts requestWithdrawal).
    expect(idem).toMatchObject({ in: "header", required: false, schema: { minLength: 1, maxLength: 255 } });
    expect(create.responses["409"]).toBeDefined();
  });

  it("gives every response of every operation an x-request-id header and a JSON example", () => {
    for (const { op } of operations()) {
      for (const [status, ref] of Object.entries<any>(op.responses)) {
        const response = deref(ref);
        const where = `${op.operationId} ${status}`;
        expect(response.headers?.["x-request-id"], where).toBeDefined();
        const media = response.content?.["application/json"];
        expect(media?.schema, where).toBeDefined();
        expect(media.example !== undefined || Object.keys(media.examples ?? {}).length > 0, where).toBe(true);
      }
    }
  });

  it("wraps each success payload in the envelope with success true", () => {
    for (const { op } of operations()) {
      const status = Object.keys(op.responses).find((s) => s.startsWith("2"))!;
      const schema = deref(op.responses[status].content["application/json"].schema);
      expect(schema.required, op.operationId).toEqual(["success", "message", "code", "data"]);
      expect(schema.properties.success.const, op.operationId).toBe(true);
      expect(schema.properties.code.type, op.operationId).toEqual(["integer", "string"]);
    }
  });
});

describe("security, roles and scopes", () => {
  it("requires the three ACCESS headers together, with the HMAC extension of the brief", () => {
    expect(raw.security).toEqual([{ AccessApiKey: [], AccessTimestamp: [], AccessSign: [] }]);
    const schemes = raw.components.securitySchemes;
    expect(
      [schemes.AccessApiKey, schemes.AccessTimestamp, schemes.AccessSign].map((s: any) => [s.type, s.in, s.name]),
    ).toEqual([
      ["apiKey", "header", "ACCESS-API-KEY"],
      ["apiKey", "header", "ACCESS-TIMESTAMP"],
      ["apiKey", "header", "ACCESS-SIGN"],
    ]);
    expect(schemes.AccessSign["x-custody-hmac"]).toMatchObject({
      algorithm: "HMAC-SHA256",
      key: "utf8(secret)",
      "string-to-sign": "method={METHOD}&path={path}&timestamp={timestamp}&body={body}",
      path: "request path including /api/v1, without query string",
      encoding: "base64(lowercase_hex(mac))",
      "timestamp-unit": "seconds",
      "timestamp-window-seconds": 300,
      headers: { key: "ACCESS-API-KEY", timestamp: "ACCESS-TIMESTAMP", signature: "ACCESS-SIGN" },
    });
    for (const { op } of operations()) expect(op.security, op.operationId).toBeUndefined();
  });

  it("names known scopes and a minimum role on every operation, following the role rules", () => {
    const scopes: string[] = raw.components.schemas.Scope.enum;
    const roles: string[] = raw.components.schemas.Role.enum;
    expect(roles).toEqual(["viewer", "admin", "owner"]);
    expect(scopes).toEqual(expect.arrayContaining(["*", "balances:read", "wallets:read"]));
    for (const { method, op } of operations()) {
      const id = op.operationId;
      expect(op["x-custody-scopes"].length, id).toBeGreaterThan(0);
      for (const s of op["x-custody-scopes"])
        expect(
          scopes.filter((x) => x !== "*"),
          id,
        ).toContain(s);
      const expected =
        op.tags[0] === "api-keys" ? (method === "get" ? "admin" : "owner") : method === "get" ? "viewer" : "admin";
      expect(op["x-custody-min-role"], id).toBe(expected);
    }
    expect(byId("getWalletOverview").op["x-custody-scopes"]).toEqual(["balances:read"]);
    expect(byId("getWalletCreationStatus").op["x-custody-scopes"]).toEqual(["wallets:read"]);
  });
});

describe("traceability (x-source / x-reason)", () => {
  it("marks every operation and webhook", () => {
    const problems = [...operations(), ...webhookOperations()].flatMap(({ op }) => traceProblems(op.operationId, op));
    expect(problems).toEqual([]);
  });

  it("marks every component schema, response, parameter, header and security scheme", () => {
    const problems: string[] = [];
    for (const kind of ["schemas", "responses", "parameters", "headers", "securitySchemes"]) {
      for (const [name, node] of Object.entries<any>(raw.components[kind]))
        problems.push(...traceProblems(`${kind}/${name}`, node));
    }
    expect(problems).toEqual([]);
  });

  it("marks every x-custody-* extension object, top-level and nested", () => {
    const found: string[] = [];
    const walk = (node: any, where: string) => {
      if (!node || typeof node !== "object") return;
      for (const [key, value] of Object.entries<any>(node)) {
        if (key === "examples" || key === "example") continue;
        if (key.startsWith("x-custody-") && value && typeof value === "object" && !Array.isArray(value)) {
          found.push(`${where}/${key}`);
          expect(traceProblems(`${where}/${key}`, value)).toEqual([]);
        }
        walk(value, `${where}/${key}`);
      }
    };
    walk(raw, "");
    expect(found).toEqual(
      expect.arrayContaining([
        "/x-custody-webhook-signature",
        "/x-custody-roles",
        "/components/securitySchemes/AccessSign/x-custody-hmac",
      ]),
    );
  });

  it("catches an unmarked item (the convention check can fail)", () => {
    expect(traceProblems("x", { "x-source": "assumed" })).toHaveLength(1);
    expect(traceProblems("x", {})).toHaveLength(1);
  });
});

describe("webhooks and events", () => {
  const EVENTS = [
    "wallet.created",
    "deposit.pending",
    "deposit.confirmed",
    "withdrawal.pending",
    "withdrawal.executed",
    "withdrawal.confirmed",
    "withdrawal.failed",
  ];

  it("has one POST webhook per event type, with the default profile's signature headers", () => {
    expect(Object.keys(raw.webhooks)).toEqual(EVENTS);
    expect(raw.components.schemas.EventType.enum).toEqual(EVENTS);
    for (const event of EVENTS) {
      const op = raw.webhooks[event].post;
      expect(op.security, event).toEqual([]);
      const headers = op.parameters.map(deref);
      expect(
        headers.map((h: any) => [h.in, h.name, h.required]),
        event,
      ).toEqual([
        ["header", "x-webhook-event-id", true],
        ["header", "x-webhook-signature", true],
      ]);
      const schema = deref(op.requestBody.content["application/json"].schema);
      expect(schema.required, event).toEqual(["webhook_id", "resource_id", "url", "payload", "event"]);
      expect(schema.properties.event.const, event).toBe(event);
    }
  });

  it("documents both signature profiles and picks the real service's canonical-json as the default", () => {
    const sig = raw["x-custody-webhook-signature"];
    expect(sig.default).toBe("canonical-json");
    expect(sig["why-default"]).toMatch(/fystack\/platform-sdk src\/utils.ts/);
    expect(Object.keys(sig.profiles).sort()).toEqual(["canonical-json", "standard-webhooks"]);
    expect(sig.profiles["standard-webhooks"].headers).toEqual({
      id: "webhook-id",
      timestamp: "webhook-timestamp",
      signature: "webhook-signature",
    });
    expect(sig.profiles["canonical-json"].headers).toEqual({
      signature: "x-webhook-signature",
      "event-id": "x-webhook-event-id",
      hmac: "x-webhook-hmac-signature",
    });
  });
});

describe("seed resources (section 2)", () => {
  const S = () => raw.components.schemas;

  it("keeps every WalletBalance field optional", () => {
    expect(S().WalletBalance.required).toBeUndefined();
    expect(Object.keys(S().WalletBalance.properties)).toHaveLength(16);
  });

  it("requires id on Asset and Network, with chain_id int64", () => {
    expect(S().Asset.required).toEqual(["id"]);
    expect(S().Network.required).toEqual(["id"]);
    expect(S().Network.properties.chain_id).toEqual({ type: "integer", format: "int64" });
  });

  it("gives every seed field of each resource its type", () => {
    // Asset: the 14 seed fields plus created_at and updated_at; WalletCreationStatus: 11 plus wallet_purpose
    // (both named by the real service's SDK, src/types.ts).
    const fields: Record<string, number> = {
      Asset: 16,
      Network: 10,
      WalletCreationStatus: 12,
      WebhookDelivery: 17,
      WebhookDeleteResult: 3,
      WebhookVerificationKey: 1,
    };
    for (const [name, count] of Object.entries(fields))
      expect(Object.keys(S()[name].properties).length, name).toBe(count);
    // Withdrawal: the 18 seed fields plus the 7 assumed ones of the real service's SDK (src/types.ts Withdrawal)
    // and last_sent_at.
    expect(Object.keys(S().Withdrawal.properties)).toHaveLength(26);
    for (const name of ["confirmed_at"]) expect(S().Withdrawal.properties[name].format).toBe("date-time");
    for (const name of ["next_attempt_at", "last_attempt_at", "delivered_at", "created_at", "updated_at"])
      expect(S().WebhookDelivery.properties[name].format).toBe("date-time");
  });

  it("declares the status values, with the seed-shown ones marked (section 3)", () => {
    expect(S().WalletCreationState).toMatchObject({
      enum: ["pending", "success", "error"],
      "x-seed-values": ["pending"],
    });
    expect(S().WebhookDeliveryStatus).toMatchObject({
      enum: ["pending", "delivered", "failed"],
      "x-seed-values": ["pending"],
    });
    expect(S().WebhookDeleteResult.properties.status).toMatchObject({
      enum: ["deleted"],
      "x-seed-values": ["deleted"],
    });
    expect(S().WithdrawalStatus.enum).toEqual([
      "pending",
      "pending_approval",
      "approved",
      "rejected",
      "processing",
      "completed",
      "failed",
    ]);
  });

  it("ignores unknown properties on every request body (x-custody-limits.unknown-body-fields)", () => {
    expect(raw["x-custody-limits"]["unknown-body-fields"].policy).toMatch(/^ignored\./);
    for (const { op } of operations()) {
      if (!op.requestBody) continue;
      const schema = deref(op.requestBody.content["application/json"].schema);
      expect(schema.additionalProperties, op.operationId).toBeUndefined();
    }
  });
});
