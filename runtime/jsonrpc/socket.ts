// The one WebSocket connection of the JSON-RPC client, on every runtime. Which implementation:
// - Node: the ws package, imported lazily (it reports the status and body of a refused upgrade — the
//   JSON-RPC error of a 401 — and sends headers, which the standard WebSocket cannot);
// - Bun, Deno, browsers, edge runtimes, or Node without ws: the standard global WebSocket;
// - or the standard WebSocket class the caller hands in (`webSocket`).
// Text frames in, text frames out; no Buffer.
import { RpcTransportError } from "../errors.ts";
import { isNode } from "../host.ts";
import { isRecord, toJsonRpcError } from "./protocol.ts";

/** The standard WebSocket API this module uses (the global one, undici's, a browser's). */
export interface StandardWebSocket {
  readonly readyState: number;
  binaryType: string;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(
    type: string,
    listener: (event: { data?: unknown; code?: number; message?: string; error?: unknown }) => void,
    options?: { once?: boolean },
  ): void;
}
export type StandardWebSocketClass = new (url: string, protocolsOrInit?: unknown) => StandardWebSocket;

export interface RpcSocketOptions {
  url: string;
  /** Headers for the upgrade request (an authorization header, say); the standard WebSocket cannot send them everywhere. */
  headers: Record<string, string>;
  connectTimeoutMs: number;
  /** A standard WebSocket class to use instead of the default choice. */
  webSocket?: StandardWebSocketClass;
  onMessage(text: string): void;
  onClose(code: number): void;
}

export interface RpcSocket {
  /** Resolves when open; rejects (the server's JSON-RPC error for a refused upgrade, where known) when it cannot open. */
  readonly ready: Promise<void>;
  isOpen(): boolean;
  send(text: string): Promise<void>;
  /** Closes, and gives up on a peer that never completes the closing handshake after 1 s. */
  close(): Promise<void>;
}

interface Connection {
  isOpen(): boolean;
  send(text: string): Promise<void>;
  close(): Promise<void>;
}

const OPEN = 1;
const CLOSED = 3;

/** Opens the connection in the background; `ready` tells how it went. */
export function openRpcSocket(options: RpcSocketOptions): RpcSocket {
  const origin = new URL(options.url).origin;
  let connection: Connection | undefined;
  let closing = false;
  const opened = chooseImplementation(options).then((open) => {
    if (closing) throw new RpcTransportError("closed", "WebSocket closed before it opened");
    return open(options, origin);
  });
  const ready = opened.then(({ connection: c, open }) => {
    connection = c;
    return open;
  });
  // The caller may never await ready; its failure then surfaces through send().
  ready.catch(() => {});
  return {
    ready,
    isOpen: () => connection?.isOpen() ?? false,
    async send(text) {
      await ready;
      return (connection as Connection).send(text);
    },
    async close() {
      closing = true;
      const settled = await opened.then(
        (o) => o.connection,
        () => undefined,
      );
      await settled?.close();
    },
  };
}

type Opener = (options: RpcSocketOptions, origin: string) => { connection: Connection; open: Promise<void> };

async function chooseImplementation(options: RpcSocketOptions): Promise<Opener> {
  if (options.webSocket !== undefined)
    return (o, origin) => openStandard(options.webSocket as StandardWebSocketClass, o, origin);
  const global = (globalThis as { WebSocket?: StandardWebSocketClass }).WebSocket;
  if (isNode() || global === undefined) {
    // `"ws" as string`: tsc then needs no @types/ws (what this file uses of ws is typed below), and the
    // JavaScript still reads import("ws"), so npm, bundlers and the package's dependencies see it.
    const ws = await import("ws" as string).then(
      (m: { default: WsClass }) => m.default,
      () => undefined,
    );
    if (ws !== undefined) return (o, origin) => openWs(ws, o, origin);
  }
  if (global === undefined)
    throw new RpcTransportError("network", "this runtime has no WebSocket and the ws package cannot be loaded");
  return (o, origin) => openStandard(global, o, origin);
}

function openStandard(
  WebSocketClass: StandardWebSocketClass,
  options: RpcSocketOptions,
  origin: string,
): { connection: Connection; open: Promise<void> } {
  const wantsHeaders = Object.keys(options.headers).length > 0;
  let socket: StandardWebSocket;
  try {
    // Headers go in the init object undici (Node 22+), Bun and Deno accept; browsers cannot send them.
    socket = wantsHeaders
      ? new WebSocketClass(options.url, { headers: options.headers })
      : new WebSocketClass(options.url);
  } catch (error) {
    const why = wantsHeaders
      ? 'this runtime\'s WebSocket cannot send headers; use auth "query"'
      : (error as Error)?.message;
    const failed = Promise.reject(
      new RpcTransportError("network", `WebSocket ${origin} failed: ${why}`, { cause: error }),
    );
    return { connection: { isOpen: () => false, send: () => failed, close: async () => {} }, open: failed };
  }
  socket.binaryType = "arraybuffer";
  const decoder = new TextDecoder();
  const closed = new Promise<void>((resolve) => socket.addEventListener("close", () => resolve(), { once: true }));
  const open = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(
        new RpcTransportError("timeout", `WebSocket ${origin} did not open within ${options.connectTimeoutMs} ms`),
      );
      socket.close();
    }, options.connectTimeoutMs);
    socket.addEventListener("open", () => (clearTimeout(timer), resolve()), { once: true });
    // The standard API does not say why (a refused upgrade's status is hidden): name the endpoint.
    socket.addEventListener(
      "error",
      (event) => (
        clearTimeout(timer),
        reject(
          new RpcTransportError("network", `WebSocket ${origin} failed${event.message ? `: ${event.message}` : ""}`, {
            cause: event.error,
          }),
        )
      ),
      { once: true },
    );
    socket.addEventListener(
      "close",
      () => (clearTimeout(timer), reject(new RpcTransportError("closed", "WebSocket closed before it opened"))),
      { once: true },
    );
  });
  open.catch(() => {});
  socket.addEventListener("close", (event) => options.onClose(event.code ?? 1006));
  socket.addEventListener("message", (event) => {
    const data = event.data;
    if (typeof data === "string") options.onMessage(data);
    else if (data instanceof ArrayBuffer) options.onMessage(decoder.decode(data));
  });
  return {
    open,
    connection: {
      isOpen: () => socket.readyState === OPEN,
      async send(text) {
        if (socket.readyState !== OPEN) throw new RpcTransportError("closed", "WebSocket is not open");
        socket.send(text);
      },
      close() {
        if (socket.readyState === CLOSED) return Promise.resolve();
        socket.close();
        // No terminate() in the standard API: stop waiting after 1 s.
        return Promise.race([closed, delay(1000)]);
      },
    },
  };
}

