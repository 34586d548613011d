// HMAC request signing of the wallet API on every runtime (Node, Deno, Bun, edge, browser): pure
// JavaScript (@noble/hashes), no node:crypto and no Buffer, so the client path bundles for any platform.
//   string to sign = method=<METHOD>&path=<path, no query>&timestamp=<as sent>&body=<raw body>
//   ACCESS-SIGN    = base64( lowercase_hex( HMAC-SHA256(utf8(secret), string to sign) ) )
// runtime/hmac.ts keeps the node:crypto version for the server side, where verifying is the hot path.
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
/** Header names of the scheme, as the spec spells them. */
export const HMAC_HEADERS = {
    key: "ACCESS-API-KEY",
    timestamp: "ACCESS-TIMESTAMP",
    signature: "ACCESS-SIGN",
};
/** The parts of the string to sign that come before the body. */
export function signaturePrefix(parts) {
    return `method=${parts.method.toUpperCase()}&path=${parts.path}&timestamp=${String(parts.timestamp)}&body=`;
}
/** Current unix time in whole seconds. */
export function unixSeconds(nowMs = Date.now()) {
    return Math.floor(nowMs / 1000);
}
export function prepareSecret(secret) {
    return { hmacBase: hmac.create(sha256, utf8ToBytes(secret)) };
}
/** ACCESS-SIGN of these parts, computed in pure JavaScript. */
export function portableSignature(secret, parts) {
    const mac = (typeof secret === "string" ? prepareSecret(secret) : secret).hmacBase.clone();
    mac.update(utf8ToBytes(signaturePrefix(parts)));
    const body = parts.body ?? "";
    mac.update(typeof body === "string" ? utf8ToBytes(body) : body);
    // The hex digest is ASCII, so btoa encodes exactly its UTF-8 bytes.
    return btoa(bytesToHex(mac.digest()));
}
/** The three authentication headers for one request, signed with the portable HMAC. */
export function signedHeaders(input) {
    const timestamp = String(input.timestamp ?? unixSeconds());
    const queryAt = input.path.indexOf("?");
    const path = queryAt === -1 ? input.path : input.path.slice(0, queryAt);
    return {
        [HMAC_HEADERS.key]: input.apiKey,
        [HMAC_HEADERS.timestamp]: timestamp,
        [HMAC_HEADERS.signature]: portableSignature(input.secret, { method: input.method, path, timestamp, body: input.body }),
    };
}
//# sourceMappingURL=request-signing.js.map