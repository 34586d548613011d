import { Readable } from "node:stream";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { UNAUTHORIZED_BODY } from "../runtime/envelope.ts";
import { ApiError, conflict, notFound } from "../runtime/errors.ts";
import { computeSignature, signRequest } from "../runtime/http/hmac.ts";
import { listen, type RunningServer } from "../runtime/server/listen.ts";
import { createRouter } from "../runtime/server/router.ts";
import type { KeyRecord, OperationDefinition } from "../runtime/server/types.ts";

const NOW = 1_700_000_000;
const LIMIT = 4096;
const empty = z.object({});

const KEYS: Record<string, KeyRecord> = {
  key_admin: { keyId: "key_admin", secret: "admin-secret", role: "admin", scopes: ["*"], workspaceId: "ws_1" },
  key_viewer: {
    keyId: "key_viewer",
    secret: "viewer-secret",
    role: "viewer",
    scopes: ["wallets:read", "balances:read"],
    workspaceId: "ws_1",
  },
  key_admin_narrow: {
    keyId: "key_admin_narrow",
    secret: "narrow-secret",
    role: "admin",
    scopes: ["wallets:read"],
    workspaceId: "ws_1",
  },
};

function op(
  partial: Partial<OperationDefinition> & Pick<OperationDefinition, "operationId" | "method" | "path">,
): OperationDefinition {
  return {
    successStatus: 200,
    scopes: [],
    minRole: "viewer",
    paramsSchema: empty,
    querySchema: empty,
    headersSchema: empty,
    declaredStatuses: [200, 400, 401, 403, 404, 500],
    ...partial,
  };
}

const walletParams = z.object({ wallet_id: z.string().regex(/^w_[a-z0-9]+$/) });
const operations: OperationDefinition[] = [
  op({
    operationId: "getWalletOverview",
    method: "GET",
    path: "/api/v1/wallets/{wallet_id}/overview",
    paramsSchema: walletParams,
    scopes: ["balances:read"],
  }),
  op({
    operationId: "getWalletCreationStatus",
    method: "GET",
    path: "/api/v1/wallets/creation-status/{wallet_id}",
    paramsSchema: z.object({ wallet_id: z.string() }),
    scopes: ["wallets:read"],
  }),
  op({
    operationId: "createWithdrawal",
    method: "POST",
    path: "/api/v1/wallets/{wallet_id}/withdrawals",
    successStatus: 201,
    scopes: ["withdrawals:write"],
    minRole: "admin",
    paramsSchema: walletParams,
    headersSchema: z.object({ "idempotency-key": z.string().min(1).max(255) }),
    bodySchema: z.object({
      asset_id: z.string(),
      amount: z.string().regex(/^[0-9]+(\.[0-9]+)?$/),
      recipient_address: z.string(),
      note: z.string().optional(),
      items: z.array(z.object({ n: z.number() })).optional(),
    }),
    declaredStatuses: [201, 400, 401, 403, 404, 409, 413, 500],
  }),
  op({
    operationId: "approveWithdrawal",
    method: "POST",
    path: "/api/v1/withdrawals/{withdrawal_id}/approve",
    minRole: "admin",
    paramsSchema: z.object({ withdrawal_id: z.string() }),
    bodySchema: z.object({ comment: z.string().optional() }).optional(),
    declaredStatuses: [200, 400, 401, 403, 404, 409, 413, 500],
  }),
  op({
    operationId: "listAssets",
    method: "GET",
    path: "/api/v1/assets",
    querySchema: z.object({
      network_id: z.string().optional(),
      limit: z.coerce.number().int().min(1).max(100).default(20),
    }),
  }),
  op({
    operationId: "listApiKeys",
    method: "GET",
    path: "/api/v1/workspaces/{workspace_id}/api-keys",
    paramsSchema: z.object({ workspace_id: z.string() }),
    minRole: "admin",
  }),
  op({ operationId: "boom", method: "GET", path: "/api/v1/boom" }),
  op({ operationId: "teapot", method: "GET", path: "/api/v1/teapot" }),
  op({
    operationId: "undeclaredConflict",
    method: "DELETE",
    path: "/api/v1/things/{id}",
    paramsSchema: z.object({ id: z.string() }),
    declaredStatuses: [200, 401, 404, 500],
  }),
  op({
    operationId: "badResponse",
    method: "GET",
    path: "/api/v1/bad-response",
    responseSchema: z.object({ id: z.string() }),
  }),
];

