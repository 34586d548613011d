import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  toBase64 as bytesBase64,
  toHex as bytesHex,
  constantTimeEqualText,
  fromBase64,
  fromHex,
} from "../runtime/bytes.ts";
import {
  canonicalJson,
  type Ed25519Backend,
  generateWebhookKeyPair,
  publicKeyBase64,
  signWebhook,
  verifyWebhook,
  WEBHOOK_HEADERS,
  WEBHOOK_HMAC_HEADER,
  webhookCrypto,
  webhookHmac,
} from "../runtime/webhooks/signature.ts";

const hex = (s: string) => new Uint8Array(Buffer.from(s, "hex"));
const toHex = (b: Uint8Array) => Buffer.from(b).toString("hex");

// RFC 8032, section 7.1, TEST 1 and TEST 2.
const RFC8032 = [
  {
    secret: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
    public: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
    message: "",
    signature:
      "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
  },
  {
    secret: "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
    public: "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
    message: "72",
    signature:
      "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
  },
];

const backends: Ed25519Backend[] = [webhookCrypto.node, webhookCrypto.noble];
const NOW = 1_700_000_000;
const EVENT = {
  id: "evt_01",
  type: "wallet.created",
  created_at: "2024-01-01T00:00:00Z",
  workspace_id: "ws_1",
  data: { wallet_id: "w_1", name: "Treasury ✓", tags: ["b", "a"] },
};
const BODY = JSON.stringify(EVENT);

describe("Ed25519 backends", () => {
  for (const backend of backends) {
    it(`${backend.name}: RFC 8032 vectors (key derivation, signature, verification)`, () => {
      for (const v of RFC8032) {
        expect(toHex(backend.publicKey(hex(v.secret)))).toBe(v.public);
        expect(toHex(backend.sign(hex(v.message), hex(v.secret)))).toBe(v.signature);
        expect(backend.verify(hex(v.signature), hex(v.message), hex(v.public))).toBe(true);
        const flipped = hex(v.signature);
        flipped[0] ^= 1;
        expect(backend.verify(flipped, hex(v.message), hex(v.public))).toBe(false);
      }
    });

    it(`${backend.name}: malformed keys and signatures verify false instead of throwing`, () => {
      const v = RFC8032[0];
      expect(backend.verify(hex(v.signature).slice(1), hex(v.message), hex(v.public))).toBe(false);
      expect(backend.verify(hex(v.signature), hex(v.message), hex(v.public).slice(1))).toBe(false);
      expect(backend.verify(hex(v.signature), hex(v.message), new Uint8Array(32).fill(0xff))).toBe(false);
    });
  }

  it("node and noble produce identical signatures for random keys and messages", () => {
    for (let i = 0; i < 20; i++) {
      const { privateKey, publicKey } = generateWebhookKeyPair();
      const message = new Uint8Array(Buffer.from(`message ${i} ${Math.random()}`));
      const a = webhookCrypto.node.sign(message, privateKey);
      const b = webhookCrypto.noble.sign(message, privateKey);
      expect(toHex(a)).toBe(toHex(b));
      expect(toHex(webhookCrypto.noble.publicKey(privateKey))).toBe(toHex(publicKey));
      expect(webhookCrypto.noble.verify(a, message, publicKey)).toBe(true);
      expect(webhookCrypto.node.verify(b, message, publicKey)).toBe(true);
    }
  });
});

describe("canonicalJson", () => {
  it("sorts keys at every depth, keeps array order and writes no whitespace", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: "x" } })).toBe(
      '{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson([3, 1, 2])).toBe("[3,1,2]");
    expect(canonicalJson({ s: 'é\n"', n: null, t: true, f: -0.5 })).toBe('{"f":-0.5,"n":null,"s":"é\\n\\"","t":true}');
  });

  it("follows JSON.stringify for undefined members and toJSON", () => {
    expect(canonicalJson({ a: undefined, b: [undefined] })).toBe('{"b":[null]}');
    expect(canonicalJson({ at: new Date("2024-01-01T00:00:00Z") })).toBe('{"at":"2024-01-01T00:00:00.000Z"}');
  });

  it("refuses values with no single JSON form", () => {
    expect(() => canonicalJson({ x: Number.NaN })).toThrow(/no JSON form/);
    expect(() => canonicalJson([Infinity])).toThrow(/no JSON form/);
    expect(() => canonicalJson({ big: 1n })).toThrow(/no JSON form/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(/cyclic/);
  });
});

