// The shortcuts taken for throughput give the same answers as the general code they skip: header
// subsets for stripping schemas, the constant envelope prefix, the grouped route table, one-pass auth
// headers, the body-less request path, the flat writeHead, undici's dispatch API in the client, and
// response validation that can be switched off.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { Pool, request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { serializeSuccess, successEnvelope } from "../runtime/envelope.ts";
import { ApiError } from "../runtime/errors.ts";
import { createTransport, TransportError } from "../runtime/http/client.ts";
import { type CallOperation, callOperation, expandPath } from "../runtime/http/client-call.ts";
import { signRequest } from "../runtime/http/hmac.ts";
import { authHeaders, singleHeader } from "../runtime/server/auth.ts";
import { listen, type RunningServer } from "../runtime/server/listen.ts";
import { createMatcher } from "../runtime/server/match.ts";
import { createRouter } from "../runtime/server/router.ts";
import type { OperationDefinition } from "../runtime/server/types.ts";
import { headersRecord, headersSubset, readKeys } from "../runtime/server/validate.ts";

/** An IncomingMessage stand-in: the two header views node derives from rawHeaders. */
function fakeRequest(raw: string[]): IncomingMessage {
  const distinct: Record<string, string[]> = {};
  for (let i = 0; i < raw.length; i += 2) (distinct[raw[i].toLowerCase()] ??= []).push(raw[i + 1]);
  return { rawHeaders: raw, headersDistinct: distinct } as unknown as IncomingMessage;
}

const headerName = fc.constantFrom(
  "Idempotency-Key",
  "idempotency-key",
  "IDEMPOTENCY-KEY",
  "X-Other",
  "accept",
  "x-trace",
);
const rawHeaders = fc
  .array(fc.tuple(headerName, fc.string({ maxLength: 8 })), { maxLength: 6 })
  .map((pairs) => pairs.flat());

describe("header subsets", () => {
  it("reads only the keys of a stripping object schema, and nothing for the others", () => {
    expect(readKeys(z.object({ "idempotency-key": z.string() }))).toEqual(["idempotency-key"]);
    expect(readKeys(z.object({}))).toEqual([]);
    expect(readKeys(z.object({ a: z.string() }).refine(() => true))).toEqual(["a"]);
    expect(readKeys(z.strictObject({ a: z.string() }))).toBeUndefined();
    expect(readKeys(z.looseObject({ a: z.string() }))).toBeUndefined();
    expect(readKeys(z.object({ a: z.string() }).catchall(z.string()))).toBeUndefined();
    expect(readKeys(z.object({ a: z.string() }).transform((x) => x))).toBeUndefined();
    expect(readKeys(undefined)).toBeUndefined();
  });

  it("gives a stripping schema the same result as the full header record", () => {
    const schema = z.object({ "idempotency-key": z.string().min(1).max(255) });
    const names = readKeys(schema)!;
    fc.assert(
      fc.property(rawHeaders, (raw) => {
        const req = fakeRequest(raw);
        const full = schema.safeParse(headersRecord(req));
        const subset = schema.safeParse(headersSubset(req, names));
        expect(subset.success).toBe(full.success);
        if (full.success) expect(subset.data).toEqual(full.data);
        else expect(subset.error!.issues).toEqual(full.error.issues);
      }),
    );
  });

  it("turns a repeated header into an array, as headersRecord does", () => {
    const req = fakeRequest(["Idempotency-Key", "a", "idempotency-key", "b", "x-other", "c"]);
    expect(headersSubset(req, ["idempotency-key"])).toEqual({ "idempotency-key": ["a", "b"] });
    expect(headersSubset(req, [])).toEqual({});
  });
});

describe("authentication headers in one pass", () => {
  it("agrees with singleHeader for each of the three headers", () => {
    const name = fc.constantFrom(
      "ACCESS-API-KEY",
      "access-api-key",
      "Access-Timestamp",
      "ACCESS-SIGN",
      "access-sign",
      "ACCESS-SIGNX",
      "x-other",
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(name, fc.constantFrom("", "v1", "v2")), { maxLength: 8 }), (pairs) => {
        const req = { rawHeaders: pairs.flat() } as unknown as IncomingMessage;
        expect(authHeaders(req)).toEqual({
          keyId: singleHeader(req, "ACCESS-API-KEY"),
          timestamp: singleHeader(req, "ACCESS-TIMESTAMP"),
          signature: singleHeader(req, "ACCESS-SIGN"),
        });
      }),
    );
  });
});