const seen: { operationId: string; input: unknown; auth: unknown }[] = [];
const logged: string[] = [];

const handlers = {
  getWalletOverview: ({ params }: { params: { wallet_id: string } }) => [
    { wallet_id: params.wallet_id, balance: "1.5" },
  ],
  getWalletCreationStatus: ({ params }: { params: { wallet_id: string } }) => ({
    wallet_id: params.wallet_id,
    status: "pending",
  }),
  createWithdrawal: (
    input: { params: unknown; body: unknown; headers: unknown },
    ctx: { auth: unknown; setHeader(n: string, v: string): void },
  ) => {
    seen.push({ operationId: "createWithdrawal", input, auth: ctx.auth });
    ctx.setHeader("x-idempotent-replayed", "false");
    ctx.setHeader("content-type", "text/html"); // reserved: ignored
    return { id: "wd_1", status: "pending" };
  },
  approveWithdrawal: (input: { params: { withdrawal_id: string }; body: unknown }) => {
    if (input.params.withdrawal_id === "missing") throw notFound("withdrawal not found");
    if (input.params.withdrawal_id === "done") throw conflict("withdrawal is not pending approval");
    return { id: input.params.withdrawal_id, body: input.body ?? null };
  },
  listAssets: (input: { query: unknown }) => {
    seen.push({ operationId: "listAssets", input, auth: undefined });
    return [];
  },
  listApiKeys: () => [],
  boom: () => {
    throw new Error("database password hunter2 leaked");
  },
  teapot: () => {
    throw new ApiError(418, "teapot", "short and stout");
  },
  undeclaredConflict: () => {
    throw conflict("undeclared here");
  },
  badResponse: () => ({ id: 42 }),
};

function startServer(validateResponses: boolean): Promise<RunningServer> {
  return listen(
    createRouter({
      operations,
      handlers,
      resolveKey: (id) => KEYS[id],
      bodyLimitBytes: LIMIT,
      now: () => NOW,
      logger: { error: (message) => logged.push(message) },
      validateResponses,
    }),
  );
}

let server: RunningServer;
let strict: RunningServer;
beforeAll(async () => {
  server = await startServer(false);
  strict = await startServer(true);
});
afterAll(async () => {
  await server.close();
  await strict.close();
});

interface Call {
  method?: string;
  path: string;
  body?: string | Buffer;
  key?: string;
  timestamp?: number | string;
  headers?: Record<string, string | string[]>;
  sign?: boolean;
  base?: RunningServer;
}

