// The bounded HTTP client every check uses. One request = one deadline covering connect, headers
// and body; bodies are capped; redirects are never followed (a 3xx is reported, not chased);
// every exchange is captured as evidence with secrets redacted.
import { setTimeout as sleep } from "node:timers/promises";
import { Agent, request } from "undici";
import { BodyLimitReached, CheckFailed } from "../checks/outcome.ts";
import type { Evidence, RequestEvidence, ResponseEvidence } from "../checks/types.ts";
import { progressed } from "../run/progress.ts";
import type { Redactor } from "./redact.ts";

/**
 * The default response body limit: large enough for the unpaged lists of a busy deployment (seed
 * operation 4 has no paging), small enough to bound a hostile answer. --max-body-mib sets it.
 */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;
/** How much of a body the evidence keeps. */
const EVIDENCE_BODY_CHARS = 4096;
/** Above this, evidence redacts only the prefix it keeps (a long list is not parsed a second time). */
const LARGE_BODY_CHARS = 256 * 1024;

export interface HttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** Deadline for the whole exchange; defaults to the probe's. */
  timeoutMs?: number;
}

export interface HttpResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  text: string;
  bytes: number;
  durationMs: number;
}

export interface HttpExchange {
  request: HttpRequest;
  response: HttpResponse;
  evidence: Evidence;
}

export type HttpAttempt =
  | { ok: true; exchange: HttpExchange }
  | { ok: false; reason: string; kind: TransportFailureKind; evidence: Evidence };

/** unreachable = nothing answered at the network level (exit 2 in preflight); the rest are target faults. */
export type TransportFailureKind =
  | "unreachable"
  | "timeout"
  | "reset"
  | "too-large"
  | "redirect"
  | "protocol"
  | "aborted";

export interface ProbeOptions {
  timeoutMs: number;
  maxBodyBytes?: number;
  redactor: Redactor;
  /** Sees every exchange (redacted evidence), e.g. to write a HAR file. */
  onExchange?: (exchange: RecordedExchange) => void;
}

/** One exchange as recorded for --har: when it started, how long it took, and its redacted evidence. */
export interface RecordedExchange {
  startedAt: Date;
  durationMs: number;
  evidence: Evidence;
  /** Why there is no (complete) answer. */
  error?: string;
}

/**
 * A 429 is the deployment's right (the seed is silent on rate limits), not its failure: the same
 * request is sent again after Retry-After (seconds or an HTTP date, at most RATE_LIMIT_MAX_WAIT_MS),
 * else after 0.5, 1, 2, 4 … s, up to RATE_LIMIT_RETRIES times; the last answer stands. The report says
 * how often, so a team sees what its limits cost the run.
 */
const RATE_LIMIT_RETRIES = 6;
const RATE_LIMIT_MAX_WAIT_MS = 10_000;

/** What rate limiting cost the run. */
export interface RateLimited {
  /** Answers 429 that were waited out and sent again. */
  requests: number;
  waited_ms: number;
}

/** How long to wait before resending a 429'd request (the retry-th time, from 0). */
export function retryAfterMs(header: string | undefined, retry: number, now = Date.now()): number {
  const backoff = 500 * 2 ** retry;
  if (header === undefined || header.trim() === "") return Math.min(backoff, RATE_LIMIT_MAX_WAIT_MS);
  const seconds = /^\d+(\.\d+)?$/.test(header.trim()) ? Number(header.trim()) * 1000 : Date.parse(header) - now;
  if (!Number.isFinite(seconds)) return Math.min(backoff, RATE_LIMIT_MAX_WAIT_MS);
  return Math.min(Math.max(seconds, 100), RATE_LIMIT_MAX_WAIT_MS);
}

export class HttpProbe {
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  readonly redactor: Redactor;
  private readonly onExchange: ProbeOptions["onExchange"];
  private readonly agent: Agent;
  readonly rateLimited: RateLimited = { requests: 0, waited_ms: 0 };

