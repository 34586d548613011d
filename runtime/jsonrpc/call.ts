// What every generated JSON-RPC method does: send the call, then check the result against the
// method's schema from the OpenRPC document.

import { firstIssue, type ParsingSchema } from "../schema/issue.ts";
import { httpRpc, type RpcAuth, type RpcClient, RpcTransportError, type WsRpcClient, wsRpc } from "./client.ts";

/** Sends one call and checks its result against the method's schema. */
export async function callRpcMethod<T>(
  client: RpcClient,
  method: string,
  params: readonly unknown[],
  schema: ParsingSchema,
): Promise<T> {
  const result = await client.request(method, trimOptional(params));
  const checked = schema.safeParse(result);
  if (checked.success) return checked.data as T;
  throw new RpcTransportError(
    "invalid_response",
    `${method}: the result does not match the spec at ${firstIssue(checked.error)}`,
  );
}

/** Trailing optional params left out are not sent as nulls. */
function trimOptional(params: readonly unknown[]): unknown[] {
  let end = params.length;
  while (end > 0 && params[end - 1] === undefined) end--;
  return params.slice(0, end);
}

/** What a generated createRpcClient takes. */
export interface TypedRpcClientOptions {
  /** HTTP endpoint, e.g. http://127.0.0.1:8545/rpc */
  url: string;
  /** WebSocket endpoint, e.g. ws://127.0.0.1:8545/ws; needed for client.ws. */
  wsUrl?: string;
  apiKey: string;
  /** Where the key goes: the api_key query parameter (default) or `authorization: APIKEY <key>`. */
  auth?: RpcAuth;
  timeoutMs?: number;
  /** HTTP calls: an undici Dispatcher to send with; false: the standard fetch (the default off Node; on Node undici's global dispatcher, loaded lazily). */
  dispatcher?: unknown;
}

/** A document's typed methods over HTTP, the same over WebSocket, and the untyped transports. */
export type TypedRpcClient<M> = M & {
  /** The same methods over WebSocket (connected on first use). */
  readonly ws: M;
  /** The untyped transports, for batches, notifications and subscriptions. */
  readonly http: RpcClient;
  socket(): WsRpcClient;
  close(): Promise<void>;
};

/** The client a generated rpc.ts returns: its `methodsOver` bound to HTTP, and to a lazily opened socket. */
export function createTypedRpcClient<M extends object>(
  options: TypedRpcClientOptions,
  methodsOver: (transport: () => RpcClient) => M,
): TypedRpcClient<M> {
  const http = httpRpc({
    url: options.url,
    apiKey: options.apiKey,
    auth: options.auth,
    timeoutMs: options.timeoutMs,
    dispatcher: options.dispatcher,
  });
  let ws: WsRpcClient | undefined;
  const socket = (): WsRpcClient => {
    if (options.wsUrl === undefined) throw new Error("createRpcClient: no wsUrl was given");
    ws ??= wsRpc({ url: options.wsUrl, apiKey: options.apiKey, auth: options.auth, timeoutMs: options.timeoutMs });
    return ws;
  };
  return {
    ...methodsOver(() => http),
    ws: methodsOver(socket),
    http,
    socket,
    async close() {
      await http.close();
      await ws?.close();
    },
  };
}