/** What this file uses of the ws package's WebSocket class (ws 8). */
interface WsClass {
  new (url: string, options: { headers: Record<string, string>; handshakeTimeout: number }): WsSocket;
  readonly CONNECTING: number;
  readonly OPEN: number;
  readonly CLOSED: number;
}

interface WsSocket {
  readonly readyState: number;
  once(event: "open", listener: () => void): unknown;
  once(
    event: "unexpected-response",
    listener: (request: { destroy(): void }, response: WsUpgradeResponse) => void,
  ): unknown;
  once(event: "error", listener: (error: Error) => void): unknown;
  once(event: "close", listener: () => void): unknown;
  on(event: "close", listener: (code: number) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  on(event: "message", listener: (data: ArrayBuffer | Uint8Array | Uint8Array[]) => void): unknown;
  send(data: string, callback: (error?: Error) => void): void;
  close(): void;
  terminate(): void;
}

/** The refused upgrade's answer (node:http's IncomingMessage). */
interface WsUpgradeResponse {
  readonly statusCode?: number;
  on(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  on(event: "end" | "error", listener: () => void): unknown;
}

function openWs(
  WebSocket: WsClass,
  options: RpcSocketOptions,
  origin: string,
): { connection: Connection; open: Promise<void> } {
  const socket = new WebSocket(options.url, { headers: options.headers, handshakeTimeout: options.connectTimeoutMs });
  const open = new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("unexpected-response", (req, res) => {
      // The upgrade was refused (401 and its JSON-RPC body, for instance): report what the server said.
      const chunks: Uint8Array[] = [];
      res.on("data", (chunk: Uint8Array) => chunks.length < 64 && chunks.push(chunk));
      res.on("end", () => {
        const body = new TextDecoder().decode(joinChunks(chunks));
        let error: Error = new RpcTransportError("http", `WebSocket upgrade refused with HTTP ${res.statusCode}`, {
          status: res.statusCode,
          body,
        });
        try {
          const parsed: unknown = JSON.parse(body);
          if (isRecord(parsed) && isRecord(parsed.error)) error = toJsonRpcError(parsed.error);
        } catch {
          // not JSON: keep the transport error
        }
        reject(error);
        req.destroy();
      });
      res.on("error", () =>
        reject(
          new RpcTransportError("http", `WebSocket upgrade refused with HTTP ${res.statusCode}`, {
            status: res.statusCode,
          }),
        ),
      );
    });
    socket.once("error", (error) =>
      reject(new RpcTransportError("network", `WebSocket ${origin} failed: ${error.message}`, { cause: error })),
    );
    socket.once("close", () => reject(new RpcTransportError("closed", "WebSocket closed before it opened")));
  });
  open.catch(() => {});
  socket.on("close", (code) => options.onClose(code));
  socket.on("error", () => {
    // Surfaced through open or the close handler; an unhandled 'error' would crash the process.
  });
  socket.on("message", (data) => {
    const parts = Array.isArray(data) ? data : [data];
    options.onMessage(
      new TextDecoder().decode(parts.length === 1 ? toBytes(parts[0]) : joinChunks(parts.map(toBytes))),
    );
  });
  return {
    open,
    connection: {
      isOpen: () => socket.readyState === WebSocket.OPEN,
      async send(text) {
        if (socket.readyState !== WebSocket.OPEN) throw new RpcTransportError("closed", "WebSocket is not open");
        await new Promise<void>((resolve, reject) =>
          socket.send(text, (error) =>
            error
              ? reject(new RpcTransportError("network", `send failed: ${error.message}`, { cause: error }))
              : resolve(),
          ),
        );
      },
      close() {
        return new Promise<void>((resolve) => {
          if (socket.readyState === WebSocket.CLOSED) return resolve();
          socket.once("close", () => resolve());
          if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
          else socket.close();
          // A peer that never completes the closing handshake must not hold close() forever.
          const timer = setTimeout(() => socket.terminate(), 1000);
          (timer as { unref?: () => void }).unref?.();
        });
      },
    },
  };
}

function toBytes(data: ArrayBuffer | Uint8Array): Uint8Array {
  return data instanceof Uint8Array ? data : new Uint8Array(data);
}

function joinChunks(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    (timer as { unref?: () => void }).unref?.();
  });
}
