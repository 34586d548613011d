// JSON-RPC 2.0 over WebSocket (seed 4.1): requests, notifications, batches and subscriptions over one
// connection, answers matched by id. The connection is runtime/jsonrpc/socket.ts's (ws on Node, the
// standard WebSocket elsewhere).
import { RpcTransportError } from "../errors.ts";
import {
  applyRpcAuth,
  type BatchOutcome,
  DEFAULT_RPC_TIMEOUT_MS,
  isRecord,
  makeRequest,
  outcomeOf,
  type RpcCall,
  type RpcClient,
  type RpcClientOptions,
  type RpcParams,
  unwrap,
} from "./protocol.ts";
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

/** One client's connection and bookkeeping, shared by the functions below (none allocates per call). */
interface WsState {
  /** Set once, right after the state: the socket's callbacks need the state. */
  socket: ReturnType<typeof openRpcSocket>;
  readonly timeoutMs: number;
  readonly pending: Map<number, Pending>;
  readonly subscriptions: Map<string, (result: unknown) => void>;
  readonly early: Map<string, unknown[]>;
  readonly listeners: Set<(method: string, params: unknown) => void>;
  nextId: number;
  closedError: RpcTransportError | undefined;
}

export function wsRpc(options: WsRpcOptions): WsRpcClient {
  const { url, headers: authHeaders } = applyRpcAuth(options.url, options.apiKey, options.auth);
  const timeoutMs = options.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
  const state: WsState = {
    socket: undefined as unknown as WsState["socket"],
    timeoutMs,
    pending: new Map(),
    subscriptions: new Map(),
    early: new Map(),
    listeners: new Set(),
    nextId: 1,
    closedError: undefined,
  };
  state.socket = openRpcSocket({
    url,
    headers: { ...options.headers, ...authHeaders },
    connectTimeoutMs: options.connectTimeoutMs ?? timeoutMs,
    webSocket: options.webSocket,
    onClose: (code) => failPending(state, code),
    onMessage: (text) => receive(state, text),
  });
  const request = <T>(method: string, params?: RpcParams): Promise<T> => requestOver<T>(state, method, params);
  return {
    ready: state.socket.ready,
    request,
    async notify(method, params) {
      await send(state, makeRequest(undefined, method, params));
    },
    batch: (calls) => batchOver(state, calls),
    subscribe: (params, onResult, subscribeOptions = {}) => subscribeOver(state, params, onResult, subscribeOptions),
    onNotification(listener) {
      state.listeners.add(listener);
      return () => state.listeners.delete(listener);
    },
    close() {
      return state.socket.close();
    },
  };
}

/** The socket closed: every call still waiting fails with the same error, and so do later ones. */
function failPending(state: WsState, code: number): void {
  state.closedError = new RpcTransportError("closed", `WebSocket closed (code ${code})`);
  for (const [id, entry] of state.pending) {
    clearTimeout(entry.timer);
    entry.reject(state.closedError);
    state.pending.delete(id);
  }
}

/** One frame: a message or a batch of them; what is not JSON is ignored. */
function receive(state: WsState, text: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return;
  }
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) if (isRecord(message)) dispatch(state, message);
}

/** An answer settles its waiting call; a notification goes to the listeners and its subscription. */
function dispatch(state: WsState, message: Record<string, unknown>): void {
  if (typeof message.id === "number" && state.pending.has(message.id)) {
    const entry = state.pending.get(message.id) as Pending;
    state.pending.delete(message.id);
    clearTimeout(entry.timer);
    entry.resolve(message);
    return;
  }
  if (typeof message.method !== "string" || "id" in message) return;
  for (const listener of state.listeners) listener(message.method, message.params);
  const params = message.params;
  if (!isRecord(params) || (typeof params.subscription !== "string" && typeof params.subscription !== "number")) return;
  const subId = String(params.subscription);
  const callback = state.subscriptions.get(subId);
  if (callback !== undefined) return callback(params.result);
  bufferEarly(state.early, subId, params.result);
}

/** Keeps a notification for a subscription whose id subscribe() has not learnt yet, within bounds. */
function bufferEarly(early: Map<string, unknown[]>, subId: string, result: unknown): void {
  if (!early.has(subId) && early.size >= MAX_BUFFERED_SUBSCRIPTIONS) early.delete(early.keys().next().value as string);
  const buffered = early.get(subId) ?? [];
  if (buffered.length < MAX_BUFFERED_PER_SUBSCRIPTION) buffered.push(result);
  early.set(subId, buffered);
}

async function send(state: WsState, payload: unknown): Promise<void> {
  await state.socket.ready;
  if (state.closedError !== undefined || !state.socket.isOpen()) {
    throw state.closedError ?? new RpcTransportError("closed", "WebSocket is not open");
  }
  await state.socket.send(JSON.stringify(payload));
}

function expect(state: WsState, id: number, method: string): Promise<Record<string, unknown>> {
  const answer = new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => {
      state.pending.delete(id);
      reject(new RpcTransportError("timeout", `${method} (id ${id}) got no answer within ${state.timeoutMs} ms`));
    }, state.timeoutMs);
    state.pending.set(id, { resolve, reject, timer });
  });
  // The timer runs from here, while the socket may still be opening: a timeout before the caller awaits
  // the answer is still the caller's error, never an unhandled rejection that stops the process.
  answer.catch(() => {});
  return answer;
}

function forget(state: WsState, ids: number[]): void {
  for (const id of ids) {
    const entry = state.pending.get(id);
    if (entry !== undefined) clearTimeout(entry.timer);
    state.pending.delete(id);
  }
}

async function requestOver<T>(state: WsState, method: string, params?: RpcParams): Promise<T> {
  const id = state.nextId++;
  const answer = expect(state, id, method);
  try {
    await send(state, makeRequest(id, method, params));
  } catch (error) {
    forget(state, [id]);
    throw error;
  }
  return unwrap<T>(outcomeOf(await answer));
}

async function batchOver(state: WsState, calls: readonly RpcCall[]): Promise<BatchOutcome[]> {
  const ids = calls.map(() => state.nextId++);
  const answers = ids.map((id, i) => expect(state, id, calls[i].method));
  try {
    await send(
      state,
      calls.map((call, i) => makeRequest(ids[i], call.method, call.params)),
    );
  } catch (error) {
    forget(state, ids);
    throw error;
  }
  return Promise.all(answers.map((answer) => answer.then(outcomeOf)));
}

async function subscribeOver(
  state: WsState,
  params: RpcParams,
  onResult: (result: unknown) => void,
  options: SubscribeOptions,
): Promise<Subscription> {
  const id = await requestOver<unknown>(state, options.subscribeMethod ?? "eth_subscribe", params);
  if (typeof id !== "string" && typeof id !== "number") {
    throw new RpcTransportError("invalid_response", `subscription id must be a string, got ${JSON.stringify(id)}`);
  }
  const subId = String(id);
  state.subscriptions.set(subId, onResult);
  for (const result of state.early.get(subId) ?? []) onResult(result);
  state.early.delete(subId);
  return {
    id: subId,
    async unsubscribe() {
      state.subscriptions.delete(subId);
      return requestOver<boolean>(state, options.unsubscribeMethod ?? "eth_unsubscribe", [id]);
    },
  };
}
