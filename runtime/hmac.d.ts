import { type KeyObject } from "node:crypto";
import { HMAC_HEADERS, unixSeconds, type SignatureParts } from "./request-signing.ts";
export { HMAC_HEADERS, unixSeconds, type SignatureParts };
/** Accepted clock skew between client and server, in seconds, past or future (inclusive). */
export declare const HMAC_WINDOW_SECONDS = 300;
/** The exact string that gets signed (the body decoded as UTF-8 for display; signing uses its bytes). */
export declare function stringToSign(parts: SignatureParts): string;
/** A secret as text, or prepared once with signingKey (for a client signing every call with one secret). */
export type HmacSecret = string | KeyObject;
/**
 * The secret as a KeyObject, to sign many requests with: node then skips copying the key into a new
 * buffer on every signature. For the client's own secret only; the server keeps passing text so that
 * its work never depends on which keys it has seen.
 */
export declare function signingKey(secret: string): KeyObject;
/** ACCESS-SIGN for the given secret and request parts. */
export declare function computeSignature(secret: HmacSecret, parts: SignatureParts): string;
/**
 * Compares two strings in time that depends only on the length of `expected`.
 * When the lengths differ, `expected` is compared with itself so the work done is the same.
 */
export declare function constantTimeEqual(expected: string, actual: string): boolean;
/** True when `signature` is the ACCESS-SIGN of these parts under `secret` (constant-time compare). */
export declare function verifySignature(secret: string, parts: SignatureParts, signature: string): boolean;
export interface SignRequestInput {
    apiKey: string;
    apiSecret: HmacSecret;
    method: string;
    /** Path as sent; anything from `?` on is ignored because the query is not signed. */
    path: string;
    body?: string | Uint8Array;
    /** Unix seconds; defaults to now. */
    timestamp?: number | string;
}
/** The three authentication headers for one request. */
export declare function signRequest(input: SignRequestInput): Record<string, string>;
/** Parses ACCESS-TIMESTAMP: decimal digits only (no sign, no fraction, no spaces). */
export declare function parseTimestamp(raw: string | undefined | null): number | undefined;
/** True when `ts` lies within `window` seconds of `nowSeconds`, both directions, inclusive. */
export declare function isWithinWindow(ts: number, nowSeconds: number, window?: number): boolean;
