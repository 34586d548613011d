// Ed25519 signatures on webhook deliveries, in two profiles (spec: x-custody-webhook-signature):
// - canonical-json (default, the real service's): x-webhook-signature: <hex sig> over the canonical JSON
//   of the event (keys sorted at every depth, no whitespace); x-webhook-event-id names the event. No time binding.
// - standard-webhooks: webhook-id, webhook-timestamp, webhook-signature: v1a,<base64 sig> over the UTF-8
//   bytes of `${id}.${timestamp}.${body}`; binds id and time so a replay is detectable.
// Two interchangeable Ed25519 backends: node:crypto (default, fast) and @noble/ed25519 (portable, audited JS).
import { createHmac, createPrivateKey, createPublicKey, randomBytes, sign as nodeSign, verify as nodeVerify, type KeyObject } from "node:crypto";
import * as ed from "@noble/ed25519";
import { sha512 } from "@noble/hashes/sha2.js";
import { parseTimestamp, unixSeconds } from "./hmac.ts";

// noble's synchronous API needs a SHA-512; set it once unless the host already did.
if (ed.hashes.sha512 === undefined) ed.hashes.sha512 = sha512;

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

/**
 * Lowercase hex HMAC-SHA256 of the event's canonical JSON keyed with the UTF-8 API secret, as
 * fystack/platform-sdk src/utils.ts computeHMACForWebhook computes it.
 */
export function webhookHmac(apiSecret: string, body: string | Uint8Array | object): string {
  return createHmac("sha256", Buffer.from(apiSecret, "utf8")).update(canonicalWebhookContent(body)).digest("hex");
}

/** The event id header of the canonical-json profile (a name of our choosing; the real service shows none). */
export const WEBHOOK_EVENT_ID_HEADER = WEBHOOK_HEADERS.canonicalEventId;

// ---------------------------------------------------------------------------------------------
// Ed25519 backends

export interface Ed25519Backend {
  readonly name: "node" | "noble";
  /** 64-byte signature of `message` under the 32-byte RFC 8032 secret seed. */
  sign(message: Uint8Array, seed: Uint8Array): Uint8Array;
  /** False (never a throw) for a wrong signature, a malformed key or a malformed signature. */
  verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
  /** 32-byte public key of the seed. */
  publicKey(seed: Uint8Array): Uint8Array;
}

// DER headers that turn a raw 32-byte Ed25519 key into PKCS#8 (private) and SPKI (public) documents.
const PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

/** Small bounded cache: building a KeyObject costs more than verifying with it. */
function keyCache(build: (raw: Uint8Array) => KeyObject, limit = 64): (raw: Uint8Array) => KeyObject {
  const cache = new Map<string, KeyObject>();
  return (raw) => {
    const id = Buffer.from(raw).toString("base64");
    let key = cache.get(id);
    if (key === undefined) {
      key = build(raw);
      if (cache.size >= limit) cache.delete(cache.keys().next().value as string);
      cache.set(id, key);
    }
    return key;
  };
}

function requireLength(bytes: Uint8Array, length: number, what: string): void {
  if (bytes.length !== length) throw new TypeError(`${what} must be ${length} bytes, got ${bytes.length}`);
}

const nodePrivateKey = keyCache((seed) =>
  createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: "der", type: "pkcs8" }),
);
const nodePublicKey = keyCache((pub) =>
  createPublicKey({ key: Buffer.concat([SPKI_PREFIX, pub]), format: "der", type: "spki" }),
);

const nodeBackend: Ed25519Backend = {
  name: "node",
  sign(message, seed) {
    requireLength(seed, 32, "Ed25519 secret key");
    return new Uint8Array(nodeSign(null, message, nodePrivateKey(seed)));
  },
  verify(signature, message, publicKey) {
    if (signature.length !== 64 || publicKey.length !== 32) return false;
    try {
      return nodeVerify(null, message, nodePublicKey(publicKey), signature);
    } catch {
      return false;
    }
  },
  publicKey(seed) {
    requireLength(seed, 32, "Ed25519 secret key");
    const spki = createPublicKey(nodePrivateKey(seed)).export({ format: "der", type: "spki" });
    return new Uint8Array(spki.subarray(spki.length - 32));
  },
};

