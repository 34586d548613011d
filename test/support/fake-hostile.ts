// Hostile targets for the runner: servers that hang, reset, drip bytes, redirect off-host, answer
// HTML, 10 MB bodies, invalid JSON, the wrong content type, echo secrets back, and WebSockets
// that never answer or close mid-request.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";

export const HTTP_MODES = [
  "hang",
  "reset",
  "drip",
  "redirect",
  "html",
  "huge",
  "invalid-json",
  "wrong-content-type",
  "echo",
] as const;
export type HttpMode = (typeof HTTP_MODES)[number];
export const WS_MODES = ["ws-never-answers", "ws-close-mid-request", "ws-hang-upgrade"] as const;
export type WsMode = (typeof WS_MODES)[number];

export interface HostileServer {
  url: string;
  wsUrl: string;
  /** Requests the off-host redirect target received (must stay 0: the runner never follows). */
  redirectHits(): number;
  close(): Promise<void>;
}

const TEN_MB = 10 * 1024 * 1024;

export async function startHostile(mode: HttpMode | WsMode): Promise<HostileServer> {
  const sockets = new Set<Socket | Duplex>();
  const timers = new Set<NodeJS.Timeout>();
  let hits = 0;
  // The "other host" a redirect points to: a second server that counts every request it gets.
  const elsewhere = createServer((_req, res) => {
    hits++;
    res.end("{}");
  });
  const elsewherePort = await listen(elsewhere);

  const server = createServer((req, res) => answer(mode, req, res));
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    if (mode === "reset") s.destroy();
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    sockets.add(socket);
    if (mode === "ws-hang-upgrade" || mode === "hang" || mode === "drip") return; // never completes the handshake
    if (mode === "reset") return socket.destroy();
    if (mode === "redirect")
      return void socket.end(
        `HTTP/1.1 302 Found\r\nlocation: http://127.0.0.1:${elsewherePort}/ws\r\ncontent-length: 0\r\n\r\n`,
      );
    if (mode !== "ws-never-answers" && mode !== "ws-close-mid-request") {
      return void socket.end("HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 13\r\n\r\n<html></html>");
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on("message", () => {
        if (mode === "ws-close-mid-request") ws.terminate();
      });
    });
  });

  function answer(m: HttpMode | WsMode, req: IncomingMessage, res: ServerResponse): void {
    req.resume();
    switch (m) {
      case "hang":
        return;
      case "drip": {
        res.writeHead(200, { "content-type": "application/json" });
        const t = setInterval(() => res.write(" "), 100);
        timers.add(t);
        res.on("close", () => clearInterval(t));
        return;
      }
      case "redirect":
        res.writeHead(302, { location: `http://127.0.0.1:${elsewherePort}${req.url}` }).end();
        return;
      case "html":
        res
          .writeHead(200, { "content-type": "text/html" })
          .end("<!doctype html><html><body><h1>Welcome to nginx!</h1></body></html>");
        return;
      case "huge":
        res.writeHead(200, { "content-type": "application/json" });
        res.end(Buffer.alloc(TEN_MB, 0x20));
        return;
      case "invalid-json":
        res.writeHead(200, { "content-type": "application/json" }).end('{"success": true, "data": [');
        return;
      case "wrong-content-type":
        res
          .writeHead(200, { "content-type": "text/plain" })
          .end('{"success":true,"message":"success","code":0,"data":null}');
        return;
      case "echo":
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ url: req.url, headers: req.headers }));
        return;
      default:
        // WS modes: plain HTTP is a harmless 404 so only the WebSocket checks are hostile.
        res
          .writeHead(404, { "content-type": "application/json" })
          .end('{"success":false,"message":"not found","code":404,"data":null}');
    }
  }

  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}/ws`,
    redirectHits: () => hits,
    async close() {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
      for (const c of wss.clients) c.terminate();
      wss.close();
      server.closeAllConnections();
      elsewhere.closeAllConnections();
      await Promise.all([new Promise((r) => server.close(r)), new Promise((r) => elsewhere.close(r))]);
    },
  };
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}
