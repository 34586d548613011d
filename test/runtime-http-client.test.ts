import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { MockAgent, fetch as undiciFetch } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "../runtime/errors.ts";
import {
  backoffDelayMs,
  createTransport,
  type FetchLike,
  isIdempotentRequest,
  TransportError,
  type TransportOptions,
  unwrapEnvelope,
} from "../runtime/http/client.ts";
import { verifySignature } from "../runtime/http/hmac.ts";

const ORIGIN = "http://custody.test";
const SECRET = "client-secret";
const FAST = { retries: 2, minDelayMs: 1, maxDelayMs: 5 };
const OK = { success: true, message: "success", code: 0, data: { id: "w_1" } };

interface Seen {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

function mock() {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const seen: Seen[] = [];
  const pool = agent.get(ORIGIN);
  /** Answers one call with `status` (or a network error when status is "error") and records the request. */
  function answer(
    method: string,
    path: string,
    status: number | "error",
    data: unknown = OK,
    headers: Record<string, string> = {},
  ) {
    const interceptor = pool.intercept({ path, method });
    if (status === "error") {
      interceptor.replyWithError(new Error("connection reset by mock"));
      return;
    }
    interceptor.reply((opts) => {
      seen.push({
        method: opts.method,
        path: opts.path,
        headers: { ...(opts.headers as Record<string, string>) },
        body: opts.body as string | undefined,
      });
      return {
        statusCode: status,
        data: typeof data === "string" ? data : JSON.stringify(data),
        responseOptions: { headers: { "x-request-id": "req-1", ...headers } },
      };
    });
  }
  const transport = (options: Partial<TransportOptions> = {}) =>
    createTransport({
      baseUrl: ORIGIN,
      apiKey: "key_1",
      apiSecret: SECRET,
      dispatcher: agent,
      retry: FAST,
      ...options,
    });
  return { agent, seen, answer, transport };
}

describe("http-client: requests", () => {
  it("signs the exact path and body it sends, and leaves the query out of the signature", async () => {
    const m = mock();
    m.answer("POST", "/api/v1/wallets?dry_run=true&tag=a&tag=b", 202);
    const res = await m.transport().request({
      method: "post",
      path: "/api/v1/wallets",
      query: { dry_run: true, tag: ["a", "b"], skip: undefined },
      body: { name: "Treasury ✓" },
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual(OK);
    expect(res.text).toBe(JSON.stringify(OK));
    expect(res.requestId).toBe("req-1");
    const [sent] = m.seen;
    expect(sent.body).toBe('{"name":"Treasury ✓"}');
    expect(sent.headers["content-type"]).toBe("application/json");
    expect(sent.headers["ACCESS-API-KEY"]).toBe("key_1");
    const parts = {
      method: "POST",
      path: "/api/v1/wallets",
      timestamp: sent.headers["ACCESS-TIMESTAMP"],
      body: sent.body,
    };
    expect(verifySignature(SECRET, parts, sent.headers["ACCESS-SIGN"])).toBe(true);
    expect(res.request).toMatchObject({
      method: "POST",
      path: "/api/v1/wallets",
      url: `${ORIGIN}/api/v1/wallets?dry_run=true&tag=a&tag=b`,
    });
  });

  it("includes a base URL path prefix in the signed path", async () => {
    const m = mock();
    m.answer("GET", "/gateway/api/v1/networks", 200);
    await m.transport({ baseUrl: `${ORIGIN}/gateway/` }).request({ method: "GET", path: "/api/v1/networks" });
    const [sent] = m.seen;
    expect(
      verifySignature(
        SECRET,
        { method: "GET", path: "/gateway/api/v1/networks", timestamp: sent.headers["ACCESS-TIMESTAMP"], body: "" },
        sent.headers["ACCESS-SIGN"],
      ),
    ).toBe(true);
  });

  it("lets a caller send unsigned or tampered requests", async () => {
    const m = mock();
    m.answer("GET", "/api/v1/networks", 401);
    m.answer("GET", "/api/v1/networks", 401);
    await m.transport().request({ method: "GET", path: "/api/v1/networks", sign: false });
    await m.transport().request({
      method: "GET",
      path: "/api/v1/networks",
      timestamp: 1,
      headers: { "access-sign": "forged", "ACCESS-API-KEY": undefined },
    });
    expect(m.seen[0].headers["ACCESS-SIGN"]).toBeUndefined();
    expect(m.seen[1].headers["access-sign"]).toBe("forged");
    expect(m.seen[1].headers["ACCESS-SIGN"]).toBeUndefined();
    expect(m.seen[1].headers["ACCESS-API-KEY"]).toBeUndefined();
    expect(m.seen[1].headers["ACCESS-TIMESTAMP"]).toBe("1");
  });

  it("returns redirects as they are instead of following them", async () => {
    const m = mock();
    m.answer("GET", "/api/v1/wallets", 302, "", { location: "http://elsewhere.test/steal" });
    const res = await m.transport().request({ method: "GET", path: "/api/v1/wallets" });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("http://elsewhere.test/steal");
    expect(res.body).toBeUndefined();
  });

  it("works through an injected fetch, also without following redirects", async () => {
    const m = mock();
    m.answer("GET", "/api/v1/wallets/w_1", 200);
    m.answer("GET", "/api/v1/old", 301, "", { location: `${ORIGIN}/api/v1/wallets/w_1` });
    const transport = m.transport({ fetch: undiciFetch as unknown as FetchLike });
    expect((await transport.request({ method: "GET", path: "/api/v1/wallets/w_1" })).body).toEqual(OK);
    expect((await transport.request({ method: "GET", path: "/api/v1/old" })).status).toBe(301);
    expect(m.seen).toHaveLength(2);
  });

  it("refuses a response larger than maxResponseBytes", async () => {
    const m = mock();
    m.answer("GET", "/api/v1/wallets", 200, "x".repeat(2048));
    const error = await m
      .transport({ maxResponseBytes: 1024, retry: false })
      .request({ method: "GET", path: "/api/v1/wallets" })
      .catch((e) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error.kind).toBe("too_large");
    expect(error.message).toBe("response body exceeds 1024 bytes");
  });
});

describe("http-client: retries", () => {
  it("retries idempotent calls on 5xx and 429, re-signing each attempt with the same body", async () => {
    const m = mock();
    m.answer("PUT", "/api/v1/things/1", 503);
    m.answer("PUT", "/api/v1/things/1", 429);
    m.answer("PUT", "/api/v1/things/1", 200);
    const res = await m.transport().request({ method: "PUT", path: "/api/v1/things/1", body: { a: 1 } });
    expect(res.status).toBe(200);
    expect(res.attempts).toBe(3);
    expect(new Set(m.seen.map((s) => s.body))).toEqual(new Set(['{"a":1}']));
    for (const s of m.seen) {
      expect(
        verifySignature(
          SECRET,
          { method: "PUT", path: "/api/v1/things/1", timestamp: s.headers["ACCESS-TIMESTAMP"], body: s.body },
          s.headers["ACCESS-SIGN"],
        ),
      ).toBe(true);
    }
  });

  it("gives up after `retries` extra attempts and returns the last answer", async () => {
    const m = mock();
    for (let i = 0; i < 3; i++) m.answer("GET", "/api/v1/wallets", 500);
    m.answer("GET", "/api/v1/wallets", 200);
    const res = await m.transport().request({ method: "GET", path: "/api/v1/wallets" });
    expect(res.status).toBe(500);
    expect(res.attempts).toBe(3);
    expect(m.agent.pendingInterceptors()).toHaveLength(1);
  });

  it("does not retry a POST without an Idempotency-Key", async () => {
    const m = mock();
    m.answer("POST", "/api/v1/wallets", 503);
    m.answer("POST", "/api/v1/wallets", 201);
    const res = await m.transport().request({ method: "POST", path: "/api/v1/wallets", body: { name: "x" } });
    expect(res.status).toBe(503);
    expect(res.attempts).toBe(1);
    expect(m.seen).toHaveLength(1);
  });

  it("does not retry a POST after a network error either", async () => {
    const m = mock();
    m.answer("POST", "/api/v1/wallets", "error");
    m.answer("POST", "/api/v1/wallets", 201);
    const error = await m
      .transport()
      .request({ method: "POST", path: "/api/v1/wallets", body: {} })
      .catch((e) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error.kind).toBe("network");
    expect(error.attempts).toBe(1);
  });

  it("retries a POST that carries an Idempotency-Key, on network errors too", async () => {
    const m = mock();
    m.answer("POST", "/api/v1/wallets/w_1/withdrawals", "error");
    m.answer("POST", "/api/v1/wallets/w_1/withdrawals", 502);
    m.answer("POST", "/api/v1/wallets/w_1/withdrawals", 201);
    const res = await m.transport().request({
      method: "POST",
      path: "/api/v1/wallets/w_1/withdrawals",
      headers: { "Idempotency-Key": "idem-7" },
      body: { amount: "1" },
    });
    expect(res.status).toBe(201);
    expect(res.attempts).toBe(3);
    expect(m.seen.every((s) => s.headers["Idempotency-Key"] === "idem-7")).toBe(true);
  });

  it("does not retry 4xx answers, and honours retry: false and a custom retryOn", async () => {
    const m = mock();
    m.answer("GET", "/api/v1/a", 404);
    m.answer("GET", "/api/v1/b", 503);
    m.answer("GET", "/api/v1/c", 409);
    m.answer("GET", "/api/v1/c", 200);
    expect((await m.transport().request({ method: "GET", path: "/api/v1/a" })).attempts).toBe(1);
    expect((await m.transport({ retry: false }).request({ method: "GET", path: "/api/v1/b" })).attempts).toBe(1);
    const custom = m.transport({ retry: { ...FAST, retryOn: ({ status }) => status === 409 } });
    const res = await custom.request({ method: "GET", path: "/api/v1/c" });
    expect(res.status).toBe(200);
    expect(res.attempts).toBe(2);
  });

  it("decides idempotency by method, Idempotency-Key or explicit flag", () => {
    expect(isIdempotentRequest({ method: "get" })).toBe(true);
    expect(isIdempotentRequest({ method: "DELETE" })).toBe(true);
    expect(isIdempotentRequest({ method: "POST" })).toBe(false);
    expect(isIdempotentRequest({ method: "POST", headers: { "idempotency-key": "k" } })).toBe(true);
    expect(isIdempotentRequest({ method: "GET", idempotent: false })).toBe(false);
  });

  it("draws backoff delays with full jitter under an exponential, capped ceiling", () => {
    const policy = { minDelayMs: 100, maxDelayMs: 2000 };
    expect(backoffDelayMs(policy, 1, () => 0)).toBe(0);
    expect(backoffDelayMs(policy, 1, () => 0.999)).toBe(99);
    expect(backoffDelayMs(policy, 3, () => 0.999)).toBe(399);
    expect(backoffDelayMs(policy, 10, () => 0.999)).toBe(1998);
  });
});

describe("http-client: against a real socket", () => {
  let server: Server | undefined;
  afterEach(async () => {
    const running = server;
    server = undefined;
    if (running === undefined) return;
    running.closeAllConnections();
    await new Promise((resolve) => running.close(resolve));
  });

  async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
    server = createServer(handler);
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  }

  it("stops reading a chunked body that grows past the limit", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = "x".repeat(16 * 1024);
      const timer = setInterval(() => res.write(chunk), 1);
      res.on("close", () => clearInterval(timer));
    });
    const transport = createTransport({ baseUrl: url, maxResponseBytes: 64 * 1024, retry: false });
    const error = await transport.request({ method: "GET", path: "/big" }).catch((e) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error.kind).toBe("too_large");
  });

