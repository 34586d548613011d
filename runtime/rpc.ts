// The JSON-RPC side of the runtime alone, for generated rpc.ts built with `--runtime package`: the typed
// client over HTTP and WebSocket. Nothing here reaches the server or the webhook code; undici and ws are
// only imported lazily, on Node (runtime/jsonrpc/http.ts, runtime/jsonrpc/socket.ts).
export * from "./jsonrpc/call.ts";
export * from "./jsonrpc/client.ts";
