// Reading and decoding request bodies: a byte limit, strict UTF-8, JSON with a nesting limit.
import type { IncomingMessage } from "node:http";

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;
export const DEFAULT_MAX_JSON_DEPTH = 64;

export type BodyReadResult = { ok: true; bytes: Buffer } | { ok: false; reason: "too_large" | "aborted" };

/**
 * After a refusal the rest of the body is read and thrown away, so that the client, still sending,
 * receives the 413 instead of a reset connection; beyond this many bytes the connection is cut instead.
 */
const MAX_DRAIN_BYTES = 16 * 1024 * 1024;

function drain(req: IncomingMessage): void {
  let drained = 0;
  req.on("data", (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > MAX_DRAIN_BYTES) req.destroy();
  });
  req.resume();
}

/** What readBody gives for a request without a body. */
export const EMPTY_BODY: BodyReadResult = Object.freeze({ ok: true, bytes: Buffer.alloc(0) });

/**
 * Whether the request carries a body at all: in HTTP/1.1 only content-length or transfer-encoding
 * announce one (RFC 9112 6.3), and node's parser frames requests the same way.
 */
export function hasBody(req: IncomingMessage): boolean {
  return req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined;
}

/**
 * Reads the whole body, refusing more than `limit` bytes (by content-length up front, else while
 * streaming).
 */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyReadResult> {
  return new Promise((resolve) => {
    const declared = req.headers["content-length"];
    if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > limit) {
      drain(req);
      return resolve({ ok: false, reason: "too_large" });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: BodyReadResult) => {
      if (settled) return;
      settled = true;
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onAbort);
      req.off("aborted", onAbort);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        finish({ ok: false, reason: "too_large" });
        drain(req);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish({ ok: true, bytes: Buffer.concat(chunks, size) });
    const onAbort = () => finish({ ok: false, reason: "aborted" });
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onAbort);
    req.on("aborted", onAbort);
  });
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The body as text, or undefined when it is not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** True when arrays/objects nest deeper than `max` (strings are skipped, so brackets inside them do not count). */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

export type JsonBodyResult = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * Turns raw bytes into the value handed to the body schema. An empty body becomes undefined, so the
 * schema decides whether the body is optional.
 */
export function parseJsonBody(bytes: Uint8Array, maxDepth: number = DEFAULT_MAX_JSON_DEPTH): JsonBodyResult {
  if (bytes.length === 0) return { ok: true, value: undefined };
  const text = decodeUtf8(bytes);
  if (text === undefined) return { ok: false, message: "body: not valid UTF-8" };
  if (text.trim() === "") return { ok: true, value: undefined };
  if (jsonDepthExceeds(text, maxDepth))
    return { ok: false, message: `body: JSON nested deeper than ${maxDepth} levels` };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, message: "body: malformed JSON" };
  }
}
