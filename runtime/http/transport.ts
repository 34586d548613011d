// HTTP transport of the wallet API client, on the standard fetch (every runtime) or on any RawSend (Node's
// undici dispatcher through runtime/http/exchange.ts). One job: send one signed request, with retries
// for requests safe to repeat (within a deadline over all attempts), through the caller's middleware,
// and hand back status, headers, parsed JSON and the raw text as evidence.
// It never follows redirects and never reads more than maxResponseBytes of a body. No Node API here.

import { TimeoutError, TransportError, transportError } from "../errors.ts";
import { walletApiBaseUrl } from "./base-url.ts";
import {
  type ClientLogger,
  defaultClientLogger,
  enabled,
  type LogLevel,
  redactBody,
  redactHeaders,
  resolveLogLevel,
} from "./client-log.ts";
import {
  BodyTooLarge,
  DeadlineExceeded,
  declaresMoreThan,
  type RawResponse,
  type RawSend,
  type RawSendInput,
} from "./raw.ts";
import { prepareSecret, signedHeaders, unixSeconds } from "./request-signing.ts";
import { nextDelayMs, type RetryOutcome, type RetryPolicy, retryPolicy, sleep } from "./retry.ts";

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/** The subset of the Fetch API the transport uses, so the global fetch, undici's fetch or a fake fit. */
export type FetchLike = (
  url: string,
  init: {
    method: string;
    headers: Record<string, string>;
    body?: string | Uint8Array;
    redirect: "manual";
    signal: AbortSignal;
    dispatcher?: unknown;
  },
) => Promise<{
  status: number;
  headers: { forEach(callback: (value: string, key: string) => void): void };
  body: ReadableStream<Uint8Array> | null;
  /** Used when the body's length is declared (cheaper than reading the stream by hand). */
  text?(): Promise<string>;
}>;

/** A request as middleware sees it, signed and about to go out. Headers may be changed; the body may not (it is signed). */
export interface MiddlewareRequest {
  readonly method: string;
  readonly url: string;
  headers: Record<string, string>;
  readonly body: string | undefined;
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** The operation being called, when the call came through a generated client method. */
  readonly operationId?: string;
}

/** What middleware gets back from `next`, and returns. */
export type MiddlewareResponse = RawResponse;

/** Around every attempt: look at or change the request, call next, look at or replace the response. */
export type Middleware = (
  request: MiddlewareRequest,
  next: (request: MiddlewareRequest) => Promise<MiddlewareResponse>,
) => Promise<MiddlewareResponse>;

export interface TransportOptions {
  /** Origin plus an optional path prefix, e.g. http://127.0.0.1:8080 */
  baseUrl: string;
  /** Without key and secret requests go unsigned. */
  apiKey?: string;
  apiSecret?: string;
  /** Per attempt, covering headers and body (default 10 s). */
  timeoutMs?: number;
  /** The same as timeoutMs (the name other SDKs use); timeoutMs wins when both are given. */
  timeout?: number;
  /** Over all attempts and the waits between them; none by default. */
  deadlineMs?: number;
  /** Retries after the first attempt (default 2); shorthand for retry.retries. */
  maxRetries?: number;
  /** Partial overrides of DEFAULT_RETRY_POLICY, or false for no retries at all. */
  retry?: Partial<RetryPolicy> | false;
  /**
   * Node tuning: an undici Dispatcher (Agent, Pool, ProxyAgent) handed to fetch. custody's Node
   * entry (runtime/http/client.ts) sends through it directly, without fetch.
   */
  dispatcher?: unknown;
  /** The fetch to send with (default: the runtime's global fetch). */
  fetch?: FetchLike;
  /** Lowest level: sends one exchange (used instead of fetch when given). */
  send?: RawSend;
  maxResponseBytes?: number;
  /** Sent with every request (signed headers and per-request headers take precedence). */
  headers?: Record<string, string>;
  /** Unix seconds used for ACCESS-TIMESTAMP; defaults to the clock. */
  now?: () => number;
  /**
   * Whether generated client methods check answers against the spec's response schemas (default
   * true; runtime/http/client-call.ts reads it). The transport itself never validates.
   */
  validateResponses?: boolean;
  /** Run around every attempt, first one outermost. */
  middleware?: readonly Middleware[];
  /** Where log lines go (default: console). */
  logger?: ClientLogger;
  /** Default: the CUSTODY_LOG_LEVEL environment variable, else "warn". debug shows every attempt. */
  logLevel?: LogLevel;
  /** Show request and response bodies in debug lines (members named like secrets still redacted). Default false. */
  logBodies?: boolean;
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
  /** Over all attempts of this request (overrides the transport's). */
  deadlineMs?: number;
  maxRetries?: number;
  signal?: AbortSignal;
  retry?: Partial<RetryPolicy> | false;
  /** For middleware and logs. */
  operationId?: string;
}