async function call(c: Call) {
  const method = c.method ?? "GET";
  const key = KEYS[c.key ?? "key_admin"];
  const signPath = c.path.split("?")[0];
  const auth =
    c.sign === false
      ? {}
      : signRequest({
          apiKey: c.key ?? "key_admin",
          apiSecret: key?.secret ?? "nope",
          method,
          path: signPath,
          body: c.body,
          timestamp: c.timestamp ?? NOW,
        });
  const res = await request((c.base ?? server).url + c.path, {
    method: method as "GET",
    headers: { ...auth, ...c.headers },
    body: c.body,
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, json: text ? JSON.parse(text) : undefined };
}

const WITHDRAWAL = { asset_id: "eth", amount: "0.5", recipient_address: "0xabc" };
const withdraw = (over: Partial<Call> = {}) =>
  call({
    method: "POST",
    path: "/api/v1/wallets/w_1/withdrawals",
    body: JSON.stringify(WITHDRAWAL),
    headers: { "idempotency-key": "idem-1" },
    ...over,
  });

describe("router: routing", () => {
  it("prefers literal segments over templated ones", async () => {
    const res = await call({ path: "/api/v1/wallets/creation-status/overview" });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({ wallet_id: "overview", status: "pending" });
    const overview = await call({ path: "/api/v1/wallets/w_1/overview" });
    expect(overview.json.data).toEqual([{ wallet_id: "w_1", balance: "1.5" }]);
  });

  it("wraps results in the success envelope with the declared success status and headers", async () => {
    const res = await withdraw();
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ success: true, message: "success", code: 0, data: { id: "wd_1", status: "pending" } });
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers["x-idempotent-replayed"]).toBe("false");
  });

  it("answers unknown routes and wrong methods with the 404 envelope", async () => {
    for (const c of [
      { path: "/api/v1/nope" },
      { method: "PUT", path: "/api/v1/wallets/w_1/overview" },
      { path: "/api/v1/wallets//overview" },
      { path: "/api/v1/wallets/%E0%A4%A/overview" },
    ]) {
      const res = await call(c);
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ success: false, message: "no such operation", code: 404, data: null });
    }
  });

  it("decodes path parameters and hands handlers the parsed (zod output) inputs", async () => {
    seen.length = 0;
    await withdraw({ body: JSON.stringify({ ...WITHDRAWAL, extra: "dropped" }) });
    const input = seen[0].input as { params: unknown; body: Record<string, unknown>; headers: Record<string, unknown> };
    expect(input.params).toEqual({ wallet_id: "w_1" });
    expect(input.body).toEqual(WITHDRAWAL);
    expect(input.headers).toEqual({ "idempotency-key": "idem-1" });
    expect(seen[0].auth).toEqual({ keyId: "key_admin", role: "admin", scopes: ["*"], workspaceId: "ws_1" });

    const res = await call({ path: "/api/v1/wallets/creation-status/a%20b%2Fc" });
    expect(res.json.data.wallet_id).toBe("a b/c");
  });

  it("signs the path without the query string and parses the query", async () => {
    seen.length = 0;
    const res = await call({ path: "/api/v1/assets?network_id=eth&limit=5" });
    expect(res.status).toBe(200);
    expect((seen[0].input as { query: unknown }).query).toEqual({ network_id: "eth", limit: 5 });
    const withQuerySigned = signRequest({
      apiKey: "key_admin",
      apiSecret: "admin-secret",
      method: "GET",
      path: "/x",
      timestamp: NOW,
    });
    const signedOverQuery = computeSignature("admin-secret", {
      method: "GET",
      path: "/api/v1/assets?network_id=eth",
      timestamp: NOW,
    });
    const bad = await call({
      path: "/api/v1/assets?network_id=eth",
      sign: false,
      headers: { ...withQuerySigned, "ACCESS-SIGN": signedOverQuery },
    });
    expect(bad.status).toBe(401);
  });
});

