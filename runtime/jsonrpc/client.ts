// JSON-RPC 2.0 client for node access (seed 4.1): the protocol (jsonrpc/protocol.ts) and its two
// transports, HTTP POST (jsonrpc/http.ts) and WebSocket (jsonrpc/ws.ts), under one import.
export { JsonRpcError, RpcTransportError, type RpcTransportErrorKind } from "../errors.ts";
export * from "./http.ts";
export * from "./protocol.ts";
export * from "./ws.ts";
