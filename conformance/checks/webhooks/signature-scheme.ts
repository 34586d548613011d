// How a delivery is signed, found rather than assumed. The seed says only that deliveries are signed
// and verify with the Ed25519 key of operation 8 ("Header name and exact signed content of a delivery:
// not shown", §6), so at seed level certify cannot require one of custody's two profiles: it tries
// them, then looks in every header for a 64-byte signature over what deployments commonly sign (the
// body, its canonical JSON, `t.body`, `id.t.body`, a detached JWS). A signature that verifies with the
// published key over content holding the whole body proves the delivery signed; the tampered-body
// check then re-verifies with the same scheme. Nothing verifying is not called a seed break when a
// signature is there: certify says what it tried and the run is incomplete, not failed.
import { createPublicKey, type KeyObject, verify as verifySignature } from "node:crypto";
import { canonicalJson, verifyWebhook, type WebhookProfile } from "../../../runtime/webhooks/signature.ts";
import type { ReceivedDelivery } from "../../transport/receiver.ts";

/** The DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410): what `openssl pkey -pubout` writes. */
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

type Headers = ReceivedDelivery["headers"];

export interface SignatureScheme {
  /** What signs what, for the report: a profile name or the header and content found. */
  description: string;
  profile?: WebhookProfile;
  /** Whether this delivery's signature, in this scheme, verifies over `body` (and `headers`). */
  verifies(body: string, headers?: Headers): boolean;
}

export type SchemeSearch =
  | { ok: true; scheme: SignatureScheme }
  | { ok: false; reason: string; profile?: WebhookProfile; signatureSeen: boolean };

/**
 * Operation 8's key as its 32 raw bytes. The seed says "base64-encoded Ed25519 public key" and no
 * more: raw 32 bytes is the contract's assumption, base64 of the SPKI DER form is as much the seed's
 * words, so `allowSpki` takes it at seed level.
 */
export function ed25519PublicKey(base64: string, allowSpki: boolean): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64.trim())) return undefined;
  const bytes = Buffer.from(base64.trim(), "base64");
  if (bytes.length === 32) return new Uint8Array(bytes);
  if (allowSpki && bytes.length === 44 && bytes.subarray(0, 12).equals(SPKI_PREFIX))
    return new Uint8Array(bytes.subarray(12));
  return undefined;
}

/**
 * The scheme this delivery's signature verifies in. `required` (from --webhook-profile) admits that
 * profile only; `search` (seed level) looks beyond custody's profiles when they do not verify.
 */
export function findSignatureScheme(
  key: Uint8Array,
  delivery: Pick<ReceivedDelivery, "headers" | "body">,
  options: { required?: WebhookProfile; search: boolean },
): SchemeSearch {
  const publicKeyBase64 = Buffer.from(key).toString("base64");
  const profiled = verifyWebhook({
    publicKeyBase64,
    headers: delivery.headers,
    body: delivery.body,
    profile: options.required,
  });
  if (profiled.ok) {
    const profile = profiled.profile;
    return {
      ok: true,
      scheme: {
        description: profile,
        profile,
        verifies: (body, headers = delivery.headers) => verifyWebhook({ publicKeyBase64, headers, body, profile }).ok,
      },
    };
  }
  if (options.required || !options.search)
    return { ok: false, reason: profiled.reason, profile: profiled.profile, signatureSeen: true };
  const seen = signatureCandidates(delivery.headers);
  const found = searchScheme(key, delivery, seen);
  if (found) return { ok: true, scheme: found };
  const reason =
    seen.length === 0
      ? `no header carries a 64-byte signature (base64, base64url or hex)${profiled.profile ? `; as ${profiled.profile}: ${profiled.reason}` : ""}`
      : `the 64-byte signature${seen.length > 1 ? "s" : ""} in ${[...new Set(seen.map((s) => s.header))].join(", ")} verif${seen.length > 1 ? "y" : "ies"} with the published key over none of: custody's profiles (canonical-json, standard-webhooks), the raw body, its canonical JSON, "{t}.{body}", "{t}{body}", "{id}.{t}.{body}", a detached JWS`;
  return { ok: false, reason, profile: profiled.profile, signatureSeen: seen.length > 0 };
}

interface Candidate {
  header: string;
  /** The parameter of a `k=v` list the signature was in, when it was one. */
  param?: string;
  signature: Buffer;
  /** For a detached JWS (`header..signature`): its protected header, part of what is signed. */
  jwsHeader?: string;
}

/** Headers that never hold a signature. */
const NOT_SIGNATURES = new Set([
  "content-type",
  "content-length",
  "host",
  "user-agent",
  "connection",
  "accept",
  "accept-encoding",
  "date",
  "transfer-encoding",
  "keep-alive",
]);

function headerEntries(headers: Headers): Array<[string, string]> {
  const entries: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(headers)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value])
      entries.push([name.toLowerCase(), v]);
  }
  return entries;
}

