// Serving a request listener on a port, with timeouts that keep slow or silent clients from holding
// connections forever, and a close() that does not wait for idle keep-alive sockets.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ListenOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Whole request, headers and body. Default 30 s. */
  requestTimeoutMs?: number;
  /** Default 10 s. */
  headersTimeoutMs?: number;
}

export interface RunningServer {
  /** http://host:port, no trailing slash. */
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

export function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  options: ListenOptions = {},
): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  const server = createServer(handler);
  server.requestTimeout = options.requestTimeoutMs ?? 30_000;
  server.headersTimeout = options.headersTimeoutMs ?? 10_000;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      const { port } = server.address() as AddressInfo;
      const shownHost = host.includes(":") ? `[${host}]` : host;
      resolve({
        url: `http://${shownHost}:${port}`,
        port,
        server,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            server.closeAllConnections();
          }),
      });
    });
  });
}