describe("success envelope serialization", () => {
  it("is byte for byte JSON.stringify of the envelope object", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (data) => {
        expect(serializeSuccess(data)).toBe(JSON.stringify(successEnvelope(data)));
      }),
    );
    expect(serializeSuccess(null)).toBe('{"success":true,"message":"success","code":0,"data":null}');
    expect(serializeSuccess([{ at: new Date(0) }])).toBe(JSON.stringify(successEnvelope([{ at: new Date(0) }])));
    // Data that serializes to nothing leaves the key out, as the object form does.
    expect(serializeSuccess(() => 1)).toBe(JSON.stringify(successEnvelope(() => 1)));
  });
});

describe("route table grouped by method and length", () => {
  const routes = [
    { method: "GET", path: "/api/v1/wallets/{wallet_id}", value: "getWallet" },
    { method: "GET", path: "/api/v1/wallets/creation-status/{wallet_id}", value: "creationStatus" },
    { method: "GET", path: "/api/v1/wallets/{wallet_id}/overview", value: "overview" },
    { method: "POST", path: "/api/v1/wallets/{wallet_id}/overview", value: "postOverview" },
    { method: "GET", path: "/api/v1/things/{__proto__}", value: "proto" },
  ];
  const matcher = createMatcher(routes);

  it("still prefers literal segments and separates methods", () => {
    expect(matcher.match("GET", "/api/v1/wallets/creation-status/w_1")).toEqual({
      value: "creationStatus",
      params: { wallet_id: "w_1" },
    });
    expect(matcher.match("GET", "/api/v1/wallets/w_1/overview")?.value).toBe("overview");
    expect(matcher.match("post", "/api/v1/wallets/w_1/overview")?.value).toBe("postOverview");
    expect(matcher.match("DELETE", "/api/v1/wallets/w_1")).toBeUndefined();
    expect(matcher.match("GET", "/api/v1/wallets/w_1/overview/extra")).toBeUndefined();
    expect(matcher.match("GET", "api/v1/wallets/w_1")).toBeUndefined();
  });

  it("decodes percent-escapes and refuses empty or undecodable segments", () => {
    expect(matcher.match("GET", "/api/v1/wallets/w%20%C3%A9")?.params).toEqual({ wallet_id: "w é" });
    expect(matcher.match("GET", "/api/v1/wallets/plain")?.params).toEqual({ wallet_id: "plain" });
    expect(matcher.match("GET", "/api/v1/wallets/%E0%A4%A")).toBeUndefined();
    expect(matcher.match("GET", "/api/v1/wallets/")).toBeUndefined();
  });

  it("keeps a parameter named __proto__ as a plain key", () => {
    const params = matcher.match("GET", "/api/v1/things/x")?.params as Record<string, string>;
    expect(Object.getPrototypeOf(params)).toBe(Object.prototype);
    expect(Object.keys(params)).toEqual(["__proto__"]);
    expect(Object.getOwnPropertyDescriptor(params, "__proto__")?.value).toBe("x");
  });
});

