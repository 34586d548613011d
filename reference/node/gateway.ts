// The node-access gateway: JSON-RPC 2.0 over HTTP (`POST /rpc`) and WebSocket (`/ws`) in front of a
// ChainBackend, with API-key authentication on both. Transport-neutral parts live in dispatch.ts.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { ChainBackend } from "../chain/backend.ts";
import { type ApiKeys, createKeyCheck } from "./auth.ts";
import { RpcDispatcher } from "./dispatch.ts";
import { createHttpTransport } from "./http-transport.ts";
import { SubscriptionHub } from "./subscriptions.ts";
import { createWsTransport } from "./ws-transport.ts";

export interface RpcGatewayOptions {
  backend: ChainBackend;
  apiKeys: ApiKeys;
  /** Default "/rpc". */
  httpPath?: string;
  /** Default "/ws". */
  wsPath?: string;
  /** Largest HTTP request body. Default 1 MiB; larger → 413. */
  maxBodyBytes?: number;
  /** Most requests in one batch. Default 100; more → -32600. */
  maxBatchSize?: number;
  /** Largest WebSocket message. Default 1 MiB; larger → close code 1009. */
  maxWsMessageBytes?: number;
  /** Keepalive ping interval. Default 30 s. */
  pingIntervalMs?: number;
  /** Unanswered requests one socket may have. Default 1024; more → close code 1008. */
  maxInFlightPerSocket?: number;
}

export interface RpcGateway {
  /** Answers a request for the HTTP path and returns true; returns false (untouched) for any other path. */
  handleRequest(req: IncomingMessage, res: ServerResponse): boolean;
  /** Handles an upgrade for the WebSocket path and returns true; returns false (untouched) otherwise. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  readonly httpPath: string;
  readonly wsPath: string;
  /** Disconnects every WebSocket client and stops subscriptions. Does not close the backend. */
  close(): Promise<void>;
}

const MiB = 1024 * 1024;

export function createRpcGateway(options: RpcGatewayOptions): RpcGateway {
  const httpPath = options.httpPath ?? "/rpc";
  const wsPath = options.wsPath ?? "/ws";
  const checkKey = createKeyCheck(options.apiKeys);
  const hub = new SubscriptionHub(options.backend);
  const dispatcher = new RpcDispatcher({ backend: options.backend, hub, maxBatchSize: options.maxBatchSize ?? 100 });
  const handleRequest = createHttpTransport({
    path: httpPath,
    maxBodyBytes: options.maxBodyBytes ?? MiB,
    checkKey,
    dispatcher,
  });
  const ws = createWsTransport({
    path: wsPath,
    checkKey,
    dispatcher,
    hub,
    maxMessageBytes: options.maxWsMessageBytes ?? MiB,
    pingIntervalMs: options.pingIntervalMs ?? 30_000,
    maxInFlight: options.maxInFlightPerSocket ?? 1024,
    maxBufferedBytes: 16 * MiB,
  });
  return {
    handleRequest,
    handleUpgrade: (req, socket, head) => ws.handleUpgrade(req, socket, head),
    httpPath,
    wsPath,
    async close() {
      ws.close();
      hub.close();
    },
  };
}