/** What was sent, for evidence. Holds no secret: the API secret never leaves the signing module. */
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
const JSON_CONTENT_TYPE_HEADER: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "application/json",
});

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
  // A regex scan stops at the first non-space character; trim() would copy the whole body first.
  if (!/\S/.test(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const utf8 = new TextDecoder("utf-8");

/** Reads a web stream up to `limit` bytes, then gives up (cancelling the rest of the body). */
async function readLimited(stream: ReadableStream<Uint8Array>, limit: number): Promise<string> {
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > limit) throw new BodyTooLarge(limit);
      parts.push(value);
    }
    finished = true;
  } finally {
    // On early exit (too large, abort) this cancels the rest of the body.
    if (!finished) await reader.cancel().catch(() => {});
  }
  if (parts.length === 1) return utf8.decode(parts[0]);
  // Decoding the whole body once keeps multi-byte characters split across chunks intact.
  const all = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return utf8.decode(all);
}

/**
 * Attempts that start within the same short window with the same timeout share one deadline signal
 * and one timer, expiring at most a window late (a twentieth of the timeout, 10 to 250 ms). An
 * AbortController of their own per attempt measured 12% of the client's own work (creating the signal
 * and making it transferable). fetch implementations raise a signal's listener limit themselves
 * (undici: to 1500), so many attempts can listen on one — but undici lists a signal's listeners on
 * every request and drops its own only when the request is garbage-collected, so a signal serves at
 * most SHARED_ATTEMPTS attempts (without the cap, 0.81 of raw fetch's throughput; with it, see bench/sdk.ts).
 */
const SHARED_ATTEMPTS = 32;
const deadlines = new Map<number, { signal: AbortSignal; uses: number }>();

function sharedDeadline(timeoutMs: number): AbortSignal {
  const grain = Math.min(250, Math.max(10, Math.floor(timeoutMs / 20)));
  const expiresAt = Math.ceil((Date.now() + timeoutMs) / grain) * grain;
  let shared = deadlines.get(expiresAt);
  if (shared === undefined || shared.uses >= SHARED_ATTEMPTS) {
    const controller = new AbortController();
    const current = { signal: controller.signal, uses: 0 };
    shared = current;
    deadlines.set(expiresAt, current);
    const timer = setTimeout(() => {
      if (deadlines.get(expiresAt) === current) deadlines.delete(expiresAt);
      controller.abort();
    }, expiresAt - Date.now());
    // Like AbortSignal.timeout's timer: a deadline alone does not keep the process alive (Node, Bun: unref; Deno: unrefTimer).
    if (typeof timer === "number")
      (globalThis as { Deno?: { unrefTimer?: (id: number) => void } }).Deno?.unrefTimer?.(timer);
    else (timer as { unref?: () => void }).unref?.();
  }
  shared.uses++;
  return shared.signal;
}

