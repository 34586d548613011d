// HMAC authentication of one request. Every failure returns undefined and the caller sends the one
// identical 401; the work done does not depend on whether the key id exists.
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { HMAC_HEADERS, HMAC_WINDOW_SECONDS, isWithinWindow, parseTimestamp, verifySignature } from "../http/hmac.ts";
import type { AuthContext, KeyRecord } from "./types.ts";

// Used for unknown key ids so that they cost the same HMAC as known ones. Random per process, so it
// can never match a real signature.
const DUMMY_SECRET = randomBytes(32).toString("base64");

// Generous bounds that keep absurd header values away from the key store.
const MAX_KEY_ID_LENGTH = 256;
const MAX_SIGNATURE_LENGTH = 512;

export interface AuthenticateInput {
  req: IncomingMessage;
  /** Raw request path without the query string, exactly as received. */
  path: string;
  body: Uint8Array;
  resolveKey: (keyId: string) => Promise<KeyRecord | undefined> | KeyRecord | undefined;
  nowSeconds: number;
  windowSeconds?: number;
}

/**
 * The value of a header that must appear exactly once with a non-empty value; undefined otherwise.
 * rawHeaders is used because node folds repeated headers into one comma-joined string.
 */
export function singleHeader(req: IncomingMessage, name: string): string | undefined {
  const wanted = name.toLowerCase();
  let found: string | undefined;
  let count = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i].toLowerCase() !== wanted) continue;
    count++;
    found = req.rawHeaders[i + 1];
  }
  return count === 1 && found !== undefined && found !== "" ? found : undefined;
}

const KEY_HEADER = HMAC_HEADERS.key.toLowerCase();
const TIMESTAMP_HEADER = HMAC_HEADERS.timestamp.toLowerCase();
const SIGNATURE_HEADER = HMAC_HEADERS.signature.toLowerCase();

/** The three authentication headers, each as singleHeader reads it, in one pass over rawHeaders. */
export function authHeaders(req: IncomingMessage): { keyId?: string; timestamp?: string; signature?: string } {
  const raw = req.rawHeaders;
  let keyId: string | undefined;
  let timestamp: string | undefined;
  let signature: string | undefined;
  let keyCount = 0;
  let timestampCount = 0;
  let signatureCount = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    // Lengths first: most headers are skipped without lower-casing their names.
    if (
      name.length !== KEY_HEADER.length &&
      name.length !== TIMESTAMP_HEADER.length &&
      name.length !== SIGNATURE_HEADER.length
    )
      continue;
    const lower = name.toLowerCase();
    if (lower === KEY_HEADER) {
      keyCount++;
      keyId = raw[i + 1];
    } else if (lower === TIMESTAMP_HEADER) {
      timestampCount++;
      timestamp = raw[i + 1];
    } else if (lower === SIGNATURE_HEADER) {
      signatureCount++;
      signature = raw[i + 1];
    }
  }
  return {
    keyId: sentOnce(keyCount, keyId),
    timestamp: sentOnce(timestampCount, timestamp),
    signature: sentOnce(signatureCount, signature),
  };
}

/** The value of a header seen `count` times: kept only when it came exactly once and is not empty. */
function sentOnce(count: number, value: string | undefined): string | undefined {
  return count === 1 && value !== undefined && value !== "" ? value : undefined;
}

export async function authenticate(input: AuthenticateInput): Promise<AuthContext | undefined> {
  const { keyId, timestamp: rawTimestamp, signature } = authHeaders(input.req);
  if (keyId === undefined || rawTimestamp === undefined || signature === undefined) return undefined;
  if (keyId.length > MAX_KEY_ID_LENGTH || signature.length > MAX_SIGNATURE_LENGTH) return undefined;

  const timestamp = parseTimestamp(rawTimestamp);
  const fresh =
    timestamp !== undefined && isWithinWindow(timestamp, input.nowSeconds, input.windowSeconds ?? HMAC_WINDOW_SECONDS);
  const key = await input.resolveKey(keyId);
  const parts = { method: input.req.method ?? "", path: input.path, timestamp: rawTimestamp, body: input.body };
  // Always one HMAC and one constant-time compare, with the dummy secret when the key is unknown.
  const signatureOk = verifySignature(key?.secret ?? DUMMY_SECRET, parts, signature);
  if (key === undefined || !fresh || !signatureOk) return undefined;
  return { keyId: key.keyId, role: key.role, scopes: key.scopes, workspaceId: key.workspaceId };
}
