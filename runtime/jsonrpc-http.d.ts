import { type Dispatcher } from "undici";
import { type RpcClient, type RpcClientOptions } from "./jsonrpc-protocol.ts";
export interface HttpRpcOptions extends RpcClientOptions {
    dispatcher?: Dispatcher;
}
export declare function httpRpc(options: HttpRpcOptions): RpcClient;
