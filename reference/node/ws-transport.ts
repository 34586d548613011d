// JSON-RPC over WebSocket at `{path}`. The API key is checked before the upgrade; a refused upgrade gets
// a plain HTTP/1.1 401 with the JSON-RPC body. The message handler is attached inside the upgrade
// callback, synchronously, so a request sent the instant the socket opens is never missed.
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { type RawData, type WebSocket, WebSocketServer } from "ws";
import { presentedKey } from "./auth.ts";
import type { PayloadHandler } from "./dispatch.ts";
import { UNAUTHORIZED_RPC_BODY } from "./jsonrpc.ts";
import type { Subscriber } from "./subscriptions.ts";

export interface WsTransportOptions {
  path: string;
  checkKey: (key: string | undefined) => boolean;
  dispatcher: PayloadHandler;
  /** Told when a connection closes, to drop its subscriptions. */
  hub: { unsubscribeAll(owner: Subscriber): void };
  maxMessageBytes: number;
  pingIntervalMs: number;
  maxInFlight: number;
  /** A client that lets this much unsent data pile up is disconnected. */
  maxBufferedBytes: number;
}

export interface WsTransport {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  close(): void;
}

interface Connection extends Subscriber {
  ws: WebSocket;
  alive: boolean;
  inFlight: number;
}

export function createWsTransport(options: WsTransportOptions): WsTransport {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxMessageBytes,
    perMessageDeflate: false,
    clientTracking: false,
  });
  const connections = new Set<Connection>();
  const pinger = setInterval(() => pingAll(connections), options.pingIntervalMs);
  pinger.unref();
  const attach = (ws: WebSocket): void => attachConnection(ws, options, connections);

  return {
    handleUpgrade(req, socket, head) {
      if (!isTransportPath(req.url ?? "/", options.path)) return false;
      if (!options.checkKey(presentedKey(req))) {
        refuseUpgrade(socket, 401, "Unauthorized", UNAUTHORIZED_RPC_BODY, { "WWW-Authenticate": "APIKEY" });
        return true;
      }
      wss.handleUpgrade(req, socket, head, attach);
      return true;
    },
    close() {
      clearInterval(pinger);
      for (const conn of connections) conn.ws.terminate();
      connections.clear();
      wss.close();
    },
  };
}

/** Keepalive: a connection that did not answer the previous ping is dead (half-open TCP) and dropped. */
function pingAll(connections: Set<Connection>): void {
  for (const conn of connections) {
    if (!conn.alive) {
      conn.ws.terminate();
      continue;
    }
    conn.alive = false;
    conn.ws.ping();
  }
}

/** Whether a request URL (its query ignored) is the transport's path, with or without a trailing slash. */
function isTransportPath(url: string, path: string): boolean {
  const q = url.indexOf("?");
  const requestPath = q < 0 ? url : url.slice(0, q);
  return requestPath === path || requestPath === `${path}/`;
}

/** The connection record of an upgraded socket; its send drops a client that lets unsent data pile up. */
function newConnection(ws: WebSocket, options: WsTransportOptions): Connection {
  return {
    ws,
    alive: true,
    inFlight: 0,
    subscriptions: new Set(),
    send(text) {
      if (ws.readyState !== ws.OPEN) return;
      if (ws.bufferedAmount > options.maxBufferedBytes) {
        ws.terminate(); // a client that does not read must not make the server buffer without bound
        return;
      }
      ws.send(text);
    },
  };
}

/** Tracks an upgraded socket: pongs, messages (bounded in flight) to the dispatcher, cleanup on close. */
function attachConnection(ws: WebSocket, options: WsTransportOptions, connections: Set<Connection>): void {
  const conn = newConnection(ws, options);
  connections.add(conn);
  ws.on("pong", () => {
    conn.alive = true;
  });
  ws.on("message", (data) => {
    if (conn.inFlight >= options.maxInFlight) {
      ws.close(1008, "too many requests in flight");
      return;
    }
    conn.inFlight++;
    void options.dispatcher.handle(textOf(data), { transport: "ws", subscriber: conn }).then((answer) => {
      conn.inFlight--;
      if (answer !== undefined) conn.send(answer);
    });
  });
  ws.on("close", () => {
    connections.delete(conn);
    options.hub.unsubscribeAll(conn);
  });
  ws.on("error", () => {
    // ws closes the connection itself (e.g. message over maxPayload → 1009); "close" cleans up.
  });
}

/** Writes a complete HTTP/1.1 response on an upgrade socket and closes it. */
export function refuseUpgrade(
  socket: Duplex,
  status: number,
  reason: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  socket.on("error", () => undefined);
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const lines = [
    `HTTP/1.1 ${status} ${reason}`,
    "Content-Type: application/json; charset=utf-8",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.once("finish", () => socket.destroy());
  socket.end(`${lines.join("\r\n")}\r\n\r\n${body}`);
}

function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString("utf8");
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  return Buffer.from(data).toString("utf8");
}
