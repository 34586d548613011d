// One raw HTTP exchange as the transport sees it, whatever carries it (the standard fetch by default,
// undici's dispatcher on Node when asked for): what goes in, what comes out, and the two ways it ends
// early. No Node API here, so the client path runs on every runtime.

export interface RawResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  text: string;
}

export interface RawSendInput {
  /** Absolute URL with the query. */
  url: string;
  origin: string;
  /** Path and query, as sent. */
  pathAndQuery: string;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  /** Whole exchange: connection, headers and body. */
  timeoutMs: number;
  signal?: AbortSignal;
  maxBytes: number;
}

/** Sends one request and collects the whole answer (never follows redirects, never holds more than maxBytes). */
export type RawSend = (input: RawSendInput) => Promise<RawResponse>;

/** The body is larger than maxBytes, declared or received (the caller words the error). */
export class BodyTooLarge extends Error {
  constructor(maxBytes: number) {
    super(`response body exceeds ${maxBytes} bytes`);
    this.name = "BodyTooLarge";
  }
}

/** The exchange's own deadline passed (the caller words the error). */
export class DeadlineExceeded extends Error {
  constructor(timeoutMs: number) {
    super(`no complete response within ${timeoutMs} ms`);
    this.name = "DeadlineExceeded";
  }
}

/** True when content-length announces more than `limit` bytes. */
export function declaresMoreThan(headers: Record<string, string>, limit: number): boolean {
  const declared = headers["content-length"];
  return declared !== undefined && /^\d+$/.test(declared) && Number(declared) > limit;
}

/** Lower-case names, repeated headers joined with ", " (the shape TransportResponse promises). */
export function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || !Object.hasOwn(headers, name)) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}
