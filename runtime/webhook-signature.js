// Ed25519 signatures on webhook deliveries, in two profiles (spec: x-custody-webhook-signature):
// - canonical-json (default, the real service's): x-webhook-signature: <hex sig> over the canonical JSON
//   of the event (keys sorted at every depth, no whitespace); x-webhook-event-id names the event. No time binding.
// - standard-webhooks: webhook-id, webhook-timestamp, webhook-signature: v1a,<base64 sig> over the UTF-8
//   bytes of `${id}.${timestamp}.${body}`; binds id and time so a replay is detectable.
// Two interchangeable Ed25519 backends: node:crypto (default, fast) and @noble/ed25519 (portable, audited JS).
import { createHmac, createPrivateKey, createPublicKey, randomBytes, sign as nodeSign, verify as nodeVerify } from "node:crypto";
import * as ed from "@noble/ed25519";
import { sha512 } from "@noble/hashes/sha2.js";
import { parseTimestamp, unixSeconds } from "./hmac.ts";
// noble's synchronous API needs a SHA-512; set it once unless the host already did.
if (ed.hashes.sha512 === undefined)
    ed.hashes.sha512 = sha512;
/** The real service's way (fystack/platform-sdk src/utils.ts verifyEd25519), so its receivers work unchanged. */
export const DEFAULT_WEBHOOK_PROFILE = "canonical-json";
export const WEBHOOK_TOLERANCE_SECONDS = 300;
export const WEBHOOK_HEADERS = {
    id: "webhook-id",
    timestamp: "webhook-timestamp",
    signature: "webhook-signature",
    canonicalSignature: "x-webhook-signature",
    canonicalEventId: "x-webhook-event-id",
    canonicalHmac: "x-webhook-hmac-signature",
};
/** The HMAC header of the canonical-json profile: what the real service's SDK verifyEvent checks. */
export const WEBHOOK_HMAC_HEADER = WEBHOOK_HEADERS.canonicalHmac;
/**
 * Lowercase hex HMAC-SHA256 of the event's canonical JSON keyed with the UTF-8 API secret, as
 * fystack/platform-sdk src/utils.ts computeHMACForWebhook computes it.
 */
