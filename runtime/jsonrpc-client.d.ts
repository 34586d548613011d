export { JsonRpcError, RpcTransportError, type RpcTransportErrorKind } from "./errors.ts";
export * from "./jsonrpc-protocol.ts";
export * from "./jsonrpc-http.ts";
export * from "./jsonrpc-ws.ts";
