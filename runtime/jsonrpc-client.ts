// JSON-RPC 2.0 client for node access (seed 4.1): over HTTP POST (undici) and over WebSocket (ws).
// The API key goes either in the api_key query parameter or in `authorization: APIKEY <key>`.
import { getGlobalDispatcher, type Dispatcher } from "undici";
import WebSocket from "ws";
import { JsonRpcError, RpcTransportError, type RpcTransportErrorKind } from "./errors.ts";

export { JsonRpcError, RpcTransportError, type RpcTransportErrorKind };

export const DEFAULT_RPC_TIMEOUT_MS = 10_000;
const MAX_RPC_RESPONSE_BYTES = 10 * 1024 * 1024;




export type RpcAuth = "query" | "header";
export type RpcParams = readonly unknown[] | Record<string, unknown>;
export type RpcId = number | string | null;

export interface RpcCall {
  method: string;
  params?: RpcParams;
}

export type BatchOutcome = { ok: true; result: unknown } | { ok: false; error: JsonRpcError };

export interface RpcClient {
  request<T = unknown>(method: string, params?: RpcParams): Promise<T>;
  /** A notification: no id, no answer expected. */
  notify(method: string, params?: RpcParams): Promise<void>;
  /** Results in the order of `calls`. */
  batch(calls: readonly RpcCall[]): Promise<BatchOutcome[]>;
  close(): Promise<void>;
}

export interface RpcClientOptions {
  /** Full endpoint, e.g. http://127.0.0.1:8545/rpc or ws://127.0.0.1:8545/ws */
  url: string;
  apiKey?: string;
  /** Default "query". */
  auth?: RpcAuth;
  timeoutMs?: number;
  headers?: Record<string, string>;
}

/** The endpoint URL and headers that carry the key. */
export function applyRpcAuth(url: string, apiKey: string | undefined, auth: RpcAuth = "query"): { url: string; headers: Record<string, string> } {
  if (apiKey === undefined) return { url, headers: {} };
  if (auth === "header") return { url, headers: { authorization: `APIKEY ${apiKey}` } };
  const withKey = new URL(url);
  withKey.searchParams.set("api_key", apiKey);
  return { url: withKey.toString(), headers: {} };
}

function makeRequest(id: number | undefined, method: string, params: RpcParams | undefined): Record<string, unknown> {
  const message: Record<string, unknown> = { jsonrpc: "2.0", method };
  if (params !== undefined) message.params = params;
  if (id !== undefined) message.id = id;
  return message;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** The JsonRpcError inside a response's error member (or an invalid_response error when malformed). */
function toJsonRpcError(error: unknown): JsonRpcError {
  if (isRecord(error) && typeof error.code === "number" && typeof error.message === "string") {
    return new JsonRpcError(error.code, error.message, error.data);
  }
  return new JsonRpcError(-32603, "malformed error object in response", error);
}

function outcomeOf(response: Record<string, unknown>): BatchOutcome {
  if ("error" in response && response.error !== undefined && response.error !== null) {
    return { ok: false, error: toJsonRpcError(response.error) };
  }
  return { ok: true, result: response.result };
}

function unwrap<T>(outcome: BatchOutcome): T {
  if (!outcome.ok) throw outcome.error;
  return outcome.result as T;
}

// ---------------------------------------------------------------------------------------------
// HTTP

export interface HttpRpcOptions extends RpcClientOptions {
  dispatcher?: Dispatcher;
}

export function httpRpc(options: HttpRpcOptions): RpcClient {
  const { url, headers: authHeaders } = applyRpcAuth(options.url, options.apiKey, options.auth);
  const target = new URL(url);
  const dispatcher = options.dispatcher ?? getGlobalDispatcher();
  let nextId = 1;

  /** POSTs one JSON-RPC payload; returns the parsed answer, or undefined for an empty one. */
  async function post(payload: unknown): Promise<unknown> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
    const signal = AbortSignal.timeout(timeoutMs);
    let status: number;
    let text: string;
    try {
      const res = await dispatcher.request({
        origin: target.origin,
        path: target.pathname + target.search,
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", ...options.headers, ...authHeaders },
        body: JSON.stringify(payload),
        signal,
      });
      status = res.statusCode;
      text = await readCapped(res.body);
    } catch (error) {
      if (error instanceof RpcTransportError) throw error;
      if (signal.aborted) throw new RpcTransportError("timeout", `JSON-RPC request to ${target.origin}${target.pathname} timed out after ${timeoutMs} ms`, { cause: error });
      throw new RpcTransportError("network", `JSON-RPC request to ${target.origin}${target.pathname} failed: ${(error as Error)?.message ?? error}`, { cause: error });
    }
    if (text.trim() === "") {
      if (status >= 200 && status < 300) return undefined;
      throw new RpcTransportError("http", `HTTP ${status} with an empty body`, { status, body: text });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new RpcTransportError(status >= 400 ? "http" : "invalid_response", `HTTP ${status}: the response is not JSON`, { status, body: text });
    }
    // A 401 carries a JSON-RPC error object (id null); that is the answer to report.
    if (status >= 400 && !(isRecord(parsed) && isRecord(parsed.error))) {
      throw new RpcTransportError("http", `HTTP ${status}`, { status, body: text });
    }
    return parsed;
  }

  function single(parsed: unknown, id: number): BatchOutcome {
    if (!isRecord(parsed) || parsed.jsonrpc !== "2.0") {
      throw new RpcTransportError("invalid_response", "the response is not a JSON-RPC 2.0 object", { body: JSON.stringify(parsed) });
    }
    // An error with id null (unauthorized, parse error) answers this request too.
    if (parsed.id !== id && !(parsed.id === null && "error" in parsed)) {
      throw new RpcTransportError("invalid_response", `response id ${JSON.stringify(parsed.id)} does not echo request id ${id}`, { body: JSON.stringify(parsed) });
    }
    return outcomeOf(parsed);
  }

  return {
    async request<T>(method: string, params?: RpcParams): Promise<T> {
      const id = nextId++;
      return unwrap<T>(single(await post(makeRequest(id, method, params)), id));
    },
    async notify(method, params) {
      await post(makeRequest(undefined, method, params));
    },
    async batch(calls) {
      const ids = calls.map(() => nextId++);
      const parsed = await post(calls.map((call, i) => makeRequest(ids[i], call.method, call.params)));
      if (!Array.isArray(parsed)) {
        // A whole-batch error (e.g. unauthorized) is one object; it answers every call.
        if (isRecord(parsed) && isRecord(parsed.error)) return calls.map(() => outcomeOf(parsed));
        throw new RpcTransportError("invalid_response", "a batch must be answered with an array", { body: JSON.stringify(parsed) });
      }
      const byId = new Map<unknown, Record<string, unknown>>();
      for (const item of parsed) if (isRecord(item)) byId.set(item.id, item);
      return ids.map((id) => {
        const item = byId.get(id);
        return item === undefined ? { ok: false as const, error: new JsonRpcError(-32603, `no response for id ${id}`) } : outcomeOf(item);
      });
    },
    async close() {},
  };
}

