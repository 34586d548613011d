// Node-access API keys: taken from `authorization: APIKEY <key>` (scheme case-insensitive) or, when no
// such header is sent, from the `api_key` query parameter — the only option for browser WebSockets and
// Substrate-style clients. Keys are compared in constant time.
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** The accepted keys: a (live, mutable) set, or a predicate supplied by the deployment. */
export type ApiKeys = ReadonlySet<string> | ((key: string) => boolean);

const APIKEY_SCHEME = /^apikey[ \t]+(\S+)[ \t]*$/i;

/** The key a request presents, or undefined. */
export function presentedKey(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (header !== undefined) {
    const match = APIKEY_SCHEME.exec(header);
    if (match) return match[1];
  }
  const url = req.url ?? "";
  const q = url.indexOf("?");
  if (q < 0) return undefined;
  return new URLSearchParams(url.slice(q + 1)).get("api_key") ?? undefined;
}

/** Builds the check `(key) => accepted`. With a set, every key is compared (no early exit). */
export function createKeyCheck(apiKeys: ApiKeys): (key: string | undefined) => boolean {
  if (typeof apiKeys === "function") return (key) => key !== undefined && key !== "" && apiKeys(key);
  const digests = new Map<string, Buffer>();
  return (key) => {
    if (key === undefined || key === "") return false;
    if (digests.size > apiKeys.size + 64) digests.clear(); // forget digests of removed keys
    // Comparing SHA-256 digests keeps lengths equal, so neither content nor length leaks through timing.
    const candidate = sha256(key);
    let ok = false;
    for (const allowed of apiKeys) {
      let digest = digests.get(allowed);
      if (!digest) {
        digest = sha256(allowed);
        digests.set(allowed, digest);
      }
      if (timingSafeEqual(candidate, digest)) ok = true;
    }
    return ok;
  };
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