  constructor(options: ProbeOptions) {
    this.timeoutMs = options.timeoutMs;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.redactor = options.redactor;
    this.onExchange = options.onExchange;
    this.agent = new Agent({
      connect: { timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 2_000,
    });
  }

  /**
   * Sends the request; a transport failure or a redirect throws CheckFailed with evidence. A body over
   * the limit throws BodyLimitReached: the limit is certify's, so the check is skipped, never failed.
   */
  async send(req: HttpRequest, signal?: AbortSignal): Promise<HttpExchange> {
    const attempt = await this.attempt(req, signal);
    if (!attempt.ok && attempt.kind === "too-large")
      throw new BodyLimitReached(`the answer to ${req.method} ${this.redactor.url(req.url)}`, attempt.reason);
    if (!attempt.ok) throw new CheckFailed(attempt.reason, attempt.evidence);
    return attempt.exchange;
  }

  /** Like send, but a failure is returned as a value (for preflight and checks that expect refusal). */
  async attempt(req: HttpRequest, signal?: AbortSignal): Promise<HttpAttempt> {
    for (let retry = 0; ; retry++) {
      const result = await this.recordedAttempt(req, signal);
      if (!result.ok || result.exchange.response.status !== 429 || retry >= RATE_LIMIT_RETRIES) return result;
      if (signal?.aborted) return this.rateLimitWaitEnded(result.exchange, retry + 1);
      // At most half a request's time-out: the check's own time limit restarts with each answer.
      const wait = Math.min(retryAfterMs(result.exchange.response.headers["retry-after"], retry), this.timeoutMs / 2);
      this.rateLimited.requests++;
      this.rateLimited.waited_ms += wait;
      const resumed = await sleep(wait, undefined, { signal }).then(
        () => true,
        () => false,
      );
      // A 429 waited out is no answer: the time limit ended the wait, so the request has none.
      if (!resumed) return this.rateLimitWaitEnded(result.exchange, retry + 1);
    }
  }

  private rateLimitWaitEnded(exchange: HttpExchange, refusals: number): HttpAttempt {
    const reason = `still waiting out a 429 (refused ${refusals} time(s)) when the check's time limit was reached`;
    return { ok: false, kind: "aborted", reason, evidence: exchange.evidence };
  }

  /** One exchange, shown to onExchange (--har) when someone listens. */
  private async recordedAttempt(req: HttpRequest, signal?: AbortSignal): Promise<HttpAttempt> {
    if (!this.onExchange) return this.attemptOnce(req, signal).finally(() => progressed(signal));
    const startedAt = new Date();
    const result = await this.attemptOnce(req, signal).finally(() => progressed(signal));
    const evidence = result.ok ? result.exchange.evidence : result.evidence;
    this.onExchange({
      startedAt,
      durationMs: Date.now() - startedAt.getTime(),
      evidence,
      ...(result.ok ? {} : { error: result.reason }),
    });
    return result;
  }

  private async attemptOnce(req: HttpRequest, signal?: AbortSignal): Promise<HttpAttempt> {
    const timeoutMs = req.timeoutMs ?? this.timeoutMs;
    const started = Date.now();
    // One controller per exchange, aborted by its deadline or by the caller's signal (AbortSignal.any per
    // exchange stood out in the profile of a run: some 3,000 exchanges; docs/measurements/certify.md).
    const cancel = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      cancel.abort();
    }, timeoutMs);
    const unfollow = signal ? follow(signal, cancel) : undefined;
    // Evidence is redacted only when someone reads it (a failure, a report, --har): most answers pass.
    let requestEvidenceMemo: RequestEvidence | undefined;
    const requestEvidence = () => (requestEvidenceMemo ??= this.requestEvidence(req));
    let phase: "headers" | "body" = "headers";
    let received = 0;
    // The status and headers seen before a failure; redacted only if a failure is reported.
    let partial: { status: number; headers: Record<string, string> } | undefined;
    try {
      const res = await request(req.url, {
        method: req.method as "GET",
        headers: req.headers,
        body: req.body,
        signal: cancel.signal,
        dispatcher: this.agent,
      });
      // Destroying a body stream emits an abort error; nobody else listens, so swallow it here.
      res.body.on("error", () => undefined);
      const headers = flattenHeaders(res.headers);
      partial = { status: res.statusCode, headers };
      const refused = this.refusedBeforeBody(res.body, partial, requestEvidence);
      if (refused !== undefined) return refused;
      phase = "body";
      const chunks: Buffer[] = [];
      for await (const chunk of res.body) {
        const buf = chunk as Buffer;
        received += buf.length;
        if (received > this.maxBodyBytes) {
          res.body.destroy();
          return this.failure(
            `response body exceeds ${formatBytes(this.maxBodyBytes)}`,
            "too-large",
            requestEvidence(),
            partial,
          );
        }
        chunks.push(buf);
      }
      const text = Buffer.concat(chunks).toString("utf8");
      const response: HttpResponse = {
        status: res.statusCode,
        headers,
        text,
        bytes: received,
        durationMs: Date.now() - started,
      };
      return {
        ok: true,
        exchange: lazyEvidence(req, response, () => ({
          request: requestEvidence(),
          response: this.responseEvidence(response),
        })),
      };
    } catch (err) {
      const { reason, kind } = describeTransportError(err, {
        timedOut,
        cancelled: signal?.aborted ?? false,
        phase,
        received,
        timeoutMs,
        url: req.url,
      });
      return this.failure(reason, kind, requestEvidence(), partial);
    } finally {
      clearTimeout(timer);
      unfollow?.();
    }
  }

  /**
   * A redirect, or a content-length over the body limit: the failure, with the body destroyed unread.
   * Undefined when the body is to be read.
   */
  private refusedBeforeBody(
    body: { destroy(): unknown },
    partial: { status: number; headers: Record<string, string> },
    requestEvidence: () => RequestEvidence,
  ): HttpAttempt | undefined {
    const { status, headers } = partial;
    if (status >= 300 && status < 400) {
      body.destroy();
      const location = headers.location ?? "(no location header)";
      return this.failure(
        `redirected to ${this.redactor.url(location)} (redirects are never followed)`,
        "redirect",
        requestEvidence(),
        partial,
      );
    }
    const declared = Number(headers["content-length"]);
    if (Number.isFinite(declared) && declared > this.maxBodyBytes) {
      body.destroy();
      return this.failure(
        `response body exceeds ${formatBytes(this.maxBodyBytes)} (content-length ${declared})`,
        "too-large",
        requestEvidence(),
        partial,
      );
    }
    return undefined;
  }

  /** Evidence of a request without sending it (for checks that fail before sending). */
  requestEvidence(req: HttpRequest): RequestEvidence {
    const out: RequestEvidence = {
      method: req.method,
      url: this.redactor.url(req.url),
      headers: this.redactor.headers(req.headers ?? {}),
    };
    if (req.body !== undefined && req.body !== "") out.body = truncate(this.redactor.body(req.body));
    return out;
  }

  responseEvidence(res: HttpResponse): ResponseEvidence {
    const body =
      res.text.length > LARGE_BODY_CHARS
        ? this.redactor.bodyPrefix(res.text, EVIDENCE_BODY_CHARS)
        : this.redactor.body(res.text);
    return { status: res.status, headers: this.redactor.headers(res.headers), body: truncate(body, res.bytes) };
  }

  async close(): Promise<void> {
    await this.agent.destroy().catch(() => undefined);
  }

  private failure(
    reason: string,
    kind: TransportFailureKind,
    request: RequestEvidence,
    partial?: { status: number; headers: Record<string, string> },
  ): HttpAttempt {
    const response: ResponseEvidence = {
      ...(partial ? { status: partial.status, headers: this.redactor.headers(partial.headers) } : {}),
      error: reason,
    };
    return { ok: false, reason, kind, evidence: { request, response } };
  }
}

