// Serving the node-access gateway: on its own loopback server (startNodeAccess), or mounted into an
// existing node:http server next to other routes (attachRpcGateway).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { createRpcGateway, type RpcGateway, type RpcGatewayOptions } from "./gateway.ts";
import { errorText, INVALID_REQUEST, NULL_ID } from "./jsonrpc.ts";
import { refuseUpgrade } from "./ws-transport.ts";

export interface NodeAccessOptions extends RpcGatewayOptions {
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
}

export interface NodeAccess {
  /** Node-access base URL (the seed's rpc_url), e.g. http://127.0.0.1:PORT; HTTP JSON-RPC is at url + "/rpc". */
  url: string;
  /** url + "/rpc". */
  httpUrl: string;
  /** ws://HOST:PORT/ws */
  wsUrl: string;
  port: number;
  gateway: RpcGateway;
  /** Stops listening, disconnects every client. The backend stays open (its owner closes it). */
  close(): Promise<void>;
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;
type UpgradeListener = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

function notFoundBody(gateway: RpcGateway): string {
  return errorText(NULL_ID, {
    code: INVALID_REQUEST,
    message: `not found: use POST ${gateway.httpPath} or WebSocket ${gateway.wsPath}`,
  });
}

/** Starts the gateway on its own HTTP server. */
export async function startNodeAccess(options: NodeAccessOptions): Promise<NodeAccess> {
  const host = options.host ?? "127.0.0.1";
  const gateway = createRpcGateway(options);
  const server = createServer();
  attachRpcGateway(server, gateway);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const authority = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  const url = `http://${authority}`;
  return {
    url,
    httpUrl: `${url}${gateway.httpPath}`,
    wsUrl: `ws://${authority}${gateway.wsPath}`,
    port,
    gateway,
    async close() {
      await gateway.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/**
 * Mounts the gateway into an existing server: its paths are answered by the gateway, every other
 * request and upgrade goes to the listeners the server already had (or gets a 404). Call it after the
 * server's own listeners are installed. Returns a function that restores the previous listeners.
 */
export function attachRpcGateway(server: Server, gateway: RpcGateway): () => void {
  const previousRequest = server.listeners("request") as RequestListener[];
  const previousUpgrade = server.listeners("upgrade") as UpgradeListener[];
  const notFound = notFoundBody(gateway);
  const onRequest: RequestListener = (req, res) => {
    if (gateway.handleRequest(req, res)) return;
    if (previousRequest.length > 0) {
      for (const listener of previousRequest) listener.call(server, req, res);
      return;
    }
    res.writeHead(404, {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(notFound),
    });
    res.end(notFound);
  };
  const onUpgrade: UpgradeListener = (req, socket, head) => {
    if (gateway.handleUpgrade(req, socket, head)) return;
    if (previousUpgrade.length > 0) {
      for (const listener of previousUpgrade) listener.call(server, req, socket, head);
      return;
    }
    refuseUpgrade(socket, 404, "Not Found", notFound);
  };
  server.removeAllListeners("request");
  server.removeAllListeners("upgrade");
  server.on("request", onRequest);
  server.on("upgrade", onUpgrade);
  return () => {
    server.off("request", onRequest);
    server.off("upgrade", onUpgrade);
    for (const listener of previousRequest) server.on("request", listener);
    for (const listener of previousUpgrade) server.on("upgrade", listener);
  };
}