  it("times out a server that never answers, and says so", async () => {
    let hits = 0;
    const url = await serve(() => {
      hits++;
    });
    const transport = createTransport({ baseUrl: url, timeoutMs: 200, retry: { ...FAST, retries: 1 } });
    const error = await transport.request({ method: "GET", path: "/hang" }).catch((e) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error.kind).toBe("timeout");
    expect(error.message).toMatch(/timed out after 200 ms/);
    expect(error.attempts).toBe(2);
    expect(hits).toBe(2);
  });

  it("reports a refused connection as a network error", async () => {
    const url = await serve(() => {});
    const running = server!;
    server = undefined;
    await new Promise((resolve) => running.close(resolve));
    const error = await createTransport({ baseUrl: url, retry: false })
      .request({ method: "GET", path: "/" })
      .catch((e) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error.kind).toBe("network");
  });
});

describe("unwrapEnvelope", () => {
  const response = (status: number, body: unknown, requestId = "req-9") => ({
    status,
    headers: {},
    body,
    text: JSON.stringify(body),
    requestId,
    attempts: 1,
    request: { method: "GET", url: "", path: "", headers: {}, body: undefined },
  });

  it("returns the data of a success envelope", () => {
    expect(unwrapEnvelope(response(200, OK))).toEqual({ id: "w_1" });
    expect(unwrapEnvelope(response(201, { ...OK, data: null }), 201)).toBeNull();
  });

  it("raises ApiError with status, code, message and request id", () => {
    const error = (() => {
      try {
        unwrapEnvelope(response(404, { success: false, message: "wallet not found", code: 404, data: null }));
      } catch (e) {
        return e as ApiError;
      }
    })();
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 404, message: "wallet not found", requestId: "req-9" });
    expect(() => unwrapEnvelope(response(200, OK), 201)).toThrow(/unexpected HTTP status 200/);
    expect(() => unwrapEnvelope(response(502, "<html>bad gateway</html>"))).toThrow(/not an envelope/);
  });
});
