// HTTP transport of the wallet API client, on undici. One job: send one signed request (with retries
// for idempotent calls) and hand back status, headers, parsed JSON and the raw text as evidence.
// It never follows redirects and never reads more than maxResponseBytes of a body.
import { getGlobalDispatcher, type Dispatcher } from "undici";
import { signingKey, signRequest, unixSeconds } from "./hmac.ts";
import { BodyTooLarge, DeadlineExceeded, declaresMoreThan, exchange, type RawResponse } from "./http-exchange.ts";
import { isEnvelope } from "./envelope.ts";
import { ApiError } from "./errors.ts";

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

export interface RetryOutcome {
  /** HTTP status when a response arrived. */
  status?: number;
  /** The TransportError when none did. */
  error?: unknown;
  /** 1 for the first attempt. */
  attempt: number;
}

export interface RetryPolicy {
  /** Extra attempts after the first. */
  retries: number;
  minDelayMs: number;
  maxDelayMs: number;
  /** Whether this outcome is worth another attempt (only ever asked for idempotent calls). */
  retryOn: (outcome: RetryOutcome) => boolean;
}

/** Network errors and timeouts, 429 and 5xx are worth retrying; anything else is an answer. */
export function defaultRetryOn(outcome: RetryOutcome): boolean {
  if (outcome.status !== undefined) return outcome.status === 429 || outcome.status >= 500;
  return outcome.error instanceof TransportError && (outcome.error.kind === "network" || outcome.error.kind === "timeout");
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  retries: 2,
  minDelayMs: 100,
  maxDelayMs: 2000,
  retryOn: defaultRetryOn,
});

/** Exponential backoff with full jitter: a random delay in [0, min(max, min * 2^(attempt-1))]. */
export function backoffDelayMs(policy: Pick<RetryPolicy, "minDelayMs" | "maxDelayMs">, attempt: number, random = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.minDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

export type TransportErrorKind = "network" | "timeout" | "too_large" | "aborted";

/** The request got no usable response: what went wrong, on which request, after how many attempts. */
export class TransportError extends Error {
  readonly kind: TransportErrorKind;
  readonly method: string;
  readonly url: string;
  attempts = 1;

  constructor(kind: TransportErrorKind, message: string, request: { method: string; url: string }, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "TransportError";
    this.kind = kind;
    this.method = request.method;
    this.url = request.url;
  }
}

/** The subset of the Fetch API the transport uses, so undici's fetch, the global fetch or a fake fit. */
export type FetchLike = (
  url: string,
  init: {
    method: string;
    headers: Record<string, string>;
    body?: string | Uint8Array;
    redirect: "manual";
    signal: AbortSignal;
    dispatcher?: Dispatcher;
  },
) => Promise<{
  status: number;
  headers: { forEach(callback: (value: string, key: string) => void): void };
  body: ReadableStream<Uint8Array> | null;
}>;

export interface TransportOptions {
  /** Origin plus an optional path prefix, e.g. http://127.0.0.1:8080 */
  baseUrl: string;
  /** Without key and secret requests go unsigned. */
  apiKey?: string;
  apiSecret?: string;
  /** Per attempt, covering headers and body. */
  timeoutMs?: number;
  /** Partial overrides of DEFAULT_RETRY_POLICY, or false for no retries at all. */
  retry?: Partial<RetryPolicy> | false;
  dispatcher?: Dispatcher;
  /** When given, requests go through this fetch instead of the undici dispatcher. */
  fetch?: FetchLike;
  maxResponseBytes?: number;
  /** Sent with every request (signed headers and per-request headers take precedence). */
  headers?: Record<string, string>;
  /** Unix seconds used for ACCESS-TIMESTAMP; defaults to the clock. */
  now?: () => number;
  /**
   * Whether generated client methods check answers against the spec's response schemas (default
   * true; runtime/client-call.ts reads it). The transport itself never validates.
   */
  validateResponses?: boolean;
}

export type QueryValue = string | number | boolean | undefined | null | readonly (string | number | boolean)[];

export interface TransportRequest {
  method: string;
  /** Path under baseUrl (starting with /), already percent-encoded; sent and signed exactly like this. */
  path: string;
  query?: Record<string, QueryValue>;
  /** A string or bytes are sent as they are; anything else is serialized as JSON once. */
  body?: unknown;
  /** Applied after signing; a value of undefined removes the header (conformance uses this to tamper). */
  headers?: Record<string, string | undefined>;
  /** Defaults to true for GET/HEAD/PUT/DELETE/OPTIONS and for calls carrying an Idempotency-Key. */
  idempotent?: boolean;
  /** Defaults to true when the transport has credentials. */
  sign?: boolean;
  /** Overrides ACCESS-TIMESTAMP (e.g. to send a stale one). */
  timestamp?: number | string;
  timeoutMs?: number;
  signal?: AbortSignal;
  retry?: Partial<RetryPolicy> | false;
}

/** What was sent, for evidence. Holds no secret: the API secret never leaves signRequest. */
export interface SentRequest {
  method: string;
  url: string;
  /** The path as sent and signed (no query). */
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

export interface TransportResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Parsed JSON, or undefined when the body is empty or not JSON. */
  body: unknown;
  text: string;
  requestId: string | undefined;
  attempts: number;
  request: SentRequest;
}

export interface Transport {
  request(request: TransportRequest): Promise<TransportResponse>;
  readonly baseUrl: string;
  /** See TransportOptions.validateResponses; absent means true. */
  readonly validateResponses?: boolean;
}

const ACCEPT_JSON_HEADER: Readonly<Record<string, string>> = Object.freeze({ accept: "application/json" });
const JSON_CONTENT_TYPE_HEADER: Readonly<Record<string, string>> = Object.freeze({ "content-type": "application/json" });

const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);

