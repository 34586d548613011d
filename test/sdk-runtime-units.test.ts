// Pure pieces of the client runtime: Retry-After parsing, the retry decision, the error class of each
// status, the portable HMAC against node:crypto's, log redaction, and the UUID v4 fallback.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ApiError,
  AuthenticationError,
  apiErrorFor,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  retryAfterHeaderMs,
  UnprocessableEntityError,
} from "../runtime/errors.ts";
import { uuidV4 } from "../runtime/http/client-call.ts";
import { redactBody, redactHeaders } from "../runtime/http/client-log.ts";
import { computeSignature } from "../runtime/http/hmac.ts";
import { portableSignature, prepareSecret } from "../runtime/http/request-signing.ts";
import { DEFAULT_RETRY_POLICY, defaultRetryOn, nextDelayMs } from "../runtime/http/retry.ts";

describe("Retry-After", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  it("reads delta-seconds, an HTTP date and retry-after-ms", () => {
    expect(retryAfterHeaderMs({ "retry-after": "3" }, now)).toBe(3000);
    expect(retryAfterHeaderMs({ "retry-after": "Thu, 01 Jan 2026 00:00:07 GMT" }, now)).toBe(7000);
    expect(retryAfterHeaderMs({ "retry-after": "Wed, 31 Dec 2025 23:59:00 GMT" }, now)).toBe(0);
    expect(retryAfterHeaderMs({ "retry-after-ms": "250" }, now)).toBe(250);
    expect(retryAfterHeaderMs({ "retry-after": "soon" }, now)).toBeUndefined();
    expect(retryAfterHeaderMs({}, now)).toBeUndefined();
  });

  it("is honoured past the backoff ceiling, up to the cap; beyond it the retry stops", () => {
    expect(nextDelayMs(DEFAULT_RETRY_POLICY, 1, { "retry-after": "3" }, now)).toBe(3000);
    expect(nextDelayMs(DEFAULT_RETRY_POLICY, 1, { "retry-after": "60" }, now)).toBe(60_000);
    expect(nextDelayMs(DEFAULT_RETRY_POLICY, 1, { "retry-after": "61" }, now)).toBe("stop");
    expect(
      nextDelayMs(
        { ...DEFAULT_RETRY_POLICY, maxRetryAfterMs: 1000 },
        1,
        { "retry-after": "Thu, 01 Jan 2026 00:00:02 GMT" },
        now,
      ),
    ).toBe("stop");
    const backoff = nextDelayMs(DEFAULT_RETRY_POLICY, 2, {}, now) as number;
    expect(backoff).toBeGreaterThanOrEqual(0);
    expect(backoff).toBeLessThan(DEFAULT_RETRY_POLICY.minDelayMs * 2);
  });

  it("retries 408, 429 and 5xx, nothing else", () => {
    const retried = [400, 401, 403, 404, 408, 409, 413, 422, 429, 500, 502, 503, 504].filter((status) =>
      defaultRetryOn({ status, attempt: 1 }),
    );
    expect(retried).toEqual([408, 429, 500, 502, 503, 504]);
  });
});

describe("error classes", () => {
  it("maps each status to its subclass of ApiError", () => {
    const cases: [number, unknown][] = [
      [400, BadRequestError],
      [401, AuthenticationError],
      [403, PermissionDeniedError],
      [404, NotFoundError],
      [409, ConflictError],
      [422, UnprocessableEntityError],
      [429, RateLimitError],
      [500, InternalServerError],
      [503, InternalServerError],
      [413, ApiError],
    ];
    for (const [status, type] of cases) {
      const error = apiErrorFor(status, status, "m", { headers: { "retry-after": "2" } });
      expect(error).toBeInstanceOf(type as typeof ApiError);
      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(status);
      expect(error.headers["retry-after"]).toBe("2");
    }
    expect(apiErrorFor(413, 413, "m")).not.toBeInstanceOf(BadRequestError);
    expect((apiErrorFor(429, 429, "m", { headers: { "retry-after": "2" } }) as RateLimitError).retryAfterMs).toBe(2000);
  });
});

describe("portable HMAC", () => {
  it("signs exactly like node:crypto, for text and bytes, prepared or not, node:crypto or Web Crypto", async () => {
    await fc.assert(
      // Web Crypto refuses an empty HMAC key; the transport refuses an empty apiSecret before that.
      fc.asyncProperty(
        fc.string({ minLength: 1 }),
        fc.constantFrom("GET", "post", "DELETE"),
        fc.string(),
        fc.oneof(fc.string(), fc.uint8Array()),
        fc.nat(),
        async (secret, method, path, body, timestamp) => {
          const parts = { method, path: `/api/v1/${path}`, timestamp, body };
          const expected = computeSignature(secret, parts);
          expect(await portableSignature(secret, parts)).toBe(expected);
          expect(await portableSignature(prepareSecret(secret), parts)).toBe(expected);
          expect(await portableSignature(prepareSecret(secret, false), parts)).toBe(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("log redaction", () => {
  it("hides authenticating headers and members named like secrets", () => {
    expect(redactHeaders({ "ACCESS-SIGN": "x", "access-api-key": "k", accept: "a" })).toEqual({
      "ACCESS-SIGN": "[redacted]",
      "access-api-key": "[redacted]",
      accept: "a",
    });
    expect(redactBody(JSON.stringify({ data: { id: "1", secret: "s", nested: [{ private_key: "p" }] } }))).toEqual({
      data: { id: "1", secret: "[redacted]", nested: [{ private_key: "[redacted]" }] },
    });
    expect(redactBody("not json")).toBe("[8 characters, not JSON]");
  });
});

describe("uuidV4", () => {
  it("gives version 4 UUIDs, also without crypto.randomUUID", () => {
    const pattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(uuidV4()).toMatch(pattern);
    const original = globalThis.crypto.randomUUID;
    try {
      Object.defineProperty(globalThis.crypto, "randomUUID", { value: undefined, configurable: true });
      const ids = new Set(Array.from({ length: 50 }, () => uuidV4()));
      expect(ids.size).toBe(50);
      for (const id of ids) expect(id).toMatch(pattern);
    } finally {
      Object.defineProperty(globalThis.crypto, "randomUUID", { value: original, configurable: true });
    }
  });
});