describe("webhook signatures", () => {
  const keys = generateWebhookKeyPair();

  it("publicKeyBase64 is the base64 of the raw 32-byte key", () => {
    expect(publicKeyBase64(hex(RFC8032[0].secret))).toBe(Buffer.from(hex(RFC8032[0].public)).toString("base64"));
    expect(publicKeyBase64(keys.privateKeyBase64)).toBe(keys.publicKeyBase64);
    expect(publicKeyBase64(toHex(keys.privateKey))).toBe(keys.publicKeyBase64);
    expect(Buffer.from(keys.publicKeyBase64, "base64")).toHaveLength(32);
  });

  for (const signer of backends) {
    for (const verifier of backends) {
      it(`standard-webhooks: signed with ${signer.name}, verified with ${verifier.name}`, () => {
        const headers = signWebhook({
          profile: "standard-webhooks",
          privateKey: keys.privateKey,
          id: EVENT.id,
          timestamp: NOW,
          body: BODY,
          backend: signer,
        });
        expect(headers["webhook-id"]).toBe(EVENT.id);
        expect(headers["webhook-timestamp"]).toBe(String(NOW));
        expect(headers["webhook-signature"]).toMatch(/^v1a,[A-Za-z0-9+/]{86}==$/);
        const result = verifyWebhook({
          publicKeyBase64: keys.publicKeyBase64,
          headers,
          body: BODY,
          now: NOW,
          backend: verifier,
        });
        expect(result).toEqual({ ok: true, profile: "standard-webhooks" });
      });

      it(`canonical-json: signed with ${signer.name}, verified with ${verifier.name}`, () => {
        const headers = signWebhook({
          profile: "canonical-json",
          privateKey: keys.privateKey,
          body: EVENT,
          backend: signer,
        });
        expect(headers["x-webhook-signature"]).toMatch(/^[0-9a-f]{128}$/);
        // Any serialization of the same event verifies: the signature covers its canonical form.
        const reordered = JSON.stringify(
          { data: EVENT.data, workspace_id: "ws_1", type: EVENT.type, created_at: EVENT.created_at, id: EVENT.id },
          null,
          2,
        );
        const result = verifyWebhook({
          publicKeyBase64: keys.publicKeyBase64,
          headers,
          body: reordered,
          backend: verifier,
        });
        expect(result).toEqual({ ok: true, profile: "canonical-json" });
      });
    }
  }

  it("standard-webhooks signs exactly `${id}.${timestamp}.${body}`", () => {
    const headers = signWebhook({
      profile: "standard-webhooks",
      privateKey: keys.privateKey,
      id: "evt_x",
      timestamp: NOW,
      body: "{}",
    });
    const signature = new Uint8Array(Buffer.from(headers["webhook-signature"].slice(4), "base64"));
    expect(webhookCrypto.noble.verify(signature, new Uint8Array(Buffer.from(`evt_x.${NOW}.{}`)), keys.publicKey)).toBe(
      true,
    );
  });

  it("rejects a tampered body, id or timestamp", () => {
    const headers = signWebhook({
      profile: "standard-webhooks",
      privateKey: keys.privateKey,
      id: EVENT.id,
      timestamp: NOW,
      body: BODY,
    });
    const check = (h: Record<string, string>, body = BODY) =>
      verifyWebhook({ publicKeyBase64: keys.publicKeyBase64, headers: h, body, now: NOW });
    expect(check(headers, BODY.replace("Treasury", "Treasurx"))).toEqual({
      ok: false,
      reason: "no_valid_signature",
      profile: "standard-webhooks",
    });
    expect(check({ ...headers, "webhook-id": "evt_02" }).ok).toBe(false);
    expect(check({ ...headers, "webhook-timestamp": String(NOW + 1) }).ok).toBe(false);
    const canonical = signWebhook({ profile: "canonical-json", privateKey: keys.privateKey, body: BODY });
    const tampered = verifyWebhook({
      publicKeyBase64: keys.publicKeyBase64,
      headers: canonical,
      body: BODY.replace("ws_1", "ws_2"),
    });
    expect(tampered).toEqual({ ok: false, reason: "no_valid_signature", profile: "canonical-json" });
  });

  it("rejects a signature by another key", () => {
    const other = generateWebhookKeyPair();
    const headers = signWebhook({
      profile: "standard-webhooks",
      privateKey: other.privateKey,
      id: EVENT.id,
      timestamp: NOW,
      body: BODY,
    });
    expect(verifyWebhook({ publicKeyBase64: keys.publicKeyBase64, headers, body: BODY, now: NOW })).toMatchObject({
      ok: false,
      reason: "no_valid_signature",
    });
  });

  it("enforces the timestamp window (default 300 s, inclusive) and its override", () => {
    const headers = signWebhook({
      profile: "standard-webhooks",
      privateKey: keys.privateKey,
      id: EVENT.id,
      timestamp: NOW,
      body: BODY,
    });
    const at = (now: number, toleranceSeconds?: number) =>
      verifyWebhook({ publicKeyBase64: keys.publicKeyBase64, headers, body: BODY, now, toleranceSeconds });
    expect(at(NOW + 300).ok).toBe(true);
    expect(at(NOW - 300).ok).toBe(true);
    expect(at(NOW + 301)).toMatchObject({ ok: false, reason: "timestamp_out_of_window" });
    expect(at(NOW - 301)).toMatchObject({ ok: false, reason: "timestamp_out_of_window" });
    expect(at(NOW + 3600, 7200).ok).toBe(true);
    expect(
      verifyWebhook({ publicKeyBase64: keys.publicKeyBase64, headers, body: BODY, now: new Date((NOW + 10) * 1000) })
        .ok,
    ).toBe(true);
    // Without `now` the real clock is used, and NOW is long past.
    expect(verifyWebhook({ publicKeyBase64: keys.publicKeyBase64, headers, body: BODY })).toMatchObject({
      reason: "timestamp_out_of_window",
    });
  });

  it("reports missing headers, bad timestamps and bad keys", () => {
    const headers = signWebhook({
      profile: "standard-webhooks",
      privateKey: keys.privateKey,
      id: EVENT.id,
      timestamp: NOW,
      body: BODY,
    });
    const check = (h: Record<string, string>, key = keys.publicKeyBase64) =>
      verifyWebhook({ publicKeyBase64: key, headers: h, body: BODY, now: NOW });
    expect(check({})).toEqual({ ok: false, reason: "missing_headers" });
    const { "webhook-id": _id, ...noId } = headers;
    expect(check(noId)).toMatchObject({ reason: "missing_headers" });
    expect(check({ ...headers, "webhook-timestamp": "1700000000.5" })).toMatchObject({ reason: "bad_timestamp" });
    expect(check({ ...headers, "webhook-timestamp": "-5" })).toMatchObject({ reason: "bad_timestamp" });
    expect(check(headers, "not base64!")).toMatchObject({ reason: "bad_public_key" });
    expect(check(headers, Buffer.alloc(31).toString("base64"))).toMatchObject({ reason: "bad_public_key" });
    expect(check({ ...headers, "webhook-signature": "v1,abc" })).toMatchObject({ reason: "no_valid_signature" });
    const canonical = signWebhook({ profile: "canonical-json", privateKey: keys.privateKey, body: BODY });
    expect(
      verifyWebhook({ publicKeyBase64: keys.publicKeyBase64, headers: canonical, body: "{not json" }),
    ).toMatchObject({ reason: "bad_body" });
  });

  it("accepts any valid entry among several space-separated signatures", () => {
    const headers = signWebhook({
      profile: "standard-webhooks",
      privateKey: keys.privateKey,
      id: EVENT.id,
      timestamp: NOW,
      body: BODY,
    });
    const rotated = signWebhook({
      profile: "standard-webhooks",
      privateKey: generateWebhookKeyPair().privateKey,
      id: EVENT.id,
      timestamp: NOW,
      body: BODY,
    });
    const both = {
      ...headers,
      "webhook-signature": `v1,c29tZWhtYWM= ${rotated["webhook-signature"]} ${headers["webhook-signature"]}`,
    };
    expect(verifyWebhook({ publicKeyBase64: keys.publicKeyBase64, headers: both, body: BODY, now: NOW }).ok).toBe(true);
  });

  it("reads headers case-insensitively from a Headers object, a record, or node's IncomingHttpHeaders", () => {
    const signed = signWebhook({
      profile: "standard-webhooks",
      privateKey: keys.privateKey,
      id: EVENT.id,
      timestamp: NOW,
      body: BODY,
    });
    const upper = Object.fromEntries(Object.entries(signed).map(([k, v]) => [k.toUpperCase(), v]));
    const fetchHeaders = new Headers(upper);
    const nodeHeaders = {
      "webhook-id": signed["webhook-id"],
      "webhook-timestamp": [signed["webhook-timestamp"]],
      "webhook-signature": signed["webhook-signature"],
    };
    for (const headers of [upper, fetchHeaders, nodeHeaders]) {
      expect(
        verifyWebhook({ publicKeyBase64: keys.publicKeyBase64, headers, body: Buffer.from(BODY), now: NOW }).ok,
      ).toBe(true);
    }
  });

  it("verifies with an explicit profile and refuses the other profile's headers", () => {
    const canonical = signWebhook({ profile: "canonical-json", privateKey: keys.privateKey, body: BODY });
    expect(
      verifyWebhook({
        profile: "standard-webhooks",
        publicKeyBase64: keys.publicKeyBase64,
        headers: canonical,
        body: BODY,
      }),
    ).toMatchObject({
      ok: false,
      reason: "missing_headers",
    });
  });

  it("refuses to sign standard-webhooks without an id or with a parsed body", () => {
    expect(() =>
      signWebhook({ profile: "standard-webhooks", privateKey: keys.privateKey, timestamp: NOW, body: BODY }),
    ).toThrow(/event id/);
    expect(() =>
      signWebhook({ profile: "standard-webhooks", privateKey: keys.privateKey, id: "evt", body: EVENT }),
    ).toThrow(/raw body/);
    expect(() => signWebhook({ profile: "standard-webhooks", privateKey: "short", id: "evt", body: BODY })).toThrow(
      /32 bytes/,
    );
  });
});

