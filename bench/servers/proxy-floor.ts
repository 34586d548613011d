// Server child: the proxy floor. The least a Node proxy can do: node:http in, undici out, bytes passed
// through without any JSON work; over WebSocket each message becomes one upstream HTTP POST.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Pool } from "undici";
import { WebSocketServer } from "ws";
import { announce, failStart } from "./announce.ts";

try {
  const upstream = new URL(process.argv[2] ?? "");
  const pool = new Pool(upstream.origin, { connections: 32 });
  const forward = async (body: Buffer): Promise<{ status: number; bytes: Buffer }> => {
    const res = await pool.request({
      method: "POST",
      path: upstream.pathname,
      headers: { "content-type": "application/json" },
      body,
    });
    return { status: res.statusCode, bytes: Buffer.from(await res.body.arrayBuffer()) };
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      forward(Buffer.concat(chunks)).then(
        ({ status, bytes }) => {
          res.writeHead(status, { "content-type": "application/json", "content-length": String(bytes.length) });
          res.end(bytes);
        },
        () => {
          res.writeHead(502).end();
        },
      );
    });
  });
  server.keepAliveTimeout = 60_000;
  const wss = new WebSocketServer({ server, path: "/ws" });
  wss.on("connection", (socket) => {
    socket.on("message", (data: Buffer) => {
      forward(data).then(
        ({ bytes }) => socket.send(bytes, { binary: false }),
        () => socket.close(1011),
      );
    });
  });
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address() as AddressInfo;
    announce({ http_url: `http://127.0.0.1:${port}/rpc`, ws_url: `ws://127.0.0.1:${port}/ws` });
  });
} catch (error) {
  failStart(error);
}