function hasHeader(headers: Record<string, string | undefined> | undefined, name: string): boolean {
  if (headers === undefined) return false;
  return Object.keys(headers).some((key) => key.toLowerCase() === name && headers[key] !== undefined);
}

export function isIdempotentRequest(request: Pick<TransportRequest, "method" | "headers" | "idempotent">): boolean {
  if (request.idempotent !== undefined) return request.idempotent;
  return IDEMPOTENT_METHODS.has(request.method.toUpperCase()) || hasHeader(request.headers, "idempotency-key");
}

/** Sets headers case-insensitively: a later name replaces an earlier one of any case; undefined removes it. */
function mergeHeaders(...layers: (Record<string, string | undefined> | undefined)[]): Record<string, string> {
  const out: Record<string, string> = {};
  // Lower-case name → the spelling currently in `out`, so a replacement costs one lookup.
  const spelled = new Map<string, string>();
  for (const layer of layers) {
    if (layer === undefined) continue;
    for (const name in layer) {
      if (!Object.hasOwn(layer, name)) continue;
      const value = layer[name];
      const lower = name.toLowerCase();
      const existing = spelled.get(lower);
      if (existing !== undefined) delete out[existing];
      if (value === undefined) {
        spelled.delete(lower);
        continue;
      }
      out[name] = value;
      spelled.set(lower, name);
    }
  }
  return out;
}

export function buildQueryString(query: Record<string, QueryValue> | undefined): string {
  if (query === undefined) return "";
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) params.append(key, String(v));
  }
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}

function serializeBody(body: unknown): string | Uint8Array | undefined {
  if (body === undefined) return undefined;
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  return JSON.stringify(body);
}

function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Retry-After in seconds (the HTTP-date form is not worth the trouble here). */
function retryAfterMs(headers: Record<string, string>): number | undefined {
  const value = headers["retry-after"];
  return value !== undefined && /^\d{1,6}$/.test(value.trim()) ? Number(value.trim()) * 1000 : undefined;
}

/** Reads a Node or web stream up to `limit` bytes, then gives up with a clear error. */
async function readLimited(chunks: AsyncIterable<Uint8Array>, limit: number, onTooLarge: () => Error): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.length;
    if (size > limit) throw onTooLarge();
    parts.push(Buffer.from(chunk));
  }
  // Decoding the whole buffer once keeps multi-byte characters split across chunks intact.
  return Buffer.concat(parts).toString("utf8");
}

async function* webStreamChunks(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    // On early exit (too large, abort) this cancels the rest of the body.
    await reader.cancel().catch(() => {});
  }
}