const nobleBackend: Ed25519Backend = {
  name: "noble",
  sign(message, seed) {
    requireLength(seed, 32, "Ed25519 secret key");
    return ed.sign(message, seed);
  },
  verify(signature, message, publicKey) {
    if (signature.length !== 64 || publicKey.length !== 32) return false;
    try {
      // RFC 8032 rules (not ZIP-215) so both backends accept the same signatures.
      return ed.verify(signature, message, publicKey, { zip215: false });
    } catch {
      return false;
    }
  },
  publicKey(seed) {
    requireLength(seed, 32, "Ed25519 secret key");
    return ed.getPublicKey(seed);
  },
};

/** Both backends, so a benchmark (or a caller without node:crypto Ed25519) can pick one. */
export const webhookCrypto: { readonly node: Ed25519Backend; readonly noble: Ed25519Backend } = {
  node: nodeBackend,
  noble: nobleBackend,
};

// ---------------------------------------------------------------------------------------------
// Keys

/** A 32-byte secret seed, given as bytes, base64, or 64 hex digits. */
export type WebhookPrivateKey = Uint8Array | string;

export function decodePrivateKey(key: WebhookPrivateKey): Uint8Array {
  if (typeof key !== "string") return key;
  const bytes = /^[0-9a-fA-F]{64}$/.test(key) ? Buffer.from(key, "hex") : Buffer.from(key, "base64");
  requireLength(bytes, 32, "Ed25519 secret key");
  return new Uint8Array(bytes);
}

/** Decodes the base64 public key of operation 8; undefined unless it is exactly 32 bytes of base64. */
export function decodePublicKey(base64: string): Uint8Array | undefined {
  if (typeof base64 !== "string" || !/^[A-Za-z0-9+/]{43}=?$/.test(base64.trim())) return undefined;
  return new Uint8Array(Buffer.from(base64.trim(), "base64"));
}

export interface WebhookKeyPair {
  privateKey: Uint8Array;
  publicKey: Uint8Array;
  privateKeyBase64: string;
  publicKeyBase64: string;
}

export function generateWebhookKeyPair(backend: Ed25519Backend = nodeBackend): WebhookKeyPair {
  const privateKey = new Uint8Array(randomBytes(32));
  const publicKey = backend.publicKey(privateKey);
  return {
    privateKey,
    publicKey,
    privateKeyBase64: Buffer.from(privateKey).toString("base64"),
    publicKeyBase64: Buffer.from(publicKey).toString("base64"),
  };
}

/** Base64 of the raw 32-byte public key, as operation 8 publishes it. */
export function publicKeyBase64(privateKey: WebhookPrivateKey, backend: Ed25519Backend = nodeBackend): string {
  return Buffer.from(backend.publicKey(decodePrivateKey(privateKey))).toString("base64");
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
  return typeof body === "string" ? Buffer.from(body, "utf8") : body;
}

/** The bytes the standard-webhooks profile signs: `${id}.${timestamp}.${body}`. */
export function standardWebhookContent(id: string, timestamp: string | number, body: string | Uint8Array): Uint8Array {
  return Buffer.concat([Buffer.from(`${id}.${timestamp}.`, "utf8"), toBytes(body)]);
}

/** The bytes the canonical-json profile signs; raw bodies are parsed first. */
export function canonicalWebhookContent(body: string | Uint8Array | object): Uint8Array {
  const value =
    typeof body === "string" || body instanceof Uint8Array
      ? JSON.parse(typeof body === "string" ? body : Buffer.from(body).toString("utf8"))
      : body;
  return Buffer.from(canonicalJson(value), "utf8");
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
  const backend = input.backend ?? nodeBackend;
  const seed = decodePrivateKey(input.privateKey);
  if (profile === "canonical-json") {
    const signature = backend.sign(canonicalWebhookContent(input.body), seed);
    return { [WEBHOOK_HEADERS.canonicalSignature]: Buffer.from(signature).toString("hex") };
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
    [WEBHOOK_HEADERS.signature]: `v1a,${Buffer.from(signature).toString("base64")}`,
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
  | "no_valid_signature";

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
  const backend = input.backend ?? nodeBackend;

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
    const ok = backend.verify(new Uint8Array(Buffer.from(hex, "hex")), content, publicKey);
    return ok ? { ok: true, profile } : fail("no_valid_signature");
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
    if (backend.verify(new Uint8Array(Buffer.from(b64, "base64")), content, publicKey)) return { ok: true, profile };
  }
  return fail("no_valid_signature");
}