/** A RawSend over a fetch: web streams, and a deadline signal that aborts the attempt at its timeout. */
export function fetchSend(fetch: FetchLike, dispatcher?: unknown): RawSend {
  return async (input: RawSendInput): Promise<RawResponse> => {
    const external = input.signal;
    const deadline = sharedDeadline(input.timeoutMs);
    // With a caller's signal as well, the attempt listens to both.
    const signal = external === undefined ? deadline : AbortSignal.any([deadline, external]);
    try {
      const init = {
        method: input.method,
        headers: input.headers,
        body: input.body,
        redirect: "manual" as const,
        signal,
        ...(dispatcher === undefined ? {} : { dispatcher }),
      };
      const res = await fetch(input.url, init);
      const headers: Record<string, string> = {};
      res.headers.forEach((value, key) => (headers[key.toLowerCase()] = value));
      if (declaresMoreThan(headers, input.maxBytes)) {
        await res.body?.cancel().catch(() => {});
        throw new BodyTooLarge(input.maxBytes);
      }
      // A declared length within the limit bounds the body already; otherwise count while reading.
      const text =
        res.body === null
          ? ""
          : headers["content-length"] !== undefined && res.text !== undefined
            ? await res.text()
            : await readLimited(res.body, input.maxBytes);
      return { status: res.status, headers, text };
    } catch (error) {
      if (deadline.aborted && !(error instanceof BodyTooLarge) && !external?.aborted)
        throw new DeadlineExceeded(input.timeoutMs);
      throw error;
    }
  };
}