describe("the canonical profile's HMAC header (hmacSecret)", () => {
  const keys = generateWebhookKeyPair();
  const body = JSON.stringify(EVENT);
  const signed = signWebhook({ privateKey: keys.privateKey, body, profile: "canonical-json" });
  const check = (headers: Record<string, string>, hmacSecret?: string) =>
    verifyWebhook({ publicKeyBase64: keys.publicKeyBase64, headers, body, hmacSecret });

  it("is the real service's HMAC-SHA256 hex of the canonical JSON under the UTF-8 secret", () => {
    const expected = createHmac("sha256", Buffer.from("sekret ✓", "utf8")).update(canonicalJson(EVENT)).digest("hex");
    expect(webhookHmac("sekret ✓", body)).toBe(expected);
    expect(webhookHmac("sekret ✓", EVENT)).toBe(expected);
  });

  it("is checked only when a secret is given, and must then match", () => {
    const withMac = { ...signed, [WEBHOOK_HMAC_HEADER]: webhookHmac("sekret", body) };
    expect(check(signed)).toEqual({ ok: true, profile: "canonical-json" });
    expect(check(withMac, "sekret")).toEqual({ ok: true, profile: "canonical-json" });
    expect(check({ ...withMac, [WEBHOOK_HMAC_HEADER]: webhookHmac("sekret", body).toUpperCase() }, "sekret")).toEqual({
      ok: true,
      profile: "canonical-json",
    });
    expect(check(withMac, "other")).toEqual({ ok: false, reason: "no_valid_hmac", profile: "canonical-json" });
    expect(check({ ...withMac, [WEBHOOK_HMAC_HEADER]: webhookHmac("sekret", body).slice(2) }, "sekret")).toEqual({
      ok: false,
      reason: "no_valid_hmac",
      profile: "canonical-json",
    });
    expect(check(signed, "sekret")).toEqual({ ok: false, reason: "missing_headers", profile: "canonical-json" });
  });

  it("does not stand in for the Ed25519 signature", () => {
    const forged = {
      [WEBHOOK_HEADERS.canonicalSignature]: "00".repeat(64),
      [WEBHOOK_HMAC_HEADER]: webhookHmac("sekret", body),
    };
    expect(check(forged, "sekret")).toMatchObject({ ok: false, reason: "no_valid_signature" });
  });
});

