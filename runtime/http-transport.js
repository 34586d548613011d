// HTTP transport of the wallet API client, on the standard fetch (every runtime) or on any RawSend (Node's
// undici dispatcher through runtime/http-exchange.ts). One job: send one signed request, with retries
// for requests safe to repeat (within a deadline over all attempts), through the caller's middleware,
// and hand back status, headers, parsed JSON and the raw text as evidence.
// It never follows redirects and never reads more than maxResponseBytes of a body. No Node API here.
import { walletApiBaseUrl } from "./base-url.ts";
import { defaultClientLogger, enabled, redactBody, redactHeaders, resolveLogLevel } from "./client-log.ts";
import { prepareSecret, signedHeaders, unixSeconds } from "./request-signing.ts";
import { BodyTooLarge, DeadlineExceeded, declaresMoreThan } from "./http-raw.ts";
import { TimeoutError, TransportError, transportError } from "./errors.ts";
import { nextDelayMs, retryPolicy, sleep } from "./retry.ts";
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
const ACCEPT_JSON_HEADER = Object.freeze({ accept: "application/json" });
const JSON_CONTENT_TYPE_HEADER = Object.freeze({ "content-type": "application/json" });
const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);
function hasHeader(headers, name) {
    if (headers === undefined)
        return false;
    return Object.keys(headers).some((key) => key.toLowerCase() === name && headers[key] !== undefined);
}
export function isIdempotentRequest(request) {
    if (request.idempotent !== undefined)
        return request.idempotent;
    return IDEMPOTENT_METHODS.has(request.method.toUpperCase()) || hasHeader(request.headers, "idempotency-key");
}
/** Sets headers case-insensitively: a later name replaces an earlier one of any case; undefined removes it. */
function mergeHeaders(...layers) {
    const out = {};
    // Lower-case name → the spelling currently in `out`, so a replacement costs one lookup.
    const spelled = new Map();
    for (const layer of layers) {
        if (layer === undefined)
            continue;
        for (const name in layer) {
            if (!Object.hasOwn(layer, name))
                continue;
            const value = layer[name];
            const lower = name.toLowerCase();
            const existing = spelled.get(lower);
            if (existing !== undefined)
                delete out[existing];
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
export function buildQueryString(query) {
    if (query === undefined)
        return "";
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
        if (value === undefined || value === null)
            continue;
        const values = Array.isArray(value) ? value : [value];
        for (const v of values)
            params.append(key, String(v));
    }
    const text = params.toString();
    return text === "" ? "" : `?${text}`;
}
function serializeBody(body) {
    if (body === undefined)
        return undefined;
    if (typeof body === "string" || body instanceof Uint8Array)
        return body;
    return JSON.stringify(body);
}
function parseJson(text) {
    if (text.trim() === "")
        return undefined;
    try {
        return JSON.parse(text);
    }
    catch {
        return undefined;
    }
}
const utf8 = new TextDecoder("utf-8");
/** Reads a web stream up to `limit` bytes, then gives up (cancelling the rest of the body). */
async function readLimited(stream, limit) {
    const reader = stream.getReader();
    const parts = [];
    let size = 0;
    try {
        for (;;) {
            const { done, value } = await reader.read();
            if (done)
                break;
            size += value.length;
            if (size > limit)
                throw new BodyTooLarge(limit);
            parts.push(value);
        }
    }
    finally {
        await reader.cancel().catch(() => { });
    }
    if (parts.length === 1)
        return utf8.decode(parts[0]);
    // Decoding the whole body once keeps multi-byte characters split across chunks intact.
    const all = new Uint8Array(size);
    let at = 0;
    for (const part of parts) {
        all.set(part, at);
        at += part.length;
    }
    return utf8.decode(all);
}
/** A RawSend over a fetch: web streams, and an AbortSignal for the attempt's timeout. */
export function fetchSend(fetch, dispatcher) {
    return async (input) => {
        const timeout = AbortSignal.timeout(input.timeoutMs);
        const signal = input.signal === undefined ? timeout : AbortSignal.any([timeout, input.signal]);
        try {
            const init = { method: input.method, headers: input.headers, body: input.body, redirect: "manual", signal, ...(dispatcher === undefined ? {} : { dispatcher }) };
            const res = await fetch(input.url, init);
            const headers = {};
            res.headers.forEach((value, key) => (headers[key.toLowerCase()] = value));
            if (declaresMoreThan(headers, input.maxBytes)) {
                await res.body?.cancel().catch(() => { });
                throw new BodyTooLarge(input.maxBytes);
            }
            const text = res.body === null ? "" : await readLimited(res.body, input.maxBytes);
            return { status: res.status, headers, text };
        }
        catch (error) {
            if (timeout.aborted && !(error instanceof BodyTooLarge) && !input.signal?.aborted)
                throw new DeadlineExceeded(input.timeoutMs);
            throw error;
        }
    };
}
function bodyText(body) {
    return body === undefined ? undefined : typeof body === "string" ? body : utf8.decode(body);
}
export function createTransport(options) {
    const send = options.send ?? fetchSend(options.fetch ?? globalThis.fetch, options.dispatcher);
    const base = new URL(walletApiBaseUrl(options.baseUrl));
    const origin = base.origin;
    const basePath = base.pathname.replace(/\/+$/, "");
    const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const now = options.now ?? (() => unixSeconds());
    const defaultTimeoutMs = options.timeoutMs ?? options.timeout ?? DEFAULT_TIMEOUT_MS;
    // The transport's own policy, built once; a per-request override builds its own.
    const transportPolicy = policyOf(options.retry, options.maxRetries);
    // The secret prepared once: every call signs with it.
    const secret = options.apiSecret === undefined ? undefined : prepareSecret(options.apiSecret);
    const middleware = options.middleware ?? [];
    const logLevel = resolveLogLevel(options.logLevel);
    const logger = options.logger ?? defaultClientLogger();
    const debug = enabled(logLevel, "debug");
    function signedRequest(request, body) {
        const method = request.method.toUpperCase();
        const path = basePath + request.path;
        const url = origin + path + buildQueryString(request.query);
        // fetch normalizes the URL it is given, so sign what it will actually send.
        const sentPath = options.send === undefined ? new URL(url).pathname : path;
        const shouldSign = (request.sign ?? true) && options.apiKey !== undefined && secret !== undefined;
        const signed = shouldSign ? signedHeaders({ apiKey: options.apiKey, secret, method, path: sentPath, body, timestamp: request.timestamp ?? now() }) : undefined;
        const contentType = body === undefined ? undefined : JSON_CONTENT_TYPE_HEADER;
        // Without caller headers the layers' names cannot collide (accept, content-type, ACCESS-*): no merge needed.
        const headers = options.headers === undefined && request.headers === undefined
            ? { ...ACCEPT_JSON_HEADER, ...contentType, ...signed }
            : mergeHeaders(ACCEPT_JSON_HEADER, options.headers, contentType, signed, request.headers);
        return { method, url, path: sentPath, headers, body: bodyText(body) };
    }
    /** One attempt through the middleware chain; transport failures become TransportErrors. */
    async function attempt(request, body, attemptNo, timeoutMs) {
        const sent = signedRequest(request, body);
        const started = debug ? Date.now() : 0;
        if (debug)
            logger.debug(`custody → ${sent.method} ${sent.url}`, { attempt: attemptNo, operationId: request.operationId, headers: redactHeaders(sent.headers), ...(options.logBodies ? { body: redactBody(sent.body) } : {}) });
        // Failures of the exchange itself become TransportErrors here; an error middleware throws stays as it is.
        const last = (req) => {
            sent.headers = req.headers;
            return send({ url: sent.url, origin, pathAndQuery: sent.url.slice(origin.length), method: sent.method, headers: req.headers, body, timeoutMs, signal: request.signal, maxBytes }).catch((error) => {
                throw asTransportError(error, sent, request.signal, timeoutMs, attemptNo);
            });
        };
        const chain = middleware.reduceRight((next, mw) => (req) => mw(req, next), last);
        try {
            const raw = await chain({ method: sent.method, url: sent.url, headers: { ...sent.headers }, body: sent.body, attempt: attemptNo, operationId: request.operationId });
            if (debug)
                logger.debug(`custody ← ${raw.status} ${sent.method} ${sent.url}`, { ms: Date.now() - started, requestId: raw.headers["x-request-id"], headers: redactHeaders(raw.headers), ...(options.logBodies ? { body: redactBody(raw.text) } : {}) });
            return { raw, sent };
        }
        catch (error) {
            if (enabled(logLevel, "info"))
                logger.info(`custody ✗ ${sent.method} ${sent.url}: ${error.message}`, { attempt: attemptNo, operationId: request.operationId });
            throw error;
        }
    }
    async function request(request) {
        const policy = request.retry === undefined && request.maxRetries === undefined ? transportPolicy : policyOf(request.retry ?? options.retry, request.maxRetries ?? options.maxRetries);
        const maxAttempts = isIdempotentRequest(request) ? 1 + Math.max(0, policy.retries) : 1;
        const timeoutMs = request.timeoutMs ?? defaultTimeoutMs;
        const deadlineMs = request.deadlineMs ?? options.deadlineMs;
        const deadlineAt = deadlineMs === undefined ? Infinity : Date.now() + deadlineMs;
        // Serialized once: every attempt signs and sends these same bytes.
        const body = serializeBody(request.body);
        for (let attemptNo = 1;; attemptNo++) {
            const left = deadlineAt - Date.now();
            let outcome;
            let headers;
            try {
                const { raw, sent } = await attempt(request, body, attemptNo, Math.max(1, Math.min(timeoutMs, left)));
                const response = {
                    status: raw.status,
                    headers: raw.headers,
                    body: parseJson(raw.text),
                    text: raw.text,
                    requestId: raw.headers["x-request-id"],
                    attempts: attemptNo,
                    request: sent,
                };
                outcome = { status: raw.status, attempt: attemptNo };
                if (attemptNo >= maxAttempts || !policy.retryOn(outcome))
                    return response;
                headers = raw.headers;
                const delay = nextDelayMs(policy, attemptNo, headers);
                if (delay === "stop" || Date.now() + delay >= deadlineAt)
                    return response;
                retryLog(request, attemptNo, `HTTP ${raw.status}`, delay);
                await sleep(delay, request.signal);
            }
            catch (error) {
                if (error instanceof TransportError)
                    error.attempts = attemptNo;
                if (error instanceof TimeoutError && left < timeoutMs)
                    throw deadlineError(request, deadlineMs, attemptNo, error);
                outcome = { error, attempt: attemptNo };
                if (attemptNo >= maxAttempts || !policy.retryOn(outcome))
                    throw error;
                const delay = nextDelayMs(policy, attemptNo, undefined);
                if (Date.now() + delay >= deadlineAt)
                    throw error;
                retryLog(request, attemptNo, error.message, delay);
                await sleep(delay, request.signal).catch((reason) => {
                    throw asTransportError(reason, { method: request.method.toUpperCase(), url: origin + basePath + request.path }, request.signal, timeoutMs, attemptNo);
                });
            }
        }
    }
    function retryLog(request, attemptNo, why, delay) {
        if (enabled(logLevel, "info"))
            logger.info(`custody ↻ ${request.method.toUpperCase()} ${request.path}: ${why}, attempt ${attemptNo + 1} in ${delay} ms`, { operationId: request.operationId });
    }
    function deadlineError(request, deadlineMs, attempts, cause) {
        const error = new TimeoutError(`${request.method.toUpperCase()} ${origin + basePath + request.path}: no answer within the deadline of ${deadlineMs} ms (${attempts} attempt${attempts === 1 ? "" : "s"})`, cause, cause);
        error.attempts = attempts;
        return error;
    }
    return { request, baseUrl: origin + basePath, validateResponses: options.validateResponses ?? true };
}
function policyOf(retry, maxRetries) {
    const policy = retryPolicy(retry);
    return maxRetries === undefined || retry === false ? policy : { ...policy, retries: maxRetries };
}
/** Names a failure to get an answer: too large, aborted by the caller, timed out, or the connection. */
function asTransportError(error, sent, signal, timeoutMs, attemptNo) {
    if (error instanceof TransportError)
        return error;
    const { method, url } = sent;
    if (error instanceof BodyTooLarge)
        return transportError("too_large", error.message, sent);
    if (signal?.aborted)
        return transportError("aborted", `${method} ${url} was aborted`, sent, error);
    if (error instanceof DeadlineExceeded)
        return transportError("timeout", `${method} ${url} timed out after ${timeoutMs} ms (attempt ${attemptNo})`, sent, error);
    const reason = error instanceof Error ? error.message : String(error);
    return transportError("network", `${method} ${url} failed: ${reason}`, sent, error);
}
//# sourceMappingURL=http-transport.js.map