describe("router fast paths on the wire", () => {
  const SECRET = "fast-secret";
  const NOW = 1_700_000_000;
  const schemaless = z.object({});
  const seen: unknown[] = [];
  const ops: OperationDefinition[] = [
    {
      operationId: "echo",
      method: "POST",
      path: "/api/v1/echo/{id}",
      successStatus: 200,
      scopes: [],
      minRole: "viewer",
      paramsSchema: z.object({ id: z.string() }),
      querySchema: schemaless,
      headersSchema: z.object({ "x-tag": z.string().optional() }),
      bodySchema: z.object({ n: z.number() }).optional(),
      declaredStatuses: [200, 400, 401, 500],
    },
    {
      operationId: "read",
      method: "GET",
      path: "/api/v1/read",
      successStatus: 200,
      scopes: [],
      minRole: "viewer",
      paramsSchema: schemaless,
      querySchema: schemaless,
      headersSchema: z.strictObject({}).catchall(z.unknown()),
      declaredStatuses: [200, 401, 500],
    },
  ];
  let running: RunningServer | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
    seen.length = 0;
  });

  async function start(): Promise<string> {
    running = await listen(
      createRouter({
        operations: ops,
        handlers: {
          echo: (input, ctx) => {
            seen.push(input);
            ctx.setHeader("X-Handler", "yes");
            ctx.setHeader("Cache-Control", "public"); // the router's no-store wins
            return { id: input.params.id, tag: input.headers["x-tag"] ?? null, body: input.body ?? null };
          },
          read: (input) => {
            seen.push(input);
            return { ok: true };
          },
        },
        resolveKey: (id) =>
          id === "key_1"
            ? { keyId: "key_1", secret: SECRET, role: "viewer", scopes: [], workspaceId: "ws_1" }
            : undefined,
        now: () => NOW,
      }),
    );
    return running.url;
  }

  const signed = (method: string, path: string, body?: string) =>
    signRequest({ apiKey: "key_1", apiSecret: SECRET, method, path, body, timestamp: NOW });

  it("authenticates a request without a body against the empty body, and answers with every header", async () => {
    const url = await start();
    const res = await request(`${url}/api/v1/echo/a%2Fb`, {
      method: "POST",
      headers: { ...signed("POST", "/api/v1/echo/a%2Fb"), "X-Tag": "t1" },
    });
    expect(res.statusCode).toBe(200);
    expect(await res.body.json()).toEqual(successEnvelope({ id: "a/b", tag: "t1", body: null }));
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["x-handler"]).toBe("yes");
    expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(res.headers["content-length"])).toBeGreaterThan(0);
  });

  it("still reads, signs and validates a body announced by content-length", async () => {
    const url = await start();
    const body = JSON.stringify({ n: 7 });
    const ok = await request(`${url}/api/v1/echo/x`, {
      method: "POST",
      headers: { ...signed("POST", "/api/v1/echo/x", body), "content-type": "application/json" },
      body,
    });
    expect(await ok.body.json()).toEqual(successEnvelope({ id: "x", tag: null, body: { n: 7 } }));
    // A signature over the empty body does not cover a body that was sent.
    const unsigned = await request(`${url}/api/v1/echo/x`, {
      method: "POST",
      headers: signed("POST", "/api/v1/echo/x"),
      body,
    });
    expect(unsigned.statusCode).toBe(401);
    await unsigned.body.text();
  });

  it("hands every header to a schema that may read them all", async () => {
    const url = await start();
    const res = await request(`${url}/api/v1/read`, { headers: { ...signed("GET", "/api/v1/read"), "x-extra": "1" } });
    expect(res.statusCode).toBe(200);
    await res.body.text();
    expect((seen[0] as { headers: Record<string, string> }).headers["x-extra"]).toBe("1");
  });
});

describe("client over undici's dispatch API", () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
  });

  async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
    server = createServer(handler);
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  }

  it("reads headers and a body that arrives in pieces, multi-byte characters split included", async () => {
    const text = JSON.stringify({
      success: true,
      message: "success",
      code: 0,
      data: { name: "Trésor ✓".repeat(2000) },
    });
    const bytes = Buffer.from(text, "utf8");
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "x-request-id": "r1", "x-multi": ["a", "b"] });
      // Cut inside a multi-byte character.
      const cut = bytes.indexOf(Buffer.from("é")) + 1;
      res.write(bytes.subarray(0, cut));
      setTimeout(() => res.end(bytes.subarray(cut)), 5);
    });
    const pool = new Pool(url, { connections: 1 });
    try {
      const res = await createTransport({ baseUrl: url, dispatcher: pool, retry: false }).request({
        method: "GET",
        path: "/x",
      });
      expect(res.text).toBe(text);
      expect(res.body).toEqual(JSON.parse(text));
      expect(res.requestId).toBe("r1");
      expect(res.headers["x-multi"]).toBe("a, b");
    } finally {
      await pool.close();
    }
  });

  it("refuses a declared content-length over the limit before reading the body", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-length": "100000" });
      res.write("x".repeat(10));
    });
    const error = await createTransport({ baseUrl: url, maxResponseBytes: 1000, retry: false })
      .request({ method: "GET", path: "/big" })
      .catch((e) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error.kind).toBe("too_large");
    expect(error.message).toBe("response body exceeds 1000 bytes");
  });

  it("stops at once when the caller's signal aborts, and reports it as aborted", async () => {
    const url = await serve(() => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await createTransport({ baseUrl: url, retry: false, timeoutMs: 5000 })
      .request({ method: "GET", path: "/hang", signal: controller.signal })
      .catch((e) => e);
    expect(error).toBeInstanceOf(TransportError);
    // A timeout would say "timeout" (after 5 s): the caller's abort ended it first.
    expect(error.kind).toBe("aborted");
    const already = await createTransport({ baseUrl: url, retry: false })
      .request({ method: "GET", path: "/hang", signal: AbortSignal.abort() })
      .catch((e) => e);
    expect(already.kind).toBe("aborted");
  });

  it("times out while waiting for a connection of a busy pool too", async () => {
    const url = await serve(() => {});
    const pool = new Pool(url, { connections: 1 });
    try {
      const transport = createTransport({ baseUrl: url, dispatcher: pool, retry: false, timeoutMs: 150 });
      const [first, queued] = await Promise.all([
        transport.request({ method: "GET", path: "/a" }).catch((e) => e),
        transport.request({ method: "GET", path: "/b" }).catch((e) => e),
      ]);
      expect(first.kind).toBe("timeout");
      expect(queued.kind).toBe("timeout");
      expect(queued.message).toMatch(/timed out after 150 ms/);
    } finally {
      await pool.destroy();
    }
  });
});

