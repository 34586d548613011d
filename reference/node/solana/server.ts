// Serving the Solana JSON-RPC: HTTP POST at "/" on port P and WebSocket on port P + 1, where
// @solana/web3.js looks for it when the RPC URL names a port (its makeWebsocketUrl; solana-test-validator
// listens the same way). The WebSocket is also accepted on P itself, for clients given an explicit
// wsEndpoint. API keys as for the EVM node access (auth.ts): `authorization: APIKEY <key>` or ?api_key=.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { SolanaRuntime } from "../../chain/solana/runtime.ts";
import { type ApiKeys, createKeyCheck } from "../auth.ts";
import { createHttpTransport } from "../http-transport.ts";
import { errorText, INVALID_REQUEST, NULL_ID } from "../jsonrpc.ts";
import { createWsTransport, refuseUpgrade } from "../ws-transport.ts";
import { SolanaDispatcher } from "./dispatcher.ts";
import { SolanaSubscriptions } from "./subscriptions.ts";

export interface SolanaRpcOptions {
  runtime: SolanaRuntime;
  apiKeys: ApiKeys;
  host?: string;
  /** HTTP port; the WebSocket takes port + 1. Default 0: a free pair. */
  port?: number;
}

export interface SolanaRpc {
  /** http://HOST:P (JSON-RPC at "/"). */
  url: string;
  /** ws://HOST:P+1 */
  wsUrl: string;
  close(): Promise<void>;
}

const MiB = 1024 * 1024;
const PAIR_ATTEMPTS = 20;

export async function startSolanaRpc(options: SolanaRpcOptions): Promise<SolanaRpc> {
  const host = options.host ?? "127.0.0.1";
  const checkKey = createKeyCheck(options.apiKeys);
  const subs = new SolanaSubscriptions(options.runtime);
  const dispatcher = new SolanaDispatcher(options.runtime, subs);
  const handleRequest = createHttpTransport({ path: "/", maxBodyBytes: MiB, checkKey, dispatcher });
  const ws = createWsTransport({
    path: "/",
    checkKey,
    dispatcher,
    hub: subs,
    maxMessageBytes: MiB,
    pingIntervalMs: 30_000,
    maxInFlight: 1024,
    maxBufferedBytes: 16 * MiB,
  });
  const notFound = errorText(NULL_ID, {
    code: INVALID_REQUEST,
    message: "not found: POST / (JSON-RPC) or WebSocket /",
  });
  const build = (): Server => {
    const server = createServer((req, res) => {
      if (handleRequest(req, res)) return;
      res.writeHead(404, { "content-type": "application/json; charset=utf-8" });
      res.end(notFound);
    });
    server.on("upgrade", (req, socket, head) => {
      if (!ws.handleUpgrade(req, socket, head)) refuseUpgrade(socket, 404, "Not Found", notFound);
    });
    return server;
  };
  const [http, wsServer] = await listenPair(build, host, options.port ?? 0);
  const port = (http.address() as AddressInfo).port;
  const authority = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${authority}:${port}`,
    wsUrl: `ws://${authority}:${port + 1}`,
    async close() {
      ws.close();
      subs.close();
      await Promise.all(
        [http, wsServer].map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      );
    },
  };
}

/** Two servers on P and P + 1: the given P, or the first free pair among a few tries. */
async function listenPair(build: () => Server, host: string, port: number): Promise<[Server, Server]> {
  for (let attempt = 0; ; attempt++) {
    const first = build();
    await listen(first, host, port);
    const p = (first.address() as AddressInfo).port;
    const second = build();
    try {
      await listen(second, host, p + 1);
      return [first, second];
    } catch (error) {
      await new Promise<void>((resolve) => first.close(() => resolve()));
      if (port !== 0)
        throw new Error(
          `the Solana RPC needs ports ${p} and ${p + 1} (web3.js opens the WebSocket on port + 1); ${p + 1} is taken: ${(error as Error).message}`,
        );
      if (attempt >= PAIR_ATTEMPTS)
        throw new Error(`found no two free adjacent ports for the Solana RPC after ${PAIR_ATTEMPTS} tries`);
    }
  }
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}
