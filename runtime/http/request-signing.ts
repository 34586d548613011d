// HMAC request signing of the wallet API on every runtime (Node, Deno, Bun, edge, browser), with no
// static import of a Node module and no Buffer, so the client path bundles for any platform:
//   string to sign = method=<METHOD>&path=<path, no query>&timestamp=<as sent>&body=<raw body>
//   ACCESS-SIGN    = base64( lowercase_hex( HMAC-SHA256(utf8(secret), string to sign) ) )
// node:crypto's HMAC where process.getBuiltinModule offers it (Node 20.16+, Bun; synchronous and the
// fastest), else Web Crypto's (browsers, Deno, edge runtimes). runtime/http/hmac.ts keeps the node:crypto
// version the server verifies with.

/** Header names of the scheme, as the spec spells them. */
export const HMAC_HEADERS = {
  key: "ACCESS-API-KEY",
  timestamp: "ACCESS-TIMESTAMP",
  signature: "ACCESS-SIGN",
} as const;

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
export function signaturePrefix(parts: SignatureParts): string {
  return `method=${parts.method.toUpperCase()}&path=${parts.path}&timestamp=${String(parts.timestamp)}&body=`;
}

/** Current unix time in whole seconds. */
export function unixSeconds(nowMs: number = Date.now()): number {
  return Math.floor(nowMs / 1000);
}

// 16 digits covers every safe integer; longer values are rejected before Number() loses precision.
const TIMESTAMP_PATTERN = /^[0-9]{1,16}$/;

/** Parses ACCESS-TIMESTAMP (and webhook-timestamp): decimal digits only (no sign, no fraction, no spaces). */
export function parseTimestamp(raw: string | undefined | null): number | undefined {
  if (typeof raw !== "string" || !TIMESTAMP_PATTERN.test(raw)) return undefined;
  return Number(raw);
}

interface NodeHmac {
  createHmac(
    algorithm: string,
    key: object,
  ): {
    update(data: string | Uint8Array): { update(data: string | Uint8Array): unknown };
    digest(encoding: "hex"): string;
  };
  createSecretKey(key: Uint8Array): object;
}
const nodeCrypto = (
  globalThis as { process?: { getBuiltinModule?: (name: string) => unknown } }
).process?.getBuiltinModule?.("node:crypto") as NodeHmac | undefined;
const utf8 = new TextEncoder();
/**
 * Web Crypto's key type, named through the global `crypto` rather than as `CryptoKey`: that name is the
 * DOM library's, and a Node project compiling this file with `"lib": ["ES2022"]` and @types/node has
 * no such global (@types/node types `crypto.subtle` itself).
 */
type WebKey = Awaited<ReturnType<typeof globalThis.crypto.subtle.importKey>>;

/** A client's secret prepared once (key imported), to sign every call with. */
export interface PreparedSecret {
  readonly nodeKey?: object;
  readonly webKey?: Promise<WebKey>;
}

/** `useNode` false forces Web Crypto (tests compare both). */
export function prepareSecret(secret: string, useNode: boolean = nodeCrypto !== undefined): PreparedSecret {
  const key = utf8.encode(secret);
  if (useNode && nodeCrypto !== undefined) return { nodeKey: nodeCrypto.createSecretKey(key) };
  const webKey = globalThis.crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  // Reported when a request is signed, not as an unhandled rejection at construction.
  webKey.catch(() => undefined);
  return { webKey };
}

function hex(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i++) out += bytes[i].toString(16).padStart(2, "0");
  return out;
}

/**
 * ACCESS-SIGN of these parts: synchronously with node:crypto when the secret was prepared with it,
 * else a promise of Web Crypto's. (The hex digest is ASCII, so btoa encodes exactly its UTF-8 bytes.)
 */
export function portableSignature(secret: string | PreparedSecret, parts: SignatureParts): string | Promise<string> {
  const prepared = typeof secret === "string" ? prepareSecret(secret) : secret;
  const body = parts.body ?? "";
  if (prepared.nodeKey !== undefined && nodeCrypto !== undefined) {
    const mac = nodeCrypto.createHmac("sha256", prepared.nodeKey);
    mac.update(signaturePrefix(parts)).update(body);
    return btoa((mac as unknown as { digest(encoding: "hex"): string }).digest("hex"));
  }
  return webSignature(prepared.webKey as Promise<WebKey>, signaturePrefix(parts), body);
}

async function webSignature(key: Promise<WebKey>, prefixText: string, body: string | Uint8Array): Promise<string> {
  const prefix = utf8.encode(prefixText);
  const tail = typeof body === "string" ? utf8.encode(body) : body;
  const message = new Uint8Array(prefix.length + tail.length);
  message.set(prefix, 0);
  message.set(tail, prefix.length);
  return btoa(hex(new Uint8Array(await globalThis.crypto.subtle.sign("HMAC", await key, message))));
}

/** The three authentication headers for one request (synchronously where the signature is). */
export function signedHeaders(input: {
  apiKey: string;
  secret: string | PreparedSecret;
  method: string;
  path: string;
  body?: string | Uint8Array;
  timestamp?: number | string;
}): Record<string, string> | Promise<Record<string, string>> {
  const timestamp = String(input.timestamp ?? unixSeconds());
  const queryAt = input.path.indexOf("?");
  const path = queryAt === -1 ? input.path : input.path.slice(0, queryAt);
  const headers = (signature: string) => ({
    [HMAC_HEADERS.key]: input.apiKey,
    [HMAC_HEADERS.timestamp]: timestamp,
    [HMAC_HEADERS.signature]: signature,
  });
  const signature = portableSignature(input.secret, { method: input.method, path, timestamp, body: input.body });
  return typeof signature === "string" ? headers(signature) : signature.then(headers);
}