describe("router: authentication", () => {
  it("sends byte-identical 401 bodies for every kind of failure", async () => {
    const good = signRequest({
      apiKey: "key_admin",
      apiSecret: "admin-secret",
      method: "GET",
      path: "/api/v1/wallets/w_1/overview",
      timestamp: NOW,
    });
    const path = "/api/v1/wallets/w_1/overview";
    const cases: Call[] = [
      { path, sign: false },
      {
        path,
        sign: false,
        headers: { "ACCESS-API-KEY": good["ACCESS-API-KEY"], "ACCESS-TIMESTAMP": good["ACCESS-TIMESTAMP"] },
      },
      { path, sign: false, headers: { ...good, "ACCESS-SIGN": "" } },
      { path, key: "key_unknown" },
      {
        path,
        sign: false,
        headers: { ...good, "ACCESS-SIGN": computeSignature("wrong", { method: "GET", path, timestamp: NOW }) },
      },
      { path, timestamp: NOW - 301 },
      { path, timestamp: NOW + 301 },
      { path, timestamp: `${NOW}.0` },
      { path, timestamp: `-${NOW}` },
      { path, timestamp: NOW * 1000 },
      { path, sign: false, headers: { ...good, "ACCESS-SIGN": [good["ACCESS-SIGN"], good["ACCESS-SIGN"]] } },
      { path, sign: false, headers: { ...good, "ACCESS-API-KEY": ["key_admin", "key_admin"] } },
      // signed for GET, sent as POST to a path where POST exists
      {
        method: "POST",
        path: "/api/v1/withdrawals/wd_1/approve",
        sign: false,
        headers: signRequest({
          apiKey: "key_admin",
          apiSecret: "admin-secret",
          method: "GET",
          path: "/api/v1/withdrawals/wd_1/approve",
          timestamp: NOW,
        }),
      },
    ];
    for (const c of cases) {
      const res = await call(c);
      expect(res.status, JSON.stringify(c)).toBe(401);
      expect(res.text).toBe(UNAUTHORIZED_BODY);
      expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(res.headers["x-request-id"]).toBeTruthy();
    }
  });

  it("accepts timestamps at the edges of the ±300 s window", async () => {
    expect((await call({ path: "/api/v1/wallets/w_1/overview", timestamp: NOW - 300 })).status).toBe(200);
    expect((await call({ path: "/api/v1/wallets/w_1/overview", timestamp: NOW + 300 })).status).toBe(200);
  });

  it("rejects a request whose signed body, method or path was changed", async () => {
    const body = JSON.stringify(WITHDRAWAL);
    const headers = {
      ...signRequest({
        apiKey: "key_admin",
        apiSecret: "admin-secret",
        method: "POST",
        path: "/api/v1/wallets/w_1/withdrawals",
        body,
        timestamp: NOW,
      }),
      "idempotency-key": "k",
    };
    const tampered = await call({
      method: "POST",
      path: "/api/v1/wallets/w_1/withdrawals",
      body: body.replace("0.5", "5.0"),
      sign: false,
      headers,
    });
    expect(tampered.status).toBe(401);
    const otherPath = await call({
      method: "POST",
      path: "/api/v1/wallets/w_2/withdrawals",
      body,
      sign: false,
      headers,
    });
    expect(otherPath.status).toBe(401);
  });

  it("authenticates before validating, so bad input from strangers still gets 401", async () => {
    const res = await withdraw({ body: "{not json", key: "key_unknown" });
    expect(res.text).toBe(UNAUTHORIZED_BODY);
  });
});

describe("router: authorization", () => {
  it("answers 403 when the role is too low or a scope is missing", async () => {
    const viewer = await withdraw({ key: "key_viewer" });
    expect(viewer.status).toBe(403);
    expect(viewer.json).toMatchObject({ success: false, code: 403, data: null });
    const narrow = await withdraw({ key: "key_admin_narrow" });
    expect(narrow.status).toBe(403);
    const scoped = await call({ path: "/api/v1/wallets/w_1/overview", key: "key_viewer" });
    expect(scoped.status).toBe(200);
  });

  it("answers another workspace like a missing one (404)", async () => {
    expect((await call({ path: "/api/v1/workspaces/ws_1/api-keys" })).status).toBe(200);
    const other = await call({ path: "/api/v1/workspaces/ws_2/api-keys" });
    expect(other.status).toBe(404);
    expect(other.json.code).toBe(404);
  });
});

