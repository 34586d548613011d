import { hmac } from "@noble/hashes/hmac.js";
/** Header names of the scheme, as the spec spells them. */
export declare const HMAC_HEADERS: {
    readonly key: "ACCESS-API-KEY";
    readonly timestamp: "ACCESS-TIMESTAMP";
    readonly signature: "ACCESS-SIGN";
};
export interface SignatureParts {
    method: string;
    /** Request path including /api/v1, without the query string, exactly as sent. */
    path: string;
    /** ACCESS-TIMESTAMP exactly as sent (decimal unix seconds). */
    timestamp: string | number;
    /** Raw request body; empty string or undefined when there is none. Bytes are signed as they are. */
    body?: string | Uint8Array;
}
/** The parts of the string to sign that come before the body. */
export declare function signaturePrefix(parts: SignatureParts): string;
/** Current unix time in whole seconds. */
export declare function unixSeconds(nowMs?: number): number;
/** A client's secret prepared once (HMAC key schedule done), to sign every call with. */
export interface PreparedSecret {
    readonly hmacBase: ReturnType<typeof hmac.create>;
}
export declare function prepareSecret(secret: string): PreparedSecret;
/** ACCESS-SIGN of these parts, computed in pure JavaScript. */
export declare function portableSignature(secret: string | PreparedSecret, parts: SignatureParts): string;
/** The three authentication headers for one request, signed with the portable HMAC. */
export declare function signedHeaders(input: {
    apiKey: string;
    secret: string | PreparedSecret;
    method: string;
    path: string;
    body?: string | Uint8Array;
    timestamp?: number | string;
}): Record<string, string>;