export function createTransport(options: TransportOptions): Transport {
  const base = new URL(options.baseUrl);
  const origin = base.origin;
  const basePath = base.pathname.replace(/\/+$/, "");
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const now = options.now ?? (() => unixSeconds());
  // The transport's own policy, built once; a per-request override builds its own.
  const transportPolicy = retryPolicy(options.retry);
  // The secret prepared once: every call signs with it.
  const secret = options.apiSecret === undefined ? undefined : signingKey(options.apiSecret);

  /** Through the injected fetch: web streams and an AbortSignal for the deadline. */
  async function sendViaFetch(fetch: FetchLike, sent: SentRequest, body: string | Uint8Array | undefined, timeoutMs: number, external: AbortSignal | undefined): Promise<RawResponse> {
    const tooLarge = () => new BodyTooLarge(maxBytes);
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = external === undefined ? timeout : AbortSignal.any([timeout, external]);
    try {
      const init = { method: sent.method, headers: sent.headers, body, redirect: "manual" as const, signal, dispatcher: options.dispatcher };
      const res = await fetch(sent.url, init);
      const headers: Record<string, string> = {};
      res.headers.forEach((value, key) => (headers[key.toLowerCase()] = value));
      if (declaresMoreThan(headers, maxBytes)) throw tooLarge();
      const text = res.body === null ? "" : await readLimited(webStreamChunks(res.body), maxBytes, tooLarge);
      return { status: res.status, headers, text };
    } catch (error) {
      if (timeout.aborted && !(error instanceof BodyTooLarge) && !external?.aborted) throw new DeadlineExceeded(timeoutMs);
      throw error;
    }
  }

  function sendOnce(sent: SentRequest, body: string | Uint8Array | undefined, timeoutMs: number, signal: AbortSignal | undefined): Promise<RawResponse> {
    if (options.fetch !== undefined) return sendViaFetch(options.fetch, sent, body, timeoutMs, signal);
    return exchange({
      dispatcher: options.dispatcher ?? getGlobalDispatcher(),
      origin,
      path: sent.url.slice(origin.length),
      method: sent.method,
      headers: sent.headers,
      body,
      timeoutMs,
      signal,
      maxBytes,
    });
  }

  async function attempt(request: TransportRequest, body: string | Uint8Array | undefined, attemptNo: number): Promise<{ raw: RawResponse; sent: SentRequest }> {
    const method = request.method.toUpperCase();
    const path = basePath + request.path;
    const url = origin + path + buildQueryString(request.query);
    // fetch normalizes the URL it is given, so sign what it will actually send.
    const sentPath = options.fetch !== undefined ? new URL(url).pathname : path;
    const shouldSign = (request.sign ?? true) && options.apiKey !== undefined && secret !== undefined;
    const signed = shouldSign
      ? signRequest({
          apiKey: options.apiKey as string,
          apiSecret: secret,
          method,
          path: sentPath,
          body,
          timestamp: request.timestamp ?? now(),
        })
      : undefined;
    const contentType = body === undefined ? undefined : JSON_CONTENT_TYPE_HEADER;
    // Without caller headers the layers' names cannot collide (accept, content-type, ACCESS-*): no merge needed.
    const headers =
      options.headers === undefined && request.headers === undefined
        ? { ...ACCEPT_JSON_HEADER, ...contentType, ...signed }
        : mergeHeaders(ACCEPT_JSON_HEADER, options.headers, contentType, signed, request.headers);
    const bodyText = body === undefined ? undefined : typeof body === "string" ? body : Buffer.from(body).toString("utf8");
    const sent: SentRequest = { method, url, path: sentPath, headers, body: bodyText };

    const timeoutMs = request.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    try {
      return { raw: await sendOnce(sent, body, timeoutMs, request.signal), sent };
    } catch (error) {
      if (error instanceof BodyTooLarge) throw new TransportError("too_large", error.message, sent);
      if (request.signal?.aborted) throw new TransportError("aborted", `${method} ${url} was aborted`, sent, error);
      if (error instanceof DeadlineExceeded) throw new TransportError("timeout", `${method} ${url} timed out after ${timeoutMs} ms (attempt ${attemptNo})`, sent, error);
      const reason = error instanceof Error ? error.message : String(error);
      throw new TransportError("network", `${method} ${url} failed: ${reason}`, sent, error);
    }
  }

  async function request(request: TransportRequest): Promise<TransportResponse> {
    const policy = request.retry === undefined ? transportPolicy : retryPolicy(request.retry);
    const maxAttempts = isIdempotentRequest(request) ? 1 + Math.max(0, policy.retries) : 1;
    // Serialized once: every attempt signs and sends these same bytes.
    const body = serializeBody(request.body);

    for (let attemptNo = 1; ; attemptNo++) {
      let outcome: RetryOutcome;
      let wait: number | undefined;
      try {
        const { raw, sent } = await attempt(request, body, attemptNo);
        const response: TransportResponse = {
          status: raw.status,
          headers: raw.headers,
          body: parseJson(raw.text),
          text: raw.text,
          requestId: raw.headers["x-request-id"],
          attempts: attemptNo,
          request: sent,
        };
        outcome = { status: raw.status, attempt: attemptNo };
        if (attemptNo >= maxAttempts || !policy.retryOn(outcome)) return response;
        wait = retryAfterMs(raw.headers);
      } catch (error) {
        if (error instanceof TransportError) error.attempts = attemptNo;
        outcome = { error, attempt: attemptNo };
        if (attemptNo >= maxAttempts || !policy.retryOn(outcome)) throw error;
      }
      const delay = Math.min(wait ?? backoffDelayMs(policy, attemptNo), policy.maxDelayMs);
      await sleep(delay, request.signal);
    }
  }

  return { request, baseUrl: origin + basePath, validateResponses: options.validateResponses ?? true };
}

function retryPolicy(override: Partial<RetryPolicy> | false | undefined): RetryPolicy {
  return override === false ? { ...DEFAULT_RETRY_POLICY, retries: 0 } : { ...DEFAULT_RETRY_POLICY, ...override };
}

/**
 * The data of a success envelope, or an ApiError carrying status, code, message and request id.
 * `expectedStatus` (the operation's declared success status) makes any other 2xx an error too.
 */
export function unwrapEnvelope<T = unknown>(response: TransportResponse, expectedStatus?: number): T {
  const { status, body, requestId } = response;
  const statusOk = expectedStatus === undefined ? status >= 200 && status < 300 : status === expectedStatus;
  if (isEnvelope(body)) {
    if (body.success && statusOk) return body.data as T;
    const code = body.success ? "unexpected_status" : body.code;
    const message = body.success ? `unexpected HTTP status ${status}` : body.message;
    throw new ApiError(status, code, message, { requestId, body });
  }
  throw new ApiError(status, "invalid_response", `HTTP ${status}: the response is not an envelope`, {
    requestId,
    body: body ?? response.text,
  });
}
