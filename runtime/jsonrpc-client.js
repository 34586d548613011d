// JSON-RPC 2.0 client for node access (seed 4.1): the protocol (jsonrpc-protocol.ts) and its two
// transports, HTTP POST (jsonrpc-http.ts) and WebSocket (jsonrpc-ws.ts), under one import.
export { JsonRpcError, RpcTransportError } from "./errors.ts";
export * from "./jsonrpc-protocol.ts";
export * from "./jsonrpc-http.ts";
export * from "./jsonrpc-ws.ts";
//# sourceMappingURL=jsonrpc-client.js.map