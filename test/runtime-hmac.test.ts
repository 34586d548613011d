import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { describe, expect, it } from "vitest";
import {
  computeSignature,
  constantTimeEqual,
  HMAC_WINDOW_SECONDS,
  isWithinWindow,
  parseTimestamp,
  signRequest,
  stringToSign,
  verifySignature,
} from "../runtime/http/hmac.ts";

const SECRET = "test-secret-0123456789";
const POST = { method: "post", path: "/api/v1/wallets", timestamp: "1700000000", body: '{"name":"treasury"}' };

/** The scheme computed independently: base64(lowercase_hex(HMAC-SHA256(utf8(secret), message))). */
function independentSign(secret: string, message: string): string {
  const hex = bytesToHex(hmac(sha256, utf8ToBytes(secret), utf8ToBytes(message)));
  return Buffer.from(hex, "utf8").toString("base64");
}

describe("runtime/hmac", () => {
  it("builds the string to sign with the method upper-cased and the body verbatim", () => {
    expect(stringToSign(POST)).toBe('method=POST&path=/api/v1/wallets&timestamp=1700000000&body={"name":"treasury"}');
    expect(stringToSign({ method: "GET", path: "/api/v1/networks", timestamp: 1 })).toBe(
      "method=GET&path=/api/v1/networks&timestamp=1&body=",
    );
  });

  it("matches known-answer vectors (computed with Python's hmac module)", () => {
    expect(computeSignature(SECRET, POST)).toBe(
      "NjVlMzIwZDJhZGYyZmFhYjg5MjU1NmUzNTRiNTIzODAzZTA3YzNjZTlmM2ZlMDIyYzk2YzUwZmFlN2ZmOWYyYw==",
    );
    expect(
      computeSignature(SECRET, { method: "GET", path: "/api/v1/wallets/w_1/overview", timestamp: "1700000000" }),
    ).toBe("MmRjYTdkYmNmNjc5NzJjMzk1Nzg2Njg0NjRjY2I3MGMxNDdiNWM3ZjNkY2FjZDRlOTU1MDU4NTcyZWQ5ZjRmYQ==");
  });

  it("agrees with an independent @noble/hashes computation, also for non-ASCII bodies and secrets", () => {
    const parts = {
      method: "POST",
      path: "/api/v1/wallets/w_9/sign-message",
      timestamp: "1712345678",
      body: '{"message":"héllo ✓ 🚀"}',
    };
    for (const secret of [SECRET, "sécret-🔑", ""]) {
      expect(computeSignature(secret, parts)).toBe(independentSign(secret, stringToSign(parts)));
    }
  });

  it("signs body bytes exactly like the equivalent UTF-8 string", () => {
    const body = '{"note":"naïve"}';
    expect(computeSignature(SECRET, { ...POST, body: Buffer.from(body, "utf8") })).toBe(
      computeSignature(SECRET, { ...POST, body }),
    );
  });

  it("verifies the right signature and rejects every changed part", () => {
    const signature = computeSignature(SECRET, POST);
    expect(verifySignature(SECRET, POST, signature)).toBe(true);
    expect(verifySignature(SECRET, { ...POST, method: "PUT" }, signature)).toBe(false);
    expect(verifySignature(SECRET, { ...POST, path: "/api/v1/wallets/" }, signature)).toBe(false);
    expect(verifySignature(SECRET, { ...POST, body: '{"name":"treasurY"}' }, signature)).toBe(false);
    expect(verifySignature(SECRET, { ...POST, timestamp: "1700000001" }, signature)).toBe(false);
    expect(verifySignature("other-secret", POST, signature)).toBe(false);
    expect(verifySignature(SECRET, POST, signature.slice(0, -4))).toBe(false);
    expect(verifySignature(SECRET, POST, "")).toBe(false);
  });

  it("signRequest produces the three headers and leaves the query out of the signed path", () => {
    const headers = signRequest({
      apiKey: "key_1",
      apiSecret: SECRET,
      method: "GET",
      path: "/api/v1/assets?network_id=eth",
      timestamp: 1700000000,
    });
    expect(Object.keys(headers).sort()).toEqual(["ACCESS-API-KEY", "ACCESS-SIGN", "ACCESS-TIMESTAMP"]);
    expect(headers["ACCESS-API-KEY"]).toBe("key_1");
    expect(headers["ACCESS-TIMESTAMP"]).toBe("1700000000");
    expect(headers["ACCESS-SIGN"]).toBe(
      computeSignature(SECRET, { method: "GET", path: "/api/v1/assets", timestamp: "1700000000" }),
    );
  });

  it("signRequest defaults the timestamp to now, in seconds", () => {
    const before = Math.floor(Date.now() / 1000);
    const ts = Number(signRequest({ apiKey: "k", apiSecret: "s", method: "GET", path: "/" })["ACCESS-TIMESTAMP"]);
    expect(ts).toBeGreaterThanOrEqual(before);
    expect(ts).toBeLessThanOrEqual(before + 2);
  });

  it("parses only plain decimal timestamps", () => {
    expect(parseTimestamp("1700000000")).toBe(1700000000);
    expect(parseTimestamp("0")).toBe(0);
    for (const bad of [
      "",
      "-1",
      "+1",
      "1.5",
      "1e9",
      " 1",
      "1 ",
      "0x10",
      "１２",
      "12345678901234567",
      undefined,
      null,
    ]) {
      expect(parseTimestamp(bad as string)).toBeUndefined();
    }
  });

  it("accepts timestamps within ±300 s inclusive", () => {
    const now = 1_700_000_000;
    expect(HMAC_WINDOW_SECONDS).toBe(300);
    expect(isWithinWindow(now - 300, now)).toBe(true);
    expect(isWithinWindow(now + 300, now)).toBe(true);
    expect(isWithinWindow(now - 301, now)).toBe(false);
    expect(isWithinWindow(now + 301, now)).toBe(false);
    expect(isWithinWindow(now * 1000, now)).toBe(false); // milliseconds sent by mistake
  });

  it("compares strings of different lengths without throwing", () => {
    expect(constantTimeEqual("abc", "abc")).toBe(true);
    expect(constantTimeEqual("abc", "abd")).toBe(false);
    expect(constantTimeEqual("abc", "abcd")).toBe(false);
    expect(constantTimeEqual("abc", "")).toBe(false);
  });
});
