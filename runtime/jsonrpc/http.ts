// JSON-RPC 2.0 over HTTP POST (seed 4.1), on every runtime. One job: post a request, a notification
// or a batch and read a capped answer. What sends:
// - an undici Dispatcher given as `dispatcher` (Node tuning);
// - else on Node, undici's global dispatcher, imported lazily: ~4x the calls per second of Node 20's
//   fetch (docs/reference/sdk.md, "Every runtime");
// - else (Bun, Deno, edge, browsers, `dispatcher: false`) the standard fetch.
import { JsonRpcError, RpcTransportError } from "../errors.ts";
import { isNode } from "../host.ts";
import {
  applyRpcAuth,
  type BatchOutcome,
  DEFAULT_RPC_TIMEOUT_MS,
  isRecord,
  MAX_RPC_RESPONSE_BYTES,
  makeRequest,
  outcomeOf,
  type RpcCall,
  type RpcClient,
  type RpcClientOptions,
  type RpcParams,
  responseProblem,
  unwrap,
} from "./protocol.ts";

/** The part of an undici Dispatcher (Agent, Pool, the global one) this transport uses; nothing imports undici. */
export interface RpcDispatcher {
  request(options: {
    origin: string;
    path: string;
    method: "POST";
    headers: Record<string, string>;
    body: string;
    signal: AbortSignal;
  }): Promise<{
    statusCode: number;
    body: AsyncIterable<Uint8Array> & { destroy(): unknown };
  }>;
}

export interface HttpRpcOptions extends RpcClientOptions {
  /** An undici Dispatcher whose request() sends each call; false: always the standard fetch. */
  dispatcher?: unknown;
}

/** What one client keeps: built once by httpRpc, read and updated by the module-level functions below. */
interface HttpRpcState {
  readonly options: HttpRpcOptions;
  readonly target: URL;
  readonly authHeaders: Record<string, string>;
  /** Chosen on the first call, so that creating a client stays synchronous. */
  sender: Promise<RpcDispatcher | undefined> | undefined;
  nextId: number;
}

export function httpRpc(options: HttpRpcOptions): RpcClient {
  const { url, headers: authHeaders } = applyRpcAuth(options.url, options.apiKey, options.auth);
  const state: HttpRpcState = { options, target: new URL(url), authHeaders, sender: undefined, nextId: 1 };
  return {
    async request<T>(method: string, params?: RpcParams): Promise<T> {
      const id = state.nextId++;
      return unwrap<T>(single(await post(state, makeRequest(id, method, params)), id));
    },
    async notify(method, params) {
      await post(state, makeRequest(undefined, method, params));
    },
    async batch(calls) {
      const ids = calls.map(() => state.nextId++);
      const parsed = await post(
        state,
        calls.map((call, i) => makeRequest(ids[i], call.method, call.params)),
      );
      return batchOutcomes(parsed, calls, ids);
    },
    async close() {},
  };
}

/** POSTs one JSON-RPC payload; returns the parsed answer, or undefined for an empty one. */
async function post(state: HttpRpcState, payload: unknown): Promise<unknown> {
  const timeoutMs = state.options.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
  state.sender ??= chooseDispatcher(state.options.dispatcher);
  const dispatcher = await state.sender;
  const signal = AbortSignal.timeout(timeoutMs);
  const { target } = state;
  let status: number;
  let text: string;
  try {
    const headers = requestHeaders(state);
    if (dispatcher === undefined) {
      const res = await fetch(target, {
        method: "POST",
        headers,
        body: JSON.stringify(payload),
        signal,
        redirect: "manual",
      });
      status = res.status;
      text = await readCapped(webChunks(res.body), () => void res.body?.cancel().catch(() => undefined));
    } else {
      const res = await dispatcher.request({
        origin: target.origin,
        path: target.pathname + target.search,
        method: "POST",
        headers,
        body: JSON.stringify(payload),
        signal,
      });
      status = res.statusCode;
      text = await readCapped(res.body, () => res.body.destroy());
    }
  } catch (error) {
    throw transportFailure(target, error, signal, timeoutMs);
  }
  return parseAnswer(status, text);
}

