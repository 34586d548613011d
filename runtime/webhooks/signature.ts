// Ed25519 signatures on webhook deliveries, in two profiles (spec: x-custody-webhook-signature):
// - canonical-json (default, the real service's): x-webhook-signature: <hex sig> over the canonical JSON
//   of the event (keys sorted at every depth, no whitespace); x-webhook-event-id names the event. No time binding.
// - standard-webhooks: webhook-id, webhook-timestamp, webhook-signature: v1a,<base64 sig> over the UTF-8
//   bytes of `${id}.${timestamp}.${body}`; binds id and time so a replay is detectable.
// Runs on every runtime: no static import of a Node module and no Buffer (runtime/bytes.ts); Ed25519
// through node:crypto where the runtime has it, else @noble/ed25519 (runtime/webhooks/ed25519.ts), the
// HMAC header likewise through node:crypto or @noble/hashes. Everything here is synchronous.
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import {
  concatBytes,
  constantTimeEqualText,
  fromBase64,
  fromHex,
  toBase64,
  toHex,
  utf8Bytes,
  utf8Text,
} from "../bytes.ts";
import { parseTimestamp, unixSeconds } from "../http/request-signing.ts";
import { type Ed25519Backend, nobleBackend, nodeBackend, requireLength } from "./ed25519.ts";

export type { Ed25519Backend };

export type WebhookProfile = "standard-webhooks" | "canonical-json";
/** The real service's way (fystack/platform-sdk src/utils.ts verifyEd25519), so its receivers work unchanged. */
export const DEFAULT_WEBHOOK_PROFILE: WebhookProfile = "canonical-json";
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export const WEBHOOK_HEADERS = {
  id: "webhook-id",
  timestamp: "webhook-timestamp",
  signature: "webhook-signature",
  canonicalSignature: "x-webhook-signature",
  canonicalEventId: "x-webhook-event-id",
  canonicalHmac: "x-webhook-hmac-signature",
} as const;

/** The HMAC header of the canonical-json profile: what the real service's SDK verifyEvent checks. */
export const WEBHOOK_HMAC_HEADER = WEBHOOK_HEADERS.canonicalHmac;

interface NodeHmac {
  createHmac(algorithm: "sha256", key: Uint8Array): { update(data: Uint8Array): { digest(encoding: "hex"): string } };
}
const nodeHmac = (
  globalThis as { process?: { getBuiltinModule?: (name: string) => unknown } }
).process?.getBuiltinModule?.("node:crypto") as NodeHmac | undefined;

/**
 * Lowercase hex HMAC-SHA256 of the event's canonical JSON keyed with the UTF-8 API secret, as
 * fystack/platform-sdk src/utils.ts computeHMACForWebhook computes it.
 */
export function webhookHmac(apiSecret: string, body: string | Uint8Array | object): string {
  return hmacHex(apiSecret, canonicalWebhookContent(body));
}

function hmacHex(apiSecret: string, content: Uint8Array): string {
  const key = utf8Bytes(apiSecret);
  if (typeof nodeHmac?.createHmac === "function")
    return nodeHmac.createHmac("sha256", key).update(content).digest("hex");
  return toHex(hmac(sha256, key, content));
}

/** The event id header of the canonical-json profile (a name of our choosing; the real service shows none). */
export const WEBHOOK_EVENT_ID_HEADER = WEBHOOK_HEADERS.canonicalEventId;

// ---------------------------------------------------------------------------------------------
// Ed25519 backends

/** Both backends, so a benchmark (or a caller without node:crypto Ed25519) can pick one; `node` is noble where node:crypto is absent. */
export const webhookCrypto: { readonly node: Ed25519Backend; readonly noble: Ed25519Backend } = {
  node: nodeBackend ?? nobleBackend,
  noble: nobleBackend,
};

/** node:crypto where the runtime has it, else @noble/ed25519. */
const defaultBackend: Ed25519Backend = nodeBackend ?? nobleBackend;

// ---------------------------------------------------------------------------------------------
// Keys