/** Paths fetch sends exactly as given (no dot segments, nothing to percent-encode): most of them. */
const PLAIN_PATH = /^(?:\/(?!\.\.?(?:\/|$))[A-Za-z0-9\-._~%!$&'()*+,;=:@]*)*\/?$/;

function bodyText(body: string | Uint8Array | undefined): string | undefined {
  return body === undefined ? undefined : typeof body === "string" ? body : utf8.decode(body);
}

/** What a transport decides once from its options; every call reads it. */
interface TransportSetup {
  readonly options: TransportOptions;
  readonly send: RawSend;
  readonly origin: string;
  readonly basePath: string;
  readonly maxBytes: number;
  readonly now: () => number;
  readonly defaultTimeoutMs: number;
  /** The transport's own policy, built once; a per-request override builds its own. */
  readonly transportPolicy: RetryPolicy;
  /** The secret prepared once: every call signs with it. */
  readonly secret: ReturnType<typeof prepareSecret> | undefined;
  readonly middleware: readonly Middleware[];
  readonly logLevel: LogLevel;
  readonly logger: ClientLogger;
  readonly debug: boolean;
}

export function createTransport(options: TransportOptions): Transport {
  const setup = transportSetup(options);
  return {
    request: (request) => sendRequest(setup, request),
    baseUrl: setup.origin + setup.basePath,
    validateResponses: options.validateResponses ?? true,
  };
}

function transportSetup(options: TransportOptions): TransportSetup {
  const send =
    options.send ?? fetchSend(options.fetch ?? (globalThis.fetch as unknown as FetchLike), options.dispatcher);
  const base = new URL(walletApiBaseUrl(options.baseUrl));
  const transportPolicy = policyOf(options.retry, options.maxRetries);
  if (options.apiSecret === "")
    throw new Error(
      "apiSecret is empty: give the API secret of the key (or leave out apiKey and apiSecret to send unsigned requests)",
    );
  const logLevel = resolveLogLevel(options.logLevel);
  return {
    options,
    send,
    origin: base.origin,
    basePath: base.pathname.replace(/\/+$/, ""),
    maxBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    now: options.now ?? (() => unixSeconds()),
    defaultTimeoutMs: options.timeoutMs ?? options.timeout ?? DEFAULT_TIMEOUT_MS,
    transportPolicy,
    secret: options.apiSecret === undefined ? undefined : prepareSecret(options.apiSecret),
    middleware: options.middleware ?? [],
    logLevel,
    logger: options.logger ?? defaultClientLogger(),
    debug: enabled(logLevel, "debug"),
  };
}

/** The request as it will be sent; a promise only where signing is asynchronous (Web Crypto). */
function signedRequest(
  t: TransportSetup,
  request: TransportRequest,
  body: string | Uint8Array | undefined,
): SentRequest | Promise<SentRequest> {
  const method = request.method.toUpperCase();
  const path = t.basePath + request.path;
  const url = t.origin + path + buildQueryString(request.query);
  // fetch normalizes the URL it is given, so sign what it will actually send.
  const sentPath = t.options.send !== undefined || PLAIN_PATH.test(path) ? path : new URL(url).pathname;
  const shouldSign = (request.sign ?? true) && t.options.apiKey !== undefined && t.secret !== undefined;
  const signed = shouldSign
    ? signedHeaders({
        apiKey: t.options.apiKey as string,
        secret: t.secret,
        method,
        path: sentPath,
        body,
        timestamp: request.timestamp ?? t.now(),
      })
    : undefined;
  return signed instanceof Promise
    ? signed.then((headers) => assemble(t, request, method, url, sentPath, body, headers))
    : assemble(t, request, method, url, sentPath, body, signed);
}

function assemble(
  t: TransportSetup,
  request: TransportRequest,
  method: string,
  url: string,
  sentPath: string,
  body: string | Uint8Array | undefined,
  signed: Record<string, string> | undefined,
): SentRequest {
  const contentType = body === undefined ? undefined : JSON_CONTENT_TYPE_HEADER;
  // Without caller headers the layers' names cannot collide (accept, content-type, ACCESS-*): no merge needed.
  const headers =
    t.options.headers === undefined && request.headers === undefined
      ? { ...ACCEPT_JSON_HEADER, ...contentType, ...signed }
      : mergeHeaders(ACCEPT_JSON_HEADER, t.options.headers, contentType, signed, request.headers);
  return { method, url, path: sentPath, headers, body: bodyText(body) };
}

/** One attempt through the middleware chain; transport failures become TransportErrors. */
async function attempt(
  t: TransportSetup,
  request: TransportRequest,
  body: string | Uint8Array | undefined,
  attemptNo: number,
  timeoutMs: number,
): Promise<{ raw: RawResponse; sent: SentRequest }> {
  const pending = signedRequest(t, request, body);
  const sent = pending instanceof Promise ? await pending : pending;
  const started = t.debug ? Date.now() : 0;
  if (t.debug)
    t.logger.debug(`custody → ${sent.method} ${sent.url}`, {
      attempt: attemptNo,
      operationId: request.operationId,
      headers: redactHeaders(sent.headers),
      ...(t.options.logBodies ? { body: redactBody(sent.body) } : {}),
    });
  const exchange = (headers: Record<string, string>) =>
    t.send({
      url: sent.url,
      origin: t.origin,
      pathAndQuery: sent.url.slice(t.origin.length),
      method: sent.method,
      headers,
      body,
      timeoutMs,
      signal: request.signal,
      maxBytes: t.maxBytes,
    });
  try {
    let raw: RawResponse;
    if (t.middleware.length === 0) {
      try {
        raw = await exchange(sent.headers);
      } catch (error) {
        throw asTransportError(error, sent, request.signal, timeoutMs, attemptNo);
      }
    } else {
      // Failures of the exchange itself become TransportErrors here; an error middleware throws stays as it is.
      const last = (req: MiddlewareRequest) => {
        sent.headers = req.headers;
        return exchange(req.headers).catch((error: unknown) => {
          throw asTransportError(error, sent, request.signal, timeoutMs, attemptNo);
        });
      };
      const chain = t.middleware.reduceRight<(req: MiddlewareRequest) => Promise<RawResponse>>(
        (next, mw) => (req) => mw(req, next),
        last,
      );
      raw = await chain({
        method: sent.method,
        url: sent.url,
        headers: { ...sent.headers },
        body: sent.body,
        attempt: attemptNo,
        operationId: request.operationId,
      });
    }
    if (t.debug)
      t.logger.debug(`custody ← ${raw.status} ${sent.method} ${sent.url}`, {
        ms: Date.now() - started,
        requestId: raw.headers["x-request-id"],
        headers: redactHeaders(raw.headers),
        ...(t.options.logBodies ? { body: redactBody(raw.text) } : {}),
      });
    return { raw, sent };
  } catch (error) {
    if (enabled(t.logLevel, "info"))
      t.logger.info(`custody ✗ ${sent.method} ${sent.url}: ${(error as Error).message}`, {
        attempt: attemptNo,
        operationId: request.operationId,
      });
    throw error;
  }
}

async function sendRequest(t: TransportSetup, request: TransportRequest): Promise<TransportResponse> {
  const policy =
    request.retry === undefined && request.maxRetries === undefined
      ? t.transportPolicy
      : policyOf(request.retry ?? t.options.retry, request.maxRetries ?? t.options.maxRetries);
  const maxAttempts = isIdempotentRequest(request) ? 1 + Math.max(0, policy.retries) : 1;
  const timeoutMs = request.timeoutMs ?? t.defaultTimeoutMs;
  const deadlineMs = request.deadlineMs ?? t.options.deadlineMs;
  const deadlineAt = deadlineMs === undefined ? Infinity : Date.now() + deadlineMs;
  // Serialized once: every attempt signs and sends these same bytes.
  const body = serializeBody(request.body);

  for (let attemptNo = 1; ; attemptNo++) {
    const left = deadlineAt - Date.now();
    let outcome: RetryOutcome;
    let headers: Record<string, string> | undefined;
    try {
      const { raw, sent } = await attempt(t, request, body, attemptNo, Math.max(1, Math.min(timeoutMs, left)));
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
      headers = raw.headers;
      const delay = nextDelayMs(policy, attemptNo, headers);
      if (delay === "stop" || Date.now() + delay >= deadlineAt) return response;
      retryLog(t, request, attemptNo, `HTTP ${raw.status}`, delay);
      await sleep(delay, request.signal);
    } catch (error) {
      if (error instanceof TransportError) error.attempts = attemptNo;
      if (error instanceof TimeoutError && left < timeoutMs)
        throw deadlineError(t, request, deadlineMs as number, attemptNo, error);
      outcome = { error, attempt: attemptNo };
      if (attemptNo >= maxAttempts || !policy.retryOn(outcome)) throw error;
      const delay = nextDelayMs(policy, attemptNo, undefined) as number;
      if (Date.now() + delay >= deadlineAt) throw error;
      retryLog(t, request, attemptNo, (error as Error).message, delay);
      await sleep(delay, request.signal).catch((reason) => {
        throw asTransportError(
          reason,
          { method: request.method.toUpperCase(), url: t.origin + t.basePath + request.path },
          request.signal,
          timeoutMs,
          attemptNo,
        );
      });
    }
  }
}

function retryLog(t: TransportSetup, request: TransportRequest, attemptNo: number, why: string, delay: number): void {
  if (enabled(t.logLevel, "info"))
    t.logger.info(
      `custody ↻ ${request.method.toUpperCase()} ${request.path}: ${why}, attempt ${attemptNo + 1} in ${delay} ms`,
      { operationId: request.operationId },
    );
}

function deadlineError(
  t: TransportSetup,
  request: TransportRequest,
  deadlineMs: number,
  attempts: number,
  cause: TransportError,
): TransportError {
  const error = new TimeoutError(
    `${request.method.toUpperCase()} ${t.origin + t.basePath + request.path}: no answer within the deadline of ${deadlineMs} ms (${attempts} attempt${attempts === 1 ? "" : "s"})`,
    cause,
    cause,
  );
  error.attempts = attempts;
  return error;
}

function policyOf(retry: Partial<RetryPolicy> | false | undefined, maxRetries: number | undefined): RetryPolicy {
  const policy = retryPolicy(retry);
  return maxRetries === undefined || retry === false ? policy : { ...policy, retries: maxRetries };
}

/** Names a failure to get an answer: too large, aborted by the caller, timed out, or the connection. */
function asTransportError(
  error: unknown,
  sent: { method: string; url: string },
  signal: AbortSignal | undefined,
  timeoutMs: number,
  attemptNo: number,
): TransportError {
  if (error instanceof TransportError) return error;
  const { method, url } = sent;
  if (error instanceof BodyTooLarge) return transportError("too_large", error.message, sent);
  if (signal?.aborted) return transportError("aborted", `${method} ${url} was aborted`, sent, error);
  if (error instanceof DeadlineExceeded)
    return transportError(
      "timeout",
      `${method} ${url} timed out after ${timeoutMs} ms (attempt ${attemptNo})`,
      sent,
      error,
    );
  const reason = error instanceof Error ? error.message : String(error);
  return transportError("network", `${method} ${url} failed: ${reason}`, sent, error);
}
