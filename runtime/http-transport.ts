// HTTP transport of the wallet API client, on undici (or a fetch). One job: send one signed request (with retries
// for idempotent calls) and hand back status, headers, parsed JSON and the raw text as evidence.
// It never follows redirects and never reads more than maxResponseBytes of a body.
import { walletApiBaseUrl } from "./base-url.ts";
import { getGlobalDispatcher, type Dispatcher } from "undici";
import { signingKey, signRequest, unixSeconds } from "./hmac.ts";
import { BodyTooLarge, DeadlineExceeded, declaresMoreThan, exchange, type RawResponse } from "./http-exchange.ts";
import { TransportError } from "./errors.ts";
import { backoffDelayMs, retryAfterMs, retryPolicy, sleep, type RetryOutcome, type RetryPolicy } from "./retry.ts";

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

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

/**
 * The standard fetch where undici has no working dispatcher (Bun's undici module is a stand-in
 * whose dispatcher cannot dispatch); Node and Deno keep the faster undici path.
 */
function defaultFetch(options: TransportOptions): FetchLike | undefined {
  if (options.fetch !== undefined || options.dispatcher !== undefined) return options.fetch;
  return typeof (getGlobalDispatcher() as Partial<Dispatcher>).dispatch === "function" ? undefined : (globalThis.fetch as unknown as FetchLike);
}

export function createTransport(options: TransportOptions): Transport {
  const fetchVia = defaultFetch(options);
  const base = new URL(walletApiBaseUrl(options.baseUrl));
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
    if (fetchVia !== undefined) return sendViaFetch(fetchVia, sent, body, timeoutMs, signal);
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
    const sentPath = fetchVia !== undefined ? new URL(url).pathname : path;
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