/** A 32-byte secret seed, given as bytes, base64, or 64 hex digits. */
export type WebhookPrivateKey = Uint8Array | string;

export function decodePrivateKey(key: WebhookPrivateKey): Uint8Array {
  if (typeof key !== "string") return key;
  const bytes = /^[0-9a-fA-F]{64}$/.test(key) ? fromHex(key) : fromBase64(key.trim());
  if (bytes === undefined) throw new TypeError("Ed25519 secret key must be 64 hex digits or base64 of 32 bytes");
  requireLength(bytes, 32, "Ed25519 secret key");
  return bytes;
}

/** Decodes the base64 public key of operation 8; undefined unless it is exactly 32 bytes of base64. */
export function decodePublicKey(base64: string): Uint8Array | undefined {
  if (typeof base64 !== "string" || !/^[A-Za-z0-9+/]{43}=?$/.test(base64.trim())) return undefined;
  const bytes = fromBase64(base64.trim());
  return bytes?.length === 32 ? bytes : undefined;
}

export interface WebhookKeyPair {
  privateKey: Uint8Array;
  publicKey: Uint8Array;
  privateKeyBase64: string;
  publicKeyBase64: string;
}

export function generateWebhookKeyPair(backend: Ed25519Backend = defaultBackend): WebhookKeyPair {
  const privateKey = globalThis.crypto.getRandomValues(new Uint8Array(32));
  const publicKey = backend.publicKey(privateKey);
  return {
    privateKey,
    publicKey,
    privateKeyBase64: toBase64(privateKey),
    publicKeyBase64: toBase64(publicKey),
  };
}

/** Base64 of the raw 32-byte public key, as operation 8 publishes it. */
export function publicKeyBase64(privateKey: WebhookPrivateKey, backend: Ed25519Backend = defaultBackend): string {
  return toBase64(backend.publicKey(decodePrivateKey(privateKey)));
}

// ---------------------------------------------------------------------------------------------
// Signed content

/**
 * Canonical JSON: object keys sorted (UTF-16 code unit order) at every depth, arrays in order, no
 * whitespace, primitives as JSON.stringify writes them. Like JSON.stringify, undefined members are
 * left out, undefined array items become null and toJSON is honoured. Non-finite numbers, bigints
 * and cycles are rejected because they have no single JSON form.
 */
export function canonicalJson(value: unknown): string {
  return canonicalize(value, new Set());
}