export function webhookHmac(apiSecret, body) {
    return createHmac("sha256", Buffer.from(apiSecret, "utf8")).update(canonicalWebhookContent(body)).digest("hex");
}
/** The event id header of the canonical-json profile (a name of our choosing; the real service shows none). */
export const WEBHOOK_EVENT_ID_HEADER = WEBHOOK_HEADERS.canonicalEventId;
// DER headers that turn a raw 32-byte Ed25519 key into PKCS#8 (private) and SPKI (public) documents.
const PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");
/** Small bounded cache: building a KeyObject costs more than verifying with it. */
function keyCache(build, limit = 64) {
    const cache = new Map();
    return (raw) => {
        const id = Buffer.from(raw).toString("base64");
        let key = cache.get(id);
        if (key === undefined) {
            key = build(raw);
            if (cache.size >= limit)
                cache.delete(cache.keys().next().value);
            cache.set(id, key);
        }
        return key;
    };
}
function requireLength(bytes, length, what) {
    if (bytes.length !== length)
        throw new TypeError(`${what} must be ${length} bytes, got ${bytes.length}`);
}
const nodePrivateKey = keyCache((seed) => createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: "der", type: "pkcs8" }));
const nodePublicKey = keyCache((pub) => createPublicKey({ key: Buffer.concat([SPKI_PREFIX, pub]), format: "der", type: "spki" }));
const nodeBackend = {
    name: "node",
    sign(message, seed) {
        requireLength(seed, 32, "Ed25519 secret key");
        return new Uint8Array(nodeSign(null, message, nodePrivateKey(seed)));
    },
    verify(signature, message, publicKey) {
        if (signature.length !== 64 || publicKey.length !== 32)
            return false;
        try {
            return nodeVerify(null, message, nodePublicKey(publicKey), signature);
        }
        catch {
            return false;
        }
    },
    publicKey(seed) {
        requireLength(seed, 32, "Ed25519 secret key");
        const spki = createPublicKey(nodePrivateKey(seed)).export({ format: "der", type: "spki" });
        return new Uint8Array(spki.subarray(spki.length - 32));
    },
};
const nobleBackend = {
    name: "noble",
    sign(message, seed) {
        requireLength(seed, 32, "Ed25519 secret key");
        return ed.sign(message, seed);
    },
    verify(signature, message, publicKey) {
        if (signature.length !== 64 || publicKey.length !== 32)
            return false;
        try {
            // RFC 8032 rules (not ZIP-215) so both backends accept the same signatures.
            return ed.verify(signature, message, publicKey, { zip215: false });
        }
        catch {
            return false;
        }
    },
    publicKey(seed) {
        requireLength(seed, 32, "Ed25519 secret key");
        return ed.getPublicKey(seed);
    },
};
/** Both backends, so a benchmark (or a caller without node:crypto Ed25519) can pick one. */
export const webhookCrypto = {
    node: nodeBackend,
    noble: nobleBackend,
};
export function decodePrivateKey(key) {
    if (typeof key !== "string")
        return key;
    const bytes = /^[0-9a-fA-F]{64}$/.test(key) ? Buffer.from(key, "hex") : Buffer.from(key, "base64");
    requireLength(bytes, 32, "Ed25519 secret key");
    return new Uint8Array(bytes);
}
/** Decodes the base64 public key of operation 8; undefined unless it is exactly 32 bytes of base64. */
export function decodePublicKey(base64) {
    if (typeof base64 !== "string" || !/^[A-Za-z0-9+/]{43}=?$/.test(base64.trim()))
        return undefined;
    return new Uint8Array(Buffer.from(base64.trim(), "base64"));
}
export function generateWebhookKeyPair(backend = nodeBackend) {
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
export function publicKeyBase64(privateKey, backend = nodeBackend) {
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
export function canonicalJson(value) {
    return canonicalize(value, new Set());
}
function canonicalize(value, seen) {
    if (value !== null && typeof value === "object" && typeof value.toJSON === "function") {
        value = value.toJSON();
    }
    if (value === null)
        return "null";
    switch (typeof value) {
        case "string":
        case "boolean":
            return JSON.stringify(value);
        case "number":
            if (!Number.isFinite(value))
                throw new TypeError(`canonicalJson: ${value} has no JSON form`);
            return JSON.stringify(value);
        case "object":
            break;
        default:
            throw new TypeError(`canonicalJson: a ${typeof value} has no JSON form`);
    }
    const obj = value;
    if (seen.has(obj))
        throw new TypeError("canonicalJson: cyclic structure");
    seen.add(obj);
    let out;
    if (Array.isArray(obj)) {
        out = `[${obj.map((item) => (isOmitted(item) ? "null" : canonicalize(item, seen))).join(",")}]`;
    }
    else {
        const record = obj;
        const members = [];
        for (const key of Object.keys(record).sort()) {
            if (isOmitted(record[key]))
                continue;
            members.push(`${JSON.stringify(key)}:${canonicalize(record[key], seen)}`);
        }
        out = `{${members.join(",")}}`;
    }
    seen.delete(obj);
    return out;
}
function isOmitted(x) {
    return x === undefined || typeof x === "function" || typeof x === "symbol";
}
function toBytes(body) {
    return typeof body === "string" ? Buffer.from(body, "utf8") : body;
}
/** The bytes the standard-webhooks profile signs: `${id}.${timestamp}.${body}`. */
export function standardWebhookContent(id, timestamp, body) {
    return Buffer.concat([Buffer.from(`${id}.${timestamp}.`, "utf8"), toBytes(body)]);
}
/** The bytes the canonical-json profile signs; raw bodies are parsed first. */
export function canonicalWebhookContent(body) {
    const value = typeof body === "string" || body instanceof Uint8Array
        ? JSON.parse(typeof body === "string" ? body : Buffer.from(body).toString("utf8"))
        : body;
    return Buffer.from(canonicalJson(value), "utf8");
}
/** Headers to send with a delivery whose body is `body`. */
export function signWebhook(input) {
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
/** Case-insensitive header lookup; repeated values are joined with `joiner`, or refused without one. */
export function getHeader(headers, name, joiner) {
    if (typeof headers.get === "function") {
        const value = headers.get(name);
        return value ?? undefined;
    }
    const record = headers;
    const wanted = name.toLowerCase();
    const values = [];
    for (const key of Object.keys(record)) {
        if (key.toLowerCase() !== wanted)
            continue;
        const value = record[key];
        if (typeof value === "string")
            values.push(value);
        else if (Array.isArray(value))
            values.push(...value.filter((v) => typeof v === "string"));
    }
    if (values.length === 0)
        return undefined;
    if (values.length === 1)
        return values[0];
    return joiner === undefined ? undefined : values.join(joiner);
}
export function detectWebhookProfile(headers) {
    if (getHeader(headers, WEBHOOK_HEADERS.signature, " ") !== undefined)
        return "standard-webhooks";
    if (getHeader(headers, WEBHOOK_HEADERS.canonicalSignature) !== undefined)
        return "canonical-json";
    return undefined;
}
export function verifyWebhook(input) {
    const profile = input.profile ?? detectWebhookProfile(input.headers);
    if (profile === undefined)
        return { ok: false, reason: "missing_headers" };
    const fail = (reason) => ({ ok: false, reason, profile });
    const backend = input.backend ?? nodeBackend;
    if (profile === "canonical-json") {
        const hex = getHeader(input.headers, WEBHOOK_HEADERS.canonicalSignature)?.trim();
        if (hex === undefined || hex === "")
            return fail("missing_headers");
        const publicKey = decodePublicKey(input.publicKeyBase64);
        if (publicKey === undefined)
            return fail("bad_public_key");
        let content;
        try {
            content = canonicalWebhookContent(input.body);
        }
        catch {
            return fail("bad_body");
        }
        if (!/^[0-9a-fA-F]{128}$/.test(hex))
            return fail("no_valid_signature");
        const ok = backend.verify(new Uint8Array(Buffer.from(hex, "hex")), content, publicKey);
        return ok ? { ok: true, profile } : fail("no_valid_signature");
    }
    const id = getHeader(input.headers, WEBHOOK_HEADERS.id);
    const rawTimestamp = getHeader(input.headers, WEBHOOK_HEADERS.timestamp);
    const signatures = getHeader(input.headers, WEBHOOK_HEADERS.signature, " ");
    if (!id || !rawTimestamp || !signatures)
        return fail("missing_headers");
    const timestamp = parseTimestamp(rawTimestamp);
    if (timestamp === undefined)
        return fail("bad_timestamp");
    const now = input.now instanceof Date ? unixSeconds(input.now.getTime()) : (input.now ?? unixSeconds());
    if (Math.abs(now - timestamp) > (input.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS)) {
        return fail("timestamp_out_of_window");
    }
    const publicKey = decodePublicKey(input.publicKeyBase64);
    if (publicKey === undefined)
        return fail("bad_public_key");
    const content = standardWebhookContent(id, rawTimestamp, input.body);
    for (const entry of signatures.split(" ")) {
        const comma = entry.indexOf(",");
        // Only the asymmetric v1a scheme is ours; other versions (v1 is symmetric HMAC) are skipped.
        if (comma === -1 || entry.slice(0, comma) !== "v1a")
            continue;
        const b64 = entry.slice(comma + 1);
        if (!/^[A-Za-z0-9+/]{86}(==)?$/.test(b64))
            continue;
        if (backend.verify(new Uint8Array(Buffer.from(b64, "base64")), content, publicKey))
            return { ok: true, profile };
    }
    return fail("no_valid_signature");
}
//# sourceMappingURL=webhook-signature.js.map