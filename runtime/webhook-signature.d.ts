export type WebhookProfile = "standard-webhooks" | "canonical-json";
/** The real service's way (fystack/platform-sdk src/utils.ts verifyEd25519), so its receivers work unchanged. */
export declare const DEFAULT_WEBHOOK_PROFILE: WebhookProfile;
export declare const WEBHOOK_TOLERANCE_SECONDS = 300;
export declare const WEBHOOK_HEADERS: {
    readonly id: "webhook-id";
    readonly timestamp: "webhook-timestamp";
    readonly signature: "webhook-signature";
    readonly canonicalSignature: "x-webhook-signature";
    readonly canonicalEventId: "x-webhook-event-id";
    readonly canonicalHmac: "x-webhook-hmac-signature";
};
/** The HMAC header of the canonical-json profile: what the real service's SDK verifyEvent checks. */
export declare const WEBHOOK_HMAC_HEADER: "x-webhook-hmac-signature";
/**
 * Lowercase hex HMAC-SHA256 of the event's canonical JSON keyed with the UTF-8 API secret, as
 * fystack/platform-sdk src/utils.ts computeHMACForWebhook computes it.
 */
export declare function webhookHmac(apiSecret: string, body: string | Uint8Array | object): string;
/** The event id header of the canonical-json profile (a name of our choosing; the real service shows none). */
export declare const WEBHOOK_EVENT_ID_HEADER: "x-webhook-event-id";
export interface Ed25519Backend {
    readonly name: "node" | "noble";
    /** 64-byte signature of `message` under the 32-byte RFC 8032 secret seed. */
    sign(message: Uint8Array, seed: Uint8Array): Uint8Array;
    /** False (never a throw) for a wrong signature, a malformed key or a malformed signature. */
    verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
    /** 32-byte public key of the seed. */
    publicKey(seed: Uint8Array): Uint8Array;
}
/** Both backends, so a benchmark (or a caller without node:crypto Ed25519) can pick one. */
export declare const webhookCrypto: {
    readonly node: Ed25519Backend;
    readonly noble: Ed25519Backend;
};
/** A 32-byte secret seed, given as bytes, base64, or 64 hex digits. */
export type WebhookPrivateKey = Uint8Array | string;
export declare function decodePrivateKey(key: WebhookPrivateKey): Uint8Array;
/** Decodes the base64 public key of operation 8; undefined unless it is exactly 32 bytes of base64. */
export declare function decodePublicKey(base64: string): Uint8Array | undefined;
export interface WebhookKeyPair {
    privateKey: Uint8Array;
    publicKey: Uint8Array;
    privateKeyBase64: string;
    publicKeyBase64: string;
}
export declare function generateWebhookKeyPair(backend?: Ed25519Backend): WebhookKeyPair;
/** Base64 of the raw 32-byte public key, as operation 8 publishes it. */
export declare function publicKeyBase64(privateKey: WebhookPrivateKey, backend?: Ed25519Backend): string;
/**
 * Canonical JSON: object keys sorted (UTF-16 code unit order) at every depth, arrays in order, no
 * whitespace, primitives as JSON.stringify writes them. Like JSON.stringify, undefined members are
 * left out, undefined array items become null and toJSON is honoured. Non-finite numbers, bigints
 * and cycles are rejected because they have no single JSON form.
 */
export declare function canonicalJson(value: unknown): string;
/** The bytes the standard-webhooks profile signs: `${id}.${timestamp}.${body}`. */
export declare function standardWebhookContent(id: string, timestamp: string | number, body: string | Uint8Array): Uint8Array;
/** The bytes the canonical-json profile signs; raw bodies are parsed first. */
export declare function canonicalWebhookContent(body: string | Uint8Array | object): Uint8Array;
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
export declare function signWebhook(input: SignWebhookInput): Record<string, string>;
/** A Fetch Headers object, a plain record, or node's IncomingHttpHeaders. */
export type HeadersInput = {
    get(name: string): string | null;
} | Record<string, string | readonly string[] | undefined>;
/** Case-insensitive header lookup; repeated values are joined with `joiner`, or refused without one. */
export declare function getHeader(headers: HeadersInput, name: string, joiner?: string): string | undefined;
export type WebhookFailureReason = "missing_headers" | "bad_timestamp" | "timestamp_out_of_window" | "bad_public_key" | "bad_body" | "no_valid_signature";
export type VerifyWebhookResult = {
    ok: true;
    profile: WebhookProfile;
} | {
    ok: false;
    reason: WebhookFailureReason;
    profile?: WebhookProfile;
};
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
export declare function detectWebhookProfile(headers: HeadersInput): WebhookProfile | undefined;
export declare function verifyWebhook(input: VerifyWebhookInput): VerifyWebhookResult;
