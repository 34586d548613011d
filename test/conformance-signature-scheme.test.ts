// The signature schemes certify finds at seed level (seed 6 fixes neither the header nor the signed
// content): each row signs one delivery the way some deployment might, and the search must name the
// scheme, verify it, and refuse the same delivery with a changed body or under another key.
import { generateKeyPairSync, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ed25519PublicKey, findSignatureScheme } from "../conformance/checks/webhooks/signature-scheme.ts";
import { canonicalJson } from "../runtime/webhooks/signature.ts";

const { privateKey, publicKey } = generateKeyPairSync("ed25519");
const spki = publicKey.export({ type: "spki", format: "der" });
const raw = new Uint8Array(spki.subarray(12));
const other = new Uint8Array(
  generateKeyPairSync("ed25519").publicKey.export({ type: "spki", format: "der" }).subarray(12),
);
const body = JSON.stringify({ z: 1, id: "evt_1", type: "wallet.created", data: { wallet_id: "w1" } });
const t = "1795714709";
const sig = (content: string) => sign(null, Buffer.from(content), privateKey);

const ROWS: Array<{ name: string; headers: Record<string, string>; found: string }> = [
  {
    name: "raw body, hex",
    headers: { "x-signature": sig(body).toString("hex") },
    found: "Ed25519 over the raw body, signature in x-signature",
  },
  {
    name: "canonical JSON, base64",
    headers: { "x-sig": sig(canonicalJson(JSON.parse(body))).toString("base64") },
    found: "Ed25519 over the body's canonical JSON, signature in x-sig",
  },
  {
    name: "t.body in a k=v list",
    headers: { "x-cw-signature": `t=${t},ed25519=${sig(`${t}.${body}`).toString("base64")}` },
    found: `Ed25519 over "{t}.{body}", t from x-cw-signature "t", signature in x-cw-signature "ed25519"`,
  },
  {
    name: "id.t.body, base64url, own headers",
    headers: { "x-event-id": "evt_1", "x-ts": t, "x-sig": sig(`evt_1.${t}.${body}`).toString("base64url") },
    found: `Ed25519 over "{id}.{t}.{body}", id from x-event-id, t from x-ts, signature in x-sig`,
  },
  {
    name: "detached JWS",
    headers: { "x-jws-signature": jws() },
    found: "Ed25519 detached JWS over the body, in x-jws-signature",
  },
];

function jws(): string {
  const header = Buffer.from(JSON.stringify({ alg: "EdDSA", b64: true })).toString("base64url");
  return `${header}..${sig(`${header}.${Buffer.from(body).toString("base64url")}`).toString("base64url")}`;
}

describe("findSignatureScheme at seed level", () => {
  it.each(ROWS)("finds $name", ({ headers, found }) => {
    const result = findSignatureScheme(raw, { headers, body }, { search: true });
    expect(result.ok && result.scheme.description).toBe(found);
    if (!result.ok) return;
    expect(result.scheme.verifies(body)).toBe(true);
    expect(result.scheme.verifies(body.replace("w1", "w2"))).toBe(false);
  });

  it.each(ROWS)("refuses $name under another key, saying a signature was seen", ({ headers }) => {
    const result = findSignatureScheme(other, { headers, body }, { search: true });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.signatureSeen).toBe(true);
  });

  it("does not search beyond custody's profiles at full level, nor when a profile is required", () => {
    const { headers } = ROWS[0];
    expect(findSignatureScheme(raw, { headers, body }, { search: false }).ok).toBe(false);
    expect(findSignatureScheme(raw, { headers, body }, { search: true, required: "standard-webhooks" }).ok).toBe(false);
  });

  it("says when no header holds a 64-byte signature", () => {
    const result = findSignatureScheme(
      raw,
      { headers: { "x-event-id": "evt_1", "content-type": "application/json" }, body },
      { search: true },
    );
    expect(result).toMatchObject({ ok: false, signatureSeen: false });
    if (!result.ok) expect(result.reason).toMatch(/^no header carries a 64-byte signature/);
  });
});

describe("ed25519PublicKey", () => {
  it("takes 32 raw bytes always and the SPKI DER form only when allowed (seed level)", () => {
    expect(ed25519PublicKey(Buffer.from(raw).toString("base64"), false)).toEqual(raw);
    expect(ed25519PublicKey(spki.toString("base64"), true)).toEqual(raw);
    expect(ed25519PublicKey(spki.toString("base64"), false)).toBeUndefined();
    expect(ed25519PublicKey(Buffer.alloc(44, 1).toString("base64"), true)).toBeUndefined();
    expect(ed25519PublicKey("not base64!", true)).toBeUndefined();
  });
});
