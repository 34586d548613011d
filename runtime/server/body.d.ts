import type { IncomingMessage } from "node:http";
export declare const DEFAULT_BODY_LIMIT_BYTES: number;
export declare const DEFAULT_MAX_JSON_DEPTH = 64;
export type BodyReadResult = {
    ok: true;
    bytes: Buffer;
} | {
    ok: false;
    reason: "too_large" | "aborted";
};
/** What readBody gives for a request without a body. */
export declare const EMPTY_BODY: BodyReadResult;
/**
 * Whether the request carries a body at all: in HTTP/1.1 only content-length or transfer-encoding
 * announce one (RFC 9112 6.3), and node's parser frames requests the same way.
 */
export declare function hasBody(req: IncomingMessage): boolean;
/**
 * Reads the whole body, refusing more than `limit` bytes (by content-length up front, else while
 * streaming).
 */
export declare function readBody(req: IncomingMessage, limit: number): Promise<BodyReadResult>;
/** The body as text, or undefined when it is not valid UTF-8. */
export declare function decodeUtf8(bytes: Uint8Array): string | undefined;
/** True when arrays/objects nest deeper than `max` (strings are skipped, so brackets inside them do not count). */
export declare function jsonDepthExceeds(text: string, max: number): boolean;
export type JsonBodyResult = {
    ok: true;
    value: unknown;
} | {
    ok: false;
    message: string;
};
/**
 * Turns raw bytes into the value handed to the body schema. An empty body becomes undefined, so the
 * schema decides whether the body is optional.
 */
export declare function parseJsonBody(bytes: Uint8Array, maxDepth?: number): JsonBodyResult;
