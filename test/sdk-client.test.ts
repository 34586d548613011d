// The generated client against a local server that scripts statuses and headers: per-status errors,
// .withResponse(), Retry-After in both forms, idempotency keys kept across retries, response validation,
// transport errors, the deadline, middleware and the redacting logger.

import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import {
  AbortError,
  ApiError,
  type ClientOptions,
  ConnectionError,
  CustodialWalletServiceClient,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  ResponseValidationError,
  TimeoutError,
} from "../generated/client.ts";
import { verifySignature } from "../runtime/http/hmac.ts";

const SECRET = "s3cr3t-never-shown";
const spec = parse(readFileSync(new URL("../spec/openapi.yaml", import.meta.url), "utf8"));
const example = (name: string) => spec.components.examples[name].value;
const WALLET = example("WalletResponse");
const WITHDRAWAL_CREATED = example("WithdrawalCreatedResponse");
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  at: number;
}
interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Never answer (for timeouts). */
  hang?: boolean;
}

let server: Server;
let baseUrl: string;
const seen: Seen[] = [];
let script: Reply[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      });
      const reply = script.shift() ?? {
        status: 500,
        body: { success: false, message: "script ran out", code: 500, data: null },
      };
      if (reply.hang) return;
      const text = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body ?? null);
      res.writeHead(reply.status, {
        "content-type": "application/json",
        "x-request-id": `req-${seen.length}`,
        ...reply.headers,
      });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function client(options: Partial<ClientOptions> = {}) {
  seen.length = 0;
  return new CustodialWalletServiceClient({
    baseUrl,
    apiKey: "key_1",
    apiSecret: SECRET,
    retry: { minDelayMs: 1, maxDelayMs: 5 },
    logLevel: "off",
    ...options,
  });
}
const errorBody = (code: number, message: string) => ({ success: false, message, code, data: null });
const params = { wallet_id: "3f1c2a9e-7b4d-4e0a-9c61-5d2b8f0e4a17" };

describe("generated client: results", () => {
  it("resolves to the data, and .withResponse() adds status, headers, request id and attempts", async () => {
    const c = client();
    script = [
      { status: 200, body: WALLET, headers: { "x-custom": "yes" } },
      { status: 200, body: WALLET },
    ];
    const data = await c.getWallet({ params });
    expect(data).toEqual(WALLET.data);
    const { data: again, response } = await c.getWallet({ params }).withResponse();
    expect(again).toEqual(WALLET.data);
    expect(response).toMatchObject({
      status: 200,
      requestId: "req-2",
      attempts: 1,
      url: `${baseUrl}/api/v1/wallets/${params.wallet_id}`,
    });
    expect(response.headers["content-type"]).toBe("application/json");
    expect(seen).toHaveLength(2);
  });

  it("signs every request with the HMAC the server checks", async () => {
    const c = client();
    script = [{ status: 200, body: WALLET }];
    await c.getWallet({ params });
    const [req] = seen;
    const ok = verifySignature(
      SECRET,
      { method: "GET", path: req.url, timestamp: String(req.headers["access-timestamp"]), body: "" },
      String(req.headers["access-sign"]),
    );
    expect(ok).toBe(true);
  });
});

