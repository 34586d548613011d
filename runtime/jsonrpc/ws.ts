// JSON-RPC 2.0 over WebSocket (seed 4.1): requests, notifications, batches and subscriptions over one
// connection, answers matched by id. The connection is runtime/jsonrpc/socket.ts's (ws on Node, the
// standard WebSocket elsewhere).
import { RpcTransportError } from "../errors.ts";
import { applyRpcAuth, DEFAULT_RPC_TIMEOUT_MS, isRecord, makeRequest, outcomeOf, unwrap, type RpcClient, type RpcClientOptions, type RpcParams } from "./protocol.ts";
import { openRpcSocket, type StandardWebSocketClass } from "./socket.ts";
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
  /** A standard WebSocket class to connect with (default: ws on Node, else the global WebSocket). */
  webSocket?: StandardWebSocketClass;
}

interface Pending {
  resolve(response: Record<string, unknown>): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

// Notifications that arrive before subscribe() has learnt its id are kept briefly, within bounds.
const MAX_BUFFERED_SUBSCRIPTIONS = 64;
const MAX_BUFFERED_PER_SUBSCRIPTION = 256;

export function wsRpc(options: WsRpcOptions): WsRpcClient {
  const { url, headers: authHeaders } = applyRpcAuth(options.url, options.apiKey, options.auth);
  const timeoutMs = options.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
  const pending = new Map<number, Pending>();
  const subscriptions = new Map<string, (result: unknown) => void>();
  const early = new Map<string, unknown[]>();
  const listeners = new Set<(method: string, params: unknown) => void>();
  let nextId = 1;
  let closedError: RpcTransportError | undefined;

  const socket = openRpcSocket({
    url,
    headers: { ...options.headers, ...authHeaders },
    connectTimeoutMs: options.connectTimeoutMs ?? timeoutMs,
    webSocket: options.webSocket,
    onClose(code) {
      closedError = new RpcTransportError("closed", `WebSocket closed (code ${code})`);
      for (const [id, entry] of pending) {
        clearTimeout(entry.timer);
        entry.reject(closedError);
        pending.delete(id);
      }
    },
    onMessage(text) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return;
      }
      for (const message of Array.isArray(parsed) ? parsed : [parsed]) if (isRecord(message)) dispatch(message);
    },
  });
  const ready = socket.ready;

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
    if (closedError !== undefined || !socket.isOpen()) throw closedError ?? new RpcTransportError("closed", "WebSocket is not open");
    await socket.send(JSON.stringify(payload));
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
      return socket.close();
    },
  };
  return client;
}