/** The parts of a header value: itself, its comma/space/semicolon pieces, and the values of `k=v` or `k,v` pairs. */
function parts(value: string): Array<{ param?: string; text: string }> {
  const out: Array<{ param?: string; text: string }> = [{ text: value.trim() }];
  for (const piece of value.split(/[\s;,]+/).filter(Boolean)) {
    out.push({ text: piece });
    const eq = piece.indexOf("=");
    if (eq > 0) out.push({ param: piece.slice(0, eq), text: piece.slice(eq + 1) });
  }
  // Standard Webhooks style "v1a,<sig>": the comma separates a version from the value.
  for (const piece of value.split(/\s+/).filter(Boolean)) {
    const comma = piece.indexOf(",");
    if (comma > 0) out.push({ param: piece.slice(0, comma), text: piece.slice(comma + 1) });
  }
  return out;
}

function decode64(text: string): Buffer | undefined {
  if (/^[0-9a-fA-F]{128}$/.test(text)) return Buffer.from(text, "hex");
  if (/^[A-Za-z0-9+/]{86}(==)?$/.test(text)) return Buffer.from(text, "base64");
  if (/^[A-Za-z0-9_-]{86}$/.test(text)) return Buffer.from(text, "base64url");
  return undefined;
}

function signatureCandidates(headers: Headers): Candidate[] {
  const found: Candidate[] = [];
  const seen = new Set<string>();
  for (const [header, value] of headerEntries(headers)) {
    if (NOT_SIGNATURES.has(header)) continue;
    for (const { param, text } of parts(value)) {
      const jws = /^([A-Za-z0-9_-]+)\.\.([A-Za-z0-9_-]{86})$/.exec(text);
      const signature = jws ? Buffer.from(jws[2], "base64url") : decode64(text);
      if (signature?.length !== 64) continue;
      const id = `${header}|${signature.toString("hex")}|${jws?.[1] ?? ""}`;
      if (seen.has(id)) continue;
      seen.add(id);
      found.push({ header, param, signature, jwsHeader: jws?.[1] });
    }
  }
  return found;
}

/** Values a signed content may embed: unix timestamps (s or ms) and ids from headers or their parameters. */
function embeddedValues(headers: Headers): {
  timestamps: Array<{ from: string; value: string }>;
  ids: Array<{ from: string; value: string }>;
} {
  const timestamps: Array<{ from: string; value: string }> = [];
  const ids: Array<{ from: string; value: string }> = [];
  for (const [header, value] of headerEntries(headers)) {
    if (NOT_SIGNATURES.has(header)) continue;
    for (const { param, text } of parts(value)) {
      const from = param ? `${header} "${param}"` : header;
      if (/^\d{9,13}(\.\d+)?$/.test(text)) timestamps.push({ from, value: text });
    }
    if (/id\b|id$|event|delivery/.test(header) && value.length <= 200) ids.push({ from: header, value: value.trim() });
  }
  return { timestamps, ids };
}

interface Content {
  description: string;
  bytes(body: string): Buffer;
}

function contents(headers: Headers, body: string): Content[] {
  const { timestamps, ids } = embeddedValues(headers);
  const list: Content[] = [{ description: "the raw body", bytes: (b) => Buffer.from(b) }];
  try {
    JSON.parse(body);
    list.push({ description: "the body's canonical JSON", bytes: (b) => Buffer.from(canonicalJson(JSON.parse(b))) });
  } catch {
    // not JSON: only the raw forms
  }
  for (const t of timestamps) {
    list.push({ description: `"{t}.{body}", t from ${t.from}`, bytes: (b) => Buffer.from(`${t.value}.${b}`) });
    list.push({ description: `"{t}{body}", t from ${t.from}`, bytes: (b) => Buffer.from(`${t.value}${b}`) });
    for (const id of ids)
      list.push({
        description: `"{id}.{t}.{body}", id from ${id.from}, t from ${t.from}`,
        bytes: (b) => Buffer.from(`${id.value}.${t.value}.${b}`),
      });
  }
  return list;
}

function searchScheme(
  key: Uint8Array,
  delivery: Pick<ReceivedDelivery, "headers" | "body">,
  candidates: Candidate[],
): SignatureScheme | undefined {
  const publicKey: KeyObject = createPublicKey({
    key: Buffer.concat([SPKI_PREFIX, Buffer.from(key)]),
    format: "der",
    type: "spki",
  });
  const check = (signature: Buffer, message: Buffer) => {
    try {
      return verifySignature(null, message, publicKey, signature);
    } catch {
      return false;
    }
  };
  for (const candidate of candidates) {
    const where = `${candidate.header}${candidate.param ? ` "${candidate.param}"` : ""}`;
    if (candidate.jwsHeader !== undefined) {
      const jws = (body: string) => Buffer.from(`${candidate.jwsHeader}.${Buffer.from(body).toString("base64url")}`);
      if (check(candidate.signature, jws(delivery.body))) {
        return {
          description: `Ed25519 detached JWS over the body, in ${where}`,
          verifies: (body) => check(candidate.signature, jws(body)),
        };
      }
      continue;
    }
    for (const content of contents(delivery.headers, delivery.body)) {
      if (!check(candidate.signature, content.bytes(delivery.body))) continue;
      return {
        description: `Ed25519 over ${content.description}, signature in ${where}`,
        verifies: (body) => check(candidate.signature, content.bytes(body)),
      };
    }
  }
  return undefined;
}