async function readCapped(body: AsyncIterable<Uint8Array> & { destroy(): unknown }): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_RPC_RESPONSE_BYTES) {
      body.destroy();
      throw new RpcTransportError("invalid_response", `response body exceeds ${MAX_RPC_RESPONSE_BYTES} bytes`);
    }
    parts.push(Buffer.from(chunk));
  }
  return Buffer.concat(parts).toString("utf8");
}

// ---------------------------------------------------------------------------------------------
// WebSocket

export interface Subscription {
  id: string;
  unsubscribe(): Promise<boolean>;
}

export interface SubscribeOptions {
  /** Defaults: eth_subscribe / eth_unsubscribe. Notifications are routed by params.subscription. */
  subscribeMethod?: string;
  unsubscribeMethod?: string;
}

export interface WsRpcClient extends RpcClient {
  /** Resolves when the socket is open; rejects (e.g. HTTP 401 on the upgrade) when it cannot open. */
  readonly ready: Promise<void>;
  /** Subscribes and routes each notification's `params.result` to `onResult`. */
  subscribe(params: RpcParams, onResult: (result: unknown) => void, options?: SubscribeOptions): Promise<Subscription>;
  /** Every notification the server sends (including subscription ones). Returns an unsubscribe function. */
  onNotification(listener: (method: string, params: unknown) => void): () => void;
}

export interface WsRpcOptions extends RpcClientOptions {
  /** Handshake timeout; defaults to timeoutMs. */
  connectTimeoutMs?: number;
}