function canonicalize(value: unknown, seen: Set<object>): string {
  if (value !== null && typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON === "function") {
    value = (value as { toJSON: () => unknown }).toJSON();
  }
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${value} has no JSON form`);
      return JSON.stringify(value);
    case "object":
      break;
    default:
      throw new TypeError(`canonicalJson: a ${typeof value} has no JSON form`);
  }
  const obj = value as object;
  if (seen.has(obj)) throw new TypeError("canonicalJson: cyclic structure");
  seen.add(obj);
  let out: string;
  if (Array.isArray(obj)) {
    out = `[${obj.map((item) => (isOmitted(item) ? "null" : canonicalize(item, seen))).join(",")}]`;
  } else {
    const record = obj as Record<string, unknown>;
    const members: string[] = [];
    for (const key of Object.keys(record).sort()) {
      if (isOmitted(record[key])) continue;
      members.push(`${JSON.stringify(key)}:${canonicalize(record[key], seen)}`);
    }
    out = `{${members.join(",")}}`;
  }
  seen.delete(obj);
  return out;
}

function isOmitted(x: unknown): boolean {
  return x === undefined || typeof x === "function" || typeof x === "symbol";
}

function toBytes(body: string | Uint8Array): Uint8Array {
  return typeof body === "string" ? utf8Bytes(body) : body;
}

/** The bytes the standard-webhooks profile signs: `${id}.${timestamp}.${body}`. */
export function standardWebhookContent(id: string, timestamp: string | number, body: string | Uint8Array): Uint8Array {
  return concatBytes(utf8Bytes(`${id}.${timestamp}.`), toBytes(body));
}

/** The bytes the canonical-json profile signs; raw bodies are parsed first. */
export function canonicalWebhookContent(body: string | Uint8Array | object): Uint8Array {
  const value =
    typeof body === "string" || body instanceof Uint8Array
      ? JSON.parse(typeof body === "string" ? body : utf8Text(body))
      : body;
  return utf8Bytes(canonicalJson(value));
}

// ---------------------------------------------------------------------------------------------
// Sign

export interface SignWebhookInput {
  profile?: WebhookProfile;
  privateKey: WebhookPrivateKey;
  /** Event id (webhook-id); required by standard-webhooks. */
  id?: string;
  /** Unix seconds; defaults to now. Used by standard-webhooks. */
  timestamp?: number | string;
  /** The exact body that will be sent. canonical-json also accepts the event value itself. */
  body: string | Uint8Array | object;
  backend?: Ed25519Backend;
}

/** Headers to send with a delivery whose body is `body`. */
export function signWebhook(input: SignWebhookInput): Record<string, string> {
  const profile = input.profile ?? DEFAULT_WEBHOOK_PROFILE;
  const backend = input.backend ?? nodeBackend ?? nobleBackend;
  const seed = decodePrivateKey(input.privateKey);
  if (profile === "canonical-json") {
    const signature = backend.sign(canonicalWebhookContent(input.body), seed);
    return { [WEBHOOK_HEADERS.canonicalSignature]: toHex(signature) };
  }
  if (typeof input.id !== "string" || input.id.length === 0) {
    throw new TypeError("signWebhook: standard-webhooks needs the event id");
  }
  if (typeof input.body !== "string" && !(input.body instanceof Uint8Array)) {
    throw new TypeError("signWebhook: standard-webhooks signs the raw body; pass the exact string that is sent");
  }
  const timestamp = String(input.timestamp ?? unixSeconds());
  const signature = backend.sign(standardWebhookContent(input.id, timestamp, input.body), seed);
  return {
    [WEBHOOK_HEADERS.id]: input.id,
    [WEBHOOK_HEADERS.timestamp]: timestamp,
    [WEBHOOK_HEADERS.signature]: `v1a,${toBase64(signature)}`,
  };
}

// ---------------------------------------------------------------------------------------------
// Verify

/** A Fetch Headers object, a plain record, or node's IncomingHttpHeaders. */
export type HeadersInput =
  | { get(name: string): string | null }
  | Record<string, string | readonly string[] | undefined>;

/** Case-insensitive header lookup; repeated values are joined with `joiner`, or refused without one. */
export function getHeader(headers: HeadersInput, name: string, joiner?: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === "function") {
    const value = (headers as { get(name: string): string | null }).get(name);
    return value ?? undefined;
  }
  const record = headers as Record<string, string | readonly string[] | undefined>;
  const wanted = name.toLowerCase();
  const values: string[] = [];
  for (const key of Object.keys(record)) {
    if (key.toLowerCase() !== wanted) continue;
    const value = record[key];
    if (typeof value === "string") values.push(value);
    else if (Array.isArray(value)) values.push(...value.filter((v): v is string => typeof v === "string"));
  }
  if (values.length === 0) return undefined;
  if (values.length === 1) return values[0];
  return joiner === undefined ? undefined : values.join(joiner);
}

export type WebhookFailureReason =
  | "missing_headers"
  | "bad_timestamp"
  | "timestamp_out_of_window"
  | "bad_public_key"
  | "bad_body"
  | "no_valid_signature"
  | "no_valid_hmac";

export type VerifyWebhookResult =
  | { ok: true; profile: WebhookProfile }
  | { ok: false; reason: WebhookFailureReason; profile?: WebhookProfile };

export interface VerifyWebhookInput {
  /** When left out, taken from the headers: webhook-signature → standard-webhooks, x-webhook-signature → canonical-json. */
  profile?: WebhookProfile;
  publicKeyBase64: string;
  headers: HeadersInput;
  /** The raw body exactly as received. */
  body: string | Uint8Array;
  /** Current time in unix seconds (or a Date); defaults to now. */
  now?: number | Date;
  toleranceSeconds?: number;
  /**
   * The API secret. When given, a canonical-json delivery must also carry x-webhook-hmac-signature equal
   * to webhookHmac(secret, event) (what the real service's SDK verifyEvent checks); compared in constant time.
   */
  hmacSecret?: string;
  backend?: Ed25519Backend;
}

export function detectWebhookProfile(headers: HeadersInput): WebhookProfile | undefined {
  if (getHeader(headers, WEBHOOK_HEADERS.signature, " ") !== undefined) return "standard-webhooks";
  if (getHeader(headers, WEBHOOK_HEADERS.canonicalSignature) !== undefined) return "canonical-json";
  return undefined;
}

export function verifyWebhook(input: VerifyWebhookInput): VerifyWebhookResult {
  const profile = input.profile ?? detectWebhookProfile(input.headers);
  if (profile === undefined) return { ok: false, reason: "missing_headers" };
  const fail = (reason: WebhookFailureReason): VerifyWebhookResult => ({ ok: false, reason, profile });
  // node:crypto where the runtime has it (bench/crypto.ts reads this line to name the backend in use).
  const backend = input.backend ?? nodeBackend ?? nobleBackend;

  if (profile === "canonical-json") {
    const hex = getHeader(input.headers, WEBHOOK_HEADERS.canonicalSignature)?.trim();
    if (hex === undefined || hex === "") return fail("missing_headers");
    const publicKey = decodePublicKey(input.publicKeyBase64);
    if (publicKey === undefined) return fail("bad_public_key");
    let content: Uint8Array;
    try {
      content = canonicalWebhookContent(input.body);
    } catch {
      return fail("bad_body");
    }
    if (!/^[0-9a-fA-F]{128}$/.test(hex)) return fail("no_valid_signature");
    if (!backend.verify(fromHex(hex) as Uint8Array, content, publicKey)) return fail("no_valid_signature");
    if (input.hmacSecret !== undefined) {
      const mac = getHeader(input.headers, WEBHOOK_HMAC_HEADER)?.trim().toLowerCase();
      if (mac === undefined || mac === "") return fail("missing_headers");
      if (!constantTimeEqualText(hmacHex(input.hmacSecret, content), mac)) return fail("no_valid_hmac");
    }
    return { ok: true, profile };
  }

  const id = getHeader(input.headers, WEBHOOK_HEADERS.id);
  const rawTimestamp = getHeader(input.headers, WEBHOOK_HEADERS.timestamp);
  const signatures = getHeader(input.headers, WEBHOOK_HEADERS.signature, " ");
  if (!id || !rawTimestamp || !signatures) return fail("missing_headers");
  const timestamp = parseTimestamp(rawTimestamp);
  if (timestamp === undefined) return fail("bad_timestamp");
  const now = input.now instanceof Date ? unixSeconds(input.now.getTime()) : (input.now ?? unixSeconds());
  if (Math.abs(now - timestamp) > (input.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS)) {
    return fail("timestamp_out_of_window");
  }
  const publicKey = decodePublicKey(input.publicKeyBase64);
  if (publicKey === undefined) return fail("bad_public_key");
  const content = standardWebhookContent(id, rawTimestamp, input.body);
  for (const entry of signatures.split(" ")) {
    const comma = entry.indexOf(",");
    // Only the asymmetric v1a scheme is ours; other versions (v1 is symmetric HMAC) are skipped.
    if (comma === -1 || entry.slice(0, comma) !== "v1a") continue;
    const b64 = entry.slice(comma + 1);
    if (!/^[A-Za-z0-9+/]{86}(==)?$/.test(b64)) continue;
    if (backend.verify(fromBase64(b64) as Uint8Array, content, publicKey)) return { ok: true, profile };
  }
  return fail("no_valid_signature");
}