describe("generated client: errors", () => {
  it("raises NotFoundError for a 404, with headers, code, message, request id and the typed envelope", async () => {
    const c = client();
    script = [{ status: 404, body: errorBody(404, "wallet not found"), headers: { "x-trace": "t-1" } }];
    const error = await c.getWallet({ params }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toBeInstanceOf(ApiError);
    const e = error as NotFoundError;
    expect(e.name).toBe("NotFoundError");
    expect(e).toMatchObject({ status: 404, code: 404, message: "wallet not found", requestId: "req-1" });
    expect(e.headers["x-trace"]).toBe("t-1");
    expect(e.error).toEqual(errorBody(404, "wallet not found"));
  });

  it("raises ResponseValidationError with the schema issues and the raw body when the answer breaks the schema", async () => {
    const c = client();
    const broken = { ...WALLET, data: { ...WALLET.data, id: 42 } };
    script = [{ status: 200, body: broken }];
    const error = (await c.getWallet({ params }).catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.code).toBe("invalid_response");
    expect(error.issues.length).toBeGreaterThan(0);
    expect(error.issues[0].path).toEqual(["id"]);
    expect(error.rawBody).toBe(JSON.stringify(broken));
  });

  it("raises ConnectionError, TimeoutError and AbortError when no answer comes", async () => {
    const refused = new CustodialWalletServiceClient({
      baseUrl: "http://127.0.0.1:9",
      apiKey: "k",
      apiSecret: SECRET,
      retry: false,
      logLevel: "off",
    });
    expect(await refused.getWallet({ params }).catch((e: unknown) => e)).toBeInstanceOf(ConnectionError);
    const c = client({ retry: false });
    script = [{ status: 200, hang: true }];
    const timedOut = await c.getWallet({ params }, { timeoutMs: 100 }).catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(TimeoutError);
    script = [{ status: 200, hang: true }];
    const controller = new AbortController();
    const pending = c.getWallet({ params }, { signal: controller.signal }).catch((e: unknown) => e);
    setTimeout(() => controller.abort(), 20);
    expect(await pending).toBeInstanceOf(AbortError);
  });

  it("stops at the deadline over all attempts", async () => {
    const c = client({ retry: { minDelayMs: 1, maxDelayMs: 5, retries: 5 } });
    script = [
      { status: 200, hang: true },
      { status: 200, hang: true },
      { status: 200, hang: true },
    ];
    const error = (await c
      .getWallet({ params }, { timeoutMs: 10_000, deadlineMs: 150 })
      .catch((e: unknown) => e)) as TimeoutError;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toMatch(/deadline of 150 ms/);
    script = [];
  });
});

describe("generated client: retries", () => {
  it("waits until the HTTP date a 429 names, then succeeds", async () => {
    const c = client();
    const retryAt = Math.ceil((Date.now() + 1000) / 1000) * 1000;
    script = [
      { status: 429, body: errorBody(429, "slow down"), headers: { "retry-after": new Date(retryAt).toUTCString() } },
      { status: 200, body: WALLET },
    ];
    const { response } = await c.getWallet({ params }).withResponse();
    expect(response.attempts).toBe(2);
    expect(seen).toHaveLength(2);
    // The retry never left before the date the server asked for.
    expect(seen[1].at).toBeGreaterThanOrEqual(retryAt);
  });

  it("raises RateLimitError with the asked wait when Retry-After passes the cap, without waiting", async () => {
    const c = client({ retry: { minDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 60_000 } });
    script = [{ status: 429, body: errorBody(429, "slow down"), headers: { "retry-after": "120" } }];
    const error = (await c.getWallet({ params }).catch((e: unknown) => e)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterMs).toBe(120_000);
    expect(seen).toHaveLength(1);
  });

  it("retries a 503 on a POST that declares an idempotency key, with the same generated UUID v4", async () => {
    const c = client();
    script = [
      { status: 503, body: errorBody(503, "busy"), headers: { "retry-after": "0" } },
      { status: 201, body: WITHDRAWAL_CREATED },
    ];
    const body = {
      asset_id: "0b9e4f7c-2d61-4a83-b5c9-7e1f3a6d8c20",
      amount: "0.5",
      recipient_address: "0x71c7656ec7ab88b098defb751b7401b5f6d8976f",
    };
    const { data, response } = await c.createWithdrawal({ params, body }).withResponse();
    expect(data).toEqual(WITHDRAWAL_CREATED.data);
    expect(response.attempts).toBe(2);
    const keys = seen.map((s) => s.headers["idempotency-key"]);
    expect(keys[0]).toMatch(UUID_V4);
    expect(keys[1]).toBe(keys[0]);
    // A new call gets a new key; a caller's key is sent as given.
    script = [
      { status: 201, body: WITHDRAWAL_CREATED },
      { status: 201, body: WITHDRAWAL_CREATED },
    ];
    await c.createWithdrawal({ params, body });
    await c.createWithdrawal({ params, body }, { idempotencyKey: "order-7" });
    expect(seen[2].headers["idempotency-key"]).toMatch(UUID_V4);
    expect(seen[2].headers["idempotency-key"]).not.toBe(keys[0]);
    expect(seen[3].headers["idempotency-key"]).toBe("order-7");
  });

  it("does not retry a POST without an idempotency key, and names the 5xx", async () => {
    const c = client();
    script = [{ status: 503, body: errorBody(503, "busy") }];
    const error = await c.createWallet({ body: { name: "ops" } } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(seen).toHaveLength(1);
  });

  it("honours maxRetries per client and per call", async () => {
    const c = client({ maxRetries: 0 });
    script = [{ status: 502, body: errorBody(502, "bad gateway") }];
    expect(await c.getWallet({ params }).catch((e: unknown) => e)).toBeInstanceOf(InternalServerError);
    expect(seen).toHaveLength(1);
    seen.length = 0;
    script = [
      { status: 502, body: errorBody(502, "x") },
      { status: 502, body: errorBody(502, "x") },
      { status: 200, body: WALLET },
    ];
    expect(await c.getWallet({ params }, { maxRetries: 2 })).toEqual(WALLET.data);
    expect(seen).toHaveLength(3);
  });
});

describe("generated client: middleware and logs", () => {
  it("runs middleware around each attempt, which may add headers", async () => {
    const order: string[] = [];
    const c = client({
      middleware: [
        async (req, next) => {
          order.push(`outer ${req.operationId} ${req.attempt}`);
          req.headers["x-tenant"] = "acme";
          const res = await next(req);
          order.push(`outer saw ${res.status}`);
          return res;
        },
        async (req, next) => {
          order.push("inner");
          return next(req);
        },
      ],
    });
    script = [{ status: 200, body: WALLET }];
    await c.getWallet({ params });
    expect(order).toEqual(["outer getWallet 1", "inner", "outer saw 200"]);
    expect(seen[0].headers["x-tenant"]).toBe("acme");
  });

  it("logs every attempt at debug without the signature, the key or the secret", async () => {
    const lines: string[] = [];
    const record = (m: string, f?: Record<string, unknown>) => lines.push(`${m} ${JSON.stringify(f ?? {})}`);
    const c = client({
      logLevel: "debug",
      logBodies: true,
      logger: { debug: record, info: record, warn: record, error: record },
    });
    script = [{ status: 201, body: { ...WITHDRAWAL_CREATED }, headers: { "set-cookie": "session=abc" } }];
    await c.createWithdrawal(
      { params, body: { asset_id: "a", amount: "1", recipient_address: "0xabc", api_secret: SECRET } as never },
      { validateResponse: false },
    );
    const text = lines.join("\n");
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(text).toContain("[redacted]");
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(String(seen[0].headers["access-sign"]));
    expect(text).not.toContain("key_1");
    expect(text).not.toContain("session=abc");
  });

  it("names an empty apiSecret in one line", () => {
    expect(() => new CustodialWalletServiceClient({ baseUrl, apiKey: "k", apiSecret: "" })).toThrow(
      /^apiSecret is empty/,
    );
  });

  it("reads the level from CUSTODY_LOG_LEVEL and names a wrong one", () => {
    // Undone before the next test and at the end of the file (vitest.config.ts, test/support/leftovers.ts).
    vi.stubEnv("CUSTODY_LOG_LEVEL", "loud");
    expect(() => new CustodialWalletServiceClient({ baseUrl, apiKey: "k", apiSecret: "s" })).toThrow(
      /CUSTODY_LOG_LEVEL='loud' is not one of off, error, warn, info, debug/,
    );
  });
});