interface Pending {
  resolve(response: Record<string, unknown>): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

// Notifications that arrive before subscribe() has learnt its id are kept briefly, within bounds.
const MAX_BUFFERED_SUBSCRIPTIONS = 64;
const MAX_BUFFERED_PER_SUBSCRIPTION = 256;

export function wsRpc(options: WsRpcOptions): WsRpcClient {
  const { url, headers: authHeaders } = applyRpcAuth(options.url, options.apiKey, options.auth);
  const timeoutMs = options.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
  const socket = new WebSocket(url, {
    headers: { ...options.headers, ...authHeaders },
    handshakeTimeout: options.connectTimeoutMs ?? timeoutMs,
  });
  const pending = new Map<number, Pending>();
  const subscriptions = new Map<string, (result: unknown) => void>();
  const early = new Map<string, unknown[]>();
  const listeners = new Set<(method: string, params: unknown) => void>();
  let nextId = 1;
  let closedError: RpcTransportError | undefined;

  const ready = new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("unexpected-response", (req, res) => {
      // The upgrade was refused (401 and its JSON-RPC body, for instance): report what the server said.
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.length < 64 && chunks.push(chunk));
      res.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        let error: Error = new RpcTransportError("http", `WebSocket upgrade refused with HTTP ${res.statusCode}`, { status: res.statusCode, body });
        try {
          const parsed: unknown = JSON.parse(body);
          if (isRecord(parsed) && isRecord(parsed.error)) error = toJsonRpcError(parsed.error);
        } catch {
          // not JSON: keep the transport error
        }
        reject(error);
        req.destroy();
      });
      res.on("error", () => reject(new RpcTransportError("http", `WebSocket upgrade refused with HTTP ${res.statusCode}`, { status: res.statusCode })));
    });
    socket.once("error", (error) => reject(new RpcTransportError("network", `WebSocket ${new URL(options.url).origin} failed: ${error.message}`, { cause: error })));
    socket.once("close", () => reject(new RpcTransportError("closed", "WebSocket closed before it opened")));
  });
  // The caller may never await ready; its failure then surfaces through request().
  ready.catch(() => {});

  socket.on("close", (code) => {
    closedError = new RpcTransportError("closed", `WebSocket closed (code ${code})`);
    for (const [id, entry] of pending) {
      clearTimeout(entry.timer);
      entry.reject(closedError);
      pending.delete(id);
    }
  });
  socket.on("error", () => {
    // Surfaced through ready or the close handler; an unhandled 'error' would crash the process.
  });
  socket.on("message", (data) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.isBuffer(data) ? data.toString("utf8") : Buffer.concat(data as Buffer[]).toString("utf8"));
    } catch {
      return;
    }
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) if (isRecord(message)) dispatch(message);
  });

  function dispatch(message: Record<string, unknown>): void {
    if (typeof message.id === "number" && pending.has(message.id)) {
      const entry = pending.get(message.id) as Pending;
      pending.delete(message.id);
      clearTimeout(entry.timer);
      entry.resolve(message);
      return;
    }
    if (typeof message.method !== "string" || "id" in message) return;
    for (const listener of listeners) listener(message.method, message.params);
    const params = message.params;
    if (!isRecord(params) || (typeof params.subscription !== "string" && typeof params.subscription !== "number")) return;
    const subId = String(params.subscription);
    const callback = subscriptions.get(subId);
    if (callback !== undefined) return callback(params.result);
    if (!early.has(subId) && early.size >= MAX_BUFFERED_SUBSCRIPTIONS) early.delete(early.keys().next().value as string);
    const buffered = early.get(subId) ?? [];
    if (buffered.length < MAX_BUFFERED_PER_SUBSCRIPTION) buffered.push(params.result);
    early.set(subId, buffered);
  }

  async function send(payload: unknown): Promise<void> {
    await ready;
    if (closedError !== undefined || socket.readyState !== WebSocket.OPEN) throw closedError ?? new RpcTransportError("closed", "WebSocket is not open");
    await new Promise<void>((resolve, reject) =>
      socket.send(JSON.stringify(payload), (error) => (error ? reject(new RpcTransportError("network", `send failed: ${error.message}`, { cause: error })) : resolve())),
    );
  }

  function expect(id: number, method: string): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new RpcTransportError("timeout", `${method} (id ${id}) got no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      pending.set(id, { resolve, reject, timer });
    });
  }

  function forget(ids: number[]): void {
    for (const id of ids) {
      const entry = pending.get(id);
      if (entry !== undefined) clearTimeout(entry.timer);
      pending.delete(id);
    }
  }

  async function request<T>(method: string, params?: RpcParams): Promise<T> {
    const id = nextId++;
    const answer = expect(id, method);
    try {
      await send(makeRequest(id, method, params));
    } catch (error) {
      forget([id]);
      answer.catch(() => {});
      throw error;
    }
    return unwrap<T>(outcomeOf(await answer));
  }

  const client: WsRpcClient = {
    ready,
    request,
    async notify(method, params) {
      await send(makeRequest(undefined, method, params));
    },
    async batch(calls) {
      const ids = calls.map(() => nextId++);
      const answers = ids.map((id, i) => expect(id, calls[i].method));
      try {
        await send(calls.map((call, i) => makeRequest(ids[i], call.method, call.params)));
      } catch (error) {
        forget(ids);
        for (const answer of answers) answer.catch(() => {});
        throw error;
      }
      return Promise.all(answers.map((answer) => answer.then(outcomeOf)));
    },
    async subscribe(params, onResult, subscribeOptions = {}) {
      const id = await request<unknown>(subscribeOptions.subscribeMethod ?? "eth_subscribe", params);
      if (typeof id !== "string" && typeof id !== "number") {
        throw new RpcTransportError("invalid_response", `subscription id must be a string, got ${JSON.stringify(id)}`);
      }
      const subId = String(id);
      subscriptions.set(subId, onResult);
      for (const result of early.get(subId) ?? []) onResult(result);
      early.delete(subId);
      return {
        id: subId,
        async unsubscribe() {
          subscriptions.delete(subId);
          return request<boolean>(subscribeOptions.unsubscribeMethod ?? "eth_unsubscribe", [id]);
        },
      };
    },
    onNotification(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      return new Promise<void>((resolve) => {
        if (socket.readyState === WebSocket.CLOSED) return resolve();
        socket.once("close", () => resolve());
        if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
        else socket.close();
        // A peer that never completes the closing handshake must not hold close() forever.
        setTimeout(() => socket.terminate(), 1000).unref();
      });
    },
  };
  return client;
}