/** The headers of every POST: JSON both ways, then the caller's, then the auth ones. */
function requestHeaders(state: HttpRpcState): Record<string, string> {
  return {
    "content-type": "application/json",
    accept: "application/json",
    ...state.options.headers,
    ...state.authHeaders,
  };
}

/** The error a failed POST throws: its own RpcTransportError, else a time-out or a network failure. */
function transportFailure(target: URL, error: unknown, signal: AbortSignal, timeoutMs: number): unknown {
  if (error instanceof RpcTransportError) return error;
  if (signal.aborted)
    return new RpcTransportError(
      "timeout",
      `JSON-RPC request to ${target.origin}${target.pathname} timed out after ${timeoutMs} ms`,
      { cause: error },
    );
  return new RpcTransportError(
    "network",
    `JSON-RPC request to ${target.origin}${target.pathname} failed: ${(error as Error)?.message ?? error}`,
    { cause: error },
  );
}

/** The outcome of one request from its parsed answer. */
function single(parsed: unknown, id: number): BatchOutcome {
  // An error with id null (unauthorized, parse error) answers this request too.
  const problem = responseProblem(parsed, id);
  if (problem !== undefined) throw new RpcTransportError("invalid_response", problem, { body: JSON.stringify(parsed) });
  return outcomeOf(parsed as Record<string, unknown>);
}

/** The outcomes of a batch, in the order of its calls, from the parsed answer. */
function batchOutcomes(parsed: unknown, calls: readonly RpcCall[], ids: number[]): BatchOutcome[] {
  if (!Array.isArray(parsed)) {
    // A whole-batch error (e.g. unauthorized) is one object; it answers every call.
    if (isRecord(parsed) && isRecord(parsed.error)) return calls.map(() => outcomeOf(parsed));
    throw new RpcTransportError("invalid_response", "a batch must be answered with an array", {
      body: JSON.stringify(parsed),
    });
  }
  const byId = new Map<unknown, Record<string, unknown>>();
  for (const item of parsed) if (isRecord(item)) byId.set(item.id, item);
  return ids.map((id) => {
    const item = byId.get(id);
    return item === undefined
      ? { ok: false as const, error: new JsonRpcError(-32603, `no response for id ${id}`) }
      : outcomeOf(item);
  });
}

/** The parsed answer to a POST, or undefined for an empty 2xx one; an HTTP failure without a JSON-RPC error throws. */
function parseAnswer(status: number, text: string): unknown {
  if (text.trim() === "") {
    if (status >= 200 && status < 300) return undefined;
    throw new RpcTransportError("http", `HTTP ${status} with an empty body`, { status, body: text });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const kind = status >= 400 ? "http" : "invalid_response";
    throw new RpcTransportError(kind, `HTTP ${status}: the response is not JSON`, { status, body: text });
  }
  // A 401 carries a JSON-RPC error object (id null); that is the answer to report.
  if (status >= 400 && !(isRecord(parsed) && isRecord(parsed.error))) {
    throw new RpcTransportError("http", `HTTP ${status}`, { status, body: text });
  }
  return parsed;
}

/** The dispatcher to send with, or undefined for fetch (also when a dispatcher cannot send: Bun's undici is a stand-in). */
async function chooseDispatcher(given: unknown): Promise<RpcDispatcher | undefined> {
  const usable = (d: unknown) =>
    typeof (d as Partial<RpcDispatcher> | undefined)?.request === "function" ? (d as RpcDispatcher) : undefined;
  if (given !== undefined) return usable(given);
  if (!isNode()) return undefined;
  // A specifier in a variable: bundlers leave it to run time instead of bundling undici for the browser.
  const undiciModule: string = "undici";
  return (import(undiciModule) as Promise<{ getGlobalDispatcher(): unknown }>).then(
    (undici) => usable(undici.getGlobalDispatcher()),
    () => undefined,
  );
}

async function* webChunks(body: ReadableStream<Uint8Array> | null): AsyncIterable<Uint8Array> {
  if (body === null) return;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}

async function readCapped(body: AsyncIterable<Uint8Array>, destroy: () => void): Promise<string> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_RPC_RESPONSE_BYTES) {
      destroy();
      throw new RpcTransportError("invalid_response", `response body exceeds ${MAX_RPC_RESPONSE_BYTES} bytes`);
    }
    parts.push(chunk);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return new TextDecoder().decode(all);
}
