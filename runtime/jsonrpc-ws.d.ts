import { type RpcClient, type RpcClientOptions, type RpcParams } from "./jsonrpc-protocol.ts";
export interface Subscription {
    id: string;
    unsubscribe(): Promise<boolean>;
}
export interface SubscribeOptions {
    /** Defaults: eth_subscribe / eth_unsubscribe. Notifications are routed by params.subscription. */
    subscribeMethod?: string;
    unsubscribeMethod?: string;
}
export interface WsRpcClient extends RpcClient {
    /** Resolves when the socket is open; rejects (e.g. HTTP 401 on the upgrade) when it cannot open. */
    readonly ready: Promise<void>;
    /** Subscribes and routes each notification's `params.result` to `onResult`. */
    subscribe(params: RpcParams, onResult: (result: unknown) => void, options?: SubscribeOptions): Promise<Subscription>;
    /** Every notification the server sends (including subscription ones). Returns an unsubscribe function. */
    onNotification(listener: (method: string, params: unknown) => void): () => void;
}
export interface WsRpcOptions extends RpcClientOptions {
    /** Handshake timeout; defaults to timeoutMs. */
    connectTimeoutMs?: number;
}
export declare function wsRpc(options: WsRpcOptions): WsRpcClient;
