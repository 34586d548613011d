import type { z } from "zod";
import { type RpcClient } from "./jsonrpc-client.ts";
/** Sends one call and checks its result against the method's schema. */
export declare function callRpcMethod<T>(client: RpcClient, method: string, params: readonly unknown[], schema: z.ZodType): Promise<T>;