/** The exchanges in flight under each caller's signal; one abort listener per signal, not per exchange. */
const following = new WeakMap<AbortSignal, Set<AbortController>>();

/** Aborts `child` when `parent` aborts (at once if it has); returns how to stop following. */
function follow(parent: AbortSignal, child: AbortController): () => void {
  if (parent.aborted) {
    child.abort();
    return () => undefined;
  }
  const children = following.get(parent) ?? childrenOf(parent);
  children.add(child);
  return () => children.delete(child);
}

function childrenOf(parent: AbortSignal): Set<AbortController> {
  const children = new Set<AbortController>();
  following.set(parent, children);
  parent.addEventListener("abort", () => children.forEach((c) => c.abort()), { once: true });
  return children;
}

/** An exchange whose evidence is built (and redacted) once, on first read. */
function lazyEvidence(request: HttpRequest, response: HttpResponse, build: () => Evidence): HttpExchange {
  let evidence: Evidence | undefined;
  return {
    request,
    response,
    get evidence() {
      return (evidence ??= build());
    },
  };
}

interface ErrorContext {
  timedOut: boolean;
  cancelled: boolean;
  phase: "headers" | "body";
  received: number;
  timeoutMs: number;
  url: string;
}

/** A transport error in words a person can act on, and its kind. */
export function describeTransportError(err: unknown, c: ErrorContext): { reason: string; kind: TransportFailureKind } {
  if (c.timedOut) {
    return c.phase === "headers"
      ? { reason: `no response within ${c.timeoutMs} ms (waiting for the response headers)`, kind: "timeout" }
      : {
          reason: `response body not complete within ${c.timeoutMs} ms (received ${c.received} bytes)`,
          kind: "timeout",
        };
  }
  if (c.cancelled) {
    const where =
      c.phase === "headers"
        ? "waiting for the response headers"
        : `reading the response body (received ${c.received} bytes)`;
    return { reason: `still ${where} when the check's time limit was reached`, kind: "aborted" };
  }
  const code = errorCode(err);
  const host = hostOf(c.url);
  switch (code) {
    case "ECONNREFUSED":
      return { reason: `connection refused by ${host}`, kind: "unreachable" };
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return { reason: `host not found: ${host}`, kind: "unreachable" };
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return { reason: `no route to ${host}`, kind: "unreachable" };
    case "UND_ERR_CONNECT_TIMEOUT":
      return { reason: `could not connect to ${host} within ${c.timeoutMs} ms`, kind: "unreachable" };
    case "UND_ERR_HEADERS_TIMEOUT":
      return { reason: `no response within ${c.timeoutMs} ms (waiting for the response headers)`, kind: "timeout" };
    case "UND_ERR_BODY_TIMEOUT":
      return { reason: `response body stalled for ${c.timeoutMs} ms (received ${c.received} bytes)`, kind: "timeout" };
    case "ECONNRESET":
    case "EPIPE":
    case "UND_ERR_SOCKET":
    case "UND_ERR_CLOSED":
      return {
        reason:
          c.phase === "headers"
            ? "connection closed by the target before a response"
            : `connection closed by the target mid-body (received ${c.received} bytes)`,
        kind: "reset",
      };
    case "UND_ERR_RES_CONTENT_LENGTH_MISMATCH":
      return { reason: `connection closed by the target mid-body (received ${c.received} bytes)`, kind: "reset" };
    case "UND_ERR_HEADERS_OVERFLOW":
      return { reason: "response headers too large", kind: "protocol" };
  }
  if (code?.startsWith("HPE_")) return { reason: `not a valid HTTP response (${code})`, kind: "protocol" };
  if (code?.startsWith("ERR_TLS") || code?.includes("CERT"))
    return { reason: `TLS failure with ${host} (${code})`, kind: "unreachable" };
  const message = err instanceof Error ? err.message : String(err);
  return { reason: `request failed: ${message}${code ? ` (${code})` : ""}`, kind: "protocol" };
}

function errorCode(err: unknown): string | undefined {
  const direct = (err as { code?: unknown })?.code;
  if (typeof direct === "string") return direct;
  const cause = (err as { cause?: { code?: unknown } })?.cause?.code;
  return typeof cause === "string" ? cause : undefined;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

export function truncate(text: string, totalBytes?: number): string {
  if (text.length <= EVIDENCE_BODY_CHARS) return text;
  const total = totalBytes ?? Buffer.byteLength(text);
  return `${text.slice(0, EVIDENCE_BODY_CHARS)}… (truncated, ${total} bytes in total)`;
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}