describe("portable byte helpers", () => {
  it("encode and decode hex and base64 as Buffer does, and refuse what is neither", () => {
    for (let length = 0; length < 70; length++) {
      const bytes = new Uint8Array(length).map(() => Math.floor(Math.random() * 256));
      expect(bytesHex(bytes)).toBe(Buffer.from(bytes).toString("hex"));
      expect(bytesBase64(bytes)).toBe(Buffer.from(bytes).toString("base64"));
      expect(fromHex(Buffer.from(bytes).toString("hex").toUpperCase())).toEqual(bytes);
      expect(fromBase64(Buffer.from(bytes).toString("base64"))).toEqual(bytes);
      expect(fromBase64(Buffer.from(bytes).toString("base64").replace(/=+$/, ""))).toEqual(bytes);
    }
    expect(fromHex("abc")).toBeUndefined();
    expect(fromHex("zz")).toBeUndefined();
    expect(fromBase64("a-b_")).toBeUndefined();
    expect(fromBase64("abcde")).toBeUndefined();
  });

  it("compares text in constant time over the expected length", () => {
    expect(constantTimeEqualText("abcd", "abcd")).toBe(true);
    expect(constantTimeEqualText("abcd", "abce")).toBe(false);
    expect(constantTimeEqualText("abcd", "abc")).toBe(false);
    expect(constantTimeEqualText("abc", "abcd")).toBe(false);
    expect(constantTimeEqualText("", "")).toBe(true);
  });
});