describe("router: input validation", () => {
  it("names the failing body field", async () => {
    const res = await withdraw({ body: JSON.stringify({ ...WITHDRAWAL, amount: "1,5" }) });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe(400);
    expect(res.json.message).toMatch(/^body\.amount: Invalid string: must match pattern/);
    const nested = await withdraw({ body: JSON.stringify({ ...WITHDRAWAL, items: [{ n: 1 }, { n: "x" }] }) });
    expect(nested.json.message).toMatch(/^body\.items\[1\]\.n: /);
  });

  it("names failing params, query and headers", async () => {
    expect((await call({ path: "/api/v1/wallets/W-1/overview" })).json.message).toMatch(/^params\.wallet_id: /);
    expect((await call({ path: "/api/v1/assets?limit=1000" })).json.message).toMatch(/^query\.limit: /);
    expect((await call({ path: "/api/v1/assets?limit=1&limit=2" })).status).toBe(400);
    const noKey = await withdraw({ headers: {} });
    expect(noKey.status).toBe(400);
    expect(noKey.json.message).toMatch(/^headers\.idempotency-key: /);
    const twoKeys = await withdraw({ headers: { "idempotency-key": ["a", "b"] } });
    expect(twoKeys.json.message).toMatch(/^headers\.idempotency-key: /);
  });

  it("refuses malformed JSON, invalid UTF-8, deep nesting and a missing required body with 400", async () => {
    const bad = await withdraw({ body: '{"asset_id":' });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe("body: malformed JSON");
    const latin1 = await withdraw({ body: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]) });
    expect(latin1.status).toBe(400);
    expect(latin1.json.message).toBe("body: not valid UTF-8");
    const deep = await withdraw({ body: "[".repeat(200) + "]".repeat(200) });
    expect(deep.status).toBe(400);
    expect(deep.json.message).toMatch(/nested deeper/);
    const none = await withdraw({ body: undefined });
    expect(none.status).toBe(400);
    expect(none.json.message).toMatch(/^body: /);
  });

  it("accepts an empty body where the body is optional", async () => {
    const res = await call({ method: "POST", path: "/api/v1/withdrawals/wd_1/approve" });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({ id: "wd_1", body: null });
  });

  it("answers an oversized body with 413, by content-length or while streaming", async () => {
    const big = JSON.stringify({ ...WITHDRAWAL, note: "x".repeat(LIMIT) });
    const declared = await withdraw({ body: big });
    expect(declared.status).toBe(413);
    expect(declared.json).toEqual({
      success: false,
      message: `body: larger than ${LIMIT} bytes`,
      code: 413,
      data: null,
    });

    const auth = {
      ...signRequest({
        apiKey: "key_admin",
        apiSecret: "admin-secret",
        method: "POST",
        path: "/api/v1/wallets/w_1/withdrawals",
        timestamp: NOW,
      }),
      "idempotency-key": "i",
    };
    async function* chunks() {
      for (let i = 0; i < 64; i++) yield Buffer.alloc(1024, 0x20);
    }
    const res = await request(`${server.url}/api/v1/wallets/w_1/withdrawals`, {
      method: "POST",
      headers: auth,
      body: Readable.from(chunks()),
    });
    expect(res.statusCode).toBe(413);
    expect((await res.body.json()) as unknown).toMatchObject({ code: 413 });
  });
});

describe("router: handler errors", () => {
  it("maps declared ApiErrors to their envelope", async () => {
    const missing = await call({ method: "POST", path: "/api/v1/withdrawals/missing/approve" });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ success: false, message: "withdrawal not found", code: 404, data: null });
    const done = await call({ method: "POST", path: "/api/v1/withdrawals/done/approve" });
    expect(done.status).toBe(409);
    expect(done.json.code).toBe(409);
  });

  it("turns unexpected exceptions into a 500 without stack or message, and logs them", async () => {
    logged.length = 0;
    const res = await call({ path: "/api/v1/boom" });
    expect(res.status).toBe(500);
    expect(res.json).toEqual({ success: false, message: "internal error", code: 500, data: null });
    expect(res.text).not.toMatch(/hunter2|at .*\.ts|Error:/);
    expect(logged.join("\n")).toMatch(/boom failed/);
  });

  it("turns thrown statuses the operation does not declare into 500", async () => {
    const teapot = await call({ path: "/api/v1/teapot" });
    expect(teapot.status).toBe(500);
    expect(teapot.json.code).toBe(500);
    const undeclared = await call({ method: "DELETE", path: "/api/v1/things/t1" });
    expect(undeclared.status).toBe(500);
    expect(logged.join("\n")).toMatch(/undeclaredConflict threw undeclared status 409/);
  });

  it("checks handler results against the response schema only when asked", async () => {
    expect((await call({ path: "/api/v1/bad-response" })).status).toBe(200);
    const res = await call({ path: "/api/v1/bad-response", base: strict });
    expect(res.status).toBe(500);
    expect(res.json.message).toBe("internal error");
  });
});

describe("router: request ids", () => {
  it("echoes a sane x-request-id and replaces anything else", async () => {
    const echoed = await call({
      path: "/api/v1/wallets/w_1/overview",
      headers: { "x-request-id": "req-123.abc:def_9" },
    });
    expect(echoed.headers["x-request-id"]).toBe("req-123.abc:def_9");
    const replaced = await call({ path: "/api/v1/wallets/w_1/overview", headers: { "x-request-id": "<script>" } });
    expect(replaced.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const long = await call({ path: "/api/v1/wallets/w_1/overview", headers: { "x-request-id": "a".repeat(129) } });
    expect(long.headers["x-request-id"]).not.toBe("a".repeat(129));
  });
});