describe("client calls", () => {
  const op: CallOperation = {
    operationId: "getThing",
    method: "GET",
    path: "/api/v1/things/{thing_id}/parts/{part}",
    successStatus: 200,
    idempotent: true,
    envelope: true,
    responseSchemas: { 200: z.object({ id: z.string() }) },
  };
  const answering = (data: unknown) => ({
    baseUrl: "http://x",
    async request(req: { path: string }) {
      const body = { success: true, message: "success", code: 0, data };
      return {
        status: 200,
        headers: {},
        body,
        text: JSON.stringify(body),
        requestId: "r",
        attempts: 1,
        request: { method: "GET", url: req.path, path: req.path, headers: {}, body: undefined },
      };
    },
  });

  it("fills path templates exactly like a global replace", () => {
    const template = fc
      .array(fc.oneof(fc.constantFrom("/a", "/{x}", "/{y_1}", "-", "{x}"), fc.stringMatching(/^[a-z/]{0,4}$/)), {
        maxLength: 6,
      })
      .map((p) => p.join(""));
    const value = fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.constant(undefined));
    fc.assert(
      fc.property(template, value, value, (t, x, y) => {
        const params = { x, y_1: y };
        const reference = t.replace(/\{([^}]+)\}/g, (_, name: string) =>
          encodeURIComponent(String((params as Record<string, unknown>)[name])),
        );
        expect(expandPath(t, params)).toBe(reference);
      }),
    );
  });

  it("validates by default and returns the parsed data; raw data when validation is off", async () => {
    const transport = answering({ id: "t1", extra: 1 });
    expect(await callOperation(transport, op, { params: { thing_id: "a b", part: 1 } }, undefined, "json")).toEqual({
      id: "t1",
    });
    expect(
      await callOperation(transport, op, { params: { thing_id: "a", part: 1 } }, { validateResponse: false }, "json"),
    ).toEqual({ id: "t1", extra: 1 });
    const off = { ...transport, validateResponses: false };
    expect(await callOperation(off, op, { params: { thing_id: "a", part: 1 } }, undefined, "json")).toEqual({
      id: "t1",
      extra: 1,
    });
    expect(
      await callOperation(off, op, { params: { thing_id: "a", part: 1 } }, { validateResponse: true }, "json"),
    ).toEqual({ id: "t1" });
  });

  it("raises invalid_response for data that does not match, only while validating", async () => {
    const transport = answering({ id: 42 });
    const error = (await callOperation(transport, op, { params: { thing_id: "a", part: 1 } }, undefined, "json").catch(
      (e: unknown) => e,
    )) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe("invalid_response");
    expect(
      await callOperation(transport, op, { params: { thing_id: "a", part: 1 } }, { validateResponse: false }, "json"),
    ).toEqual({ id: 42 });
  });

  it("createTransport validates unless told otherwise", () => {
    expect(createTransport({ baseUrl: "http://x" }).validateResponses).toBe(true);
    expect(createTransport({ baseUrl: "http://x", validateResponses: false }).validateResponses).toBe(false);
  });
});

describe("the shared deadline signal", () => {
  it("serves at most 32 attempts that start together, and each still times out", async () => {
    const { fetchSend } = await import("../runtime/http/transport.ts");
    const signals: AbortSignal[] = [];
    const fetch = (_url: string, init: { signal: AbortSignal }) => {
      signals.push(init.signal);
      return Promise.resolve({ status: 200, headers: { forEach() {} }, body: null });
    };
    const send = fetchSend(fetch);
    const input = {
      url: "http://127.0.0.1:9/x",
      origin: "http://127.0.0.1:9",
      pathAndQuery: "/x",
      method: "GET",
      headers: {},
      body: undefined,
      timeoutMs: 60_000,
      maxBytes: 1024,
    };
    await Promise.all(Array.from({ length: 100 }, () => send(input)));
    const uses = new Map<AbortSignal, number>();
    for (const s of signals) uses.set(s, (uses.get(s) ?? 0) + 1);
    expect(Math.max(...uses.values())).toBeLessThanOrEqual(32);
    // Shared at all: far fewer signals than attempts (100 attempts in one window).
    expect(uses.size).toBeLessThan(10);

    // A hanging exchange is still cut at its timeout.
    const hanging = fetchSend(
      (_url, init) =>
        new Promise((_resolve, reject) => init.signal.addEventListener("abort", () => reject(new Error("aborted")))),
    );
    await expect(hanging({ ...input, timeoutMs: 50 })).rejects.toThrow(/50/);
  });
});
