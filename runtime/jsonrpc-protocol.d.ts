import { JsonRpcError } from "./errors.ts";
/** JSON-RPC 2.0's reserved error codes, and the node-access ones (-32000 server error, -32001 unauthorized). */
export declare const PARSE_ERROR = -32700;
export declare const INVALID_REQUEST = -32600;
export declare const METHOD_NOT_FOUND = -32601;
export declare const INVALID_PARAMS = -32602;
export declare const INTERNAL_ERROR = -32603;
export declare const SERVER_ERROR = -32000;
export declare const UNAUTHORIZED = -32001;
export declare const DEFAULT_RPC_TIMEOUT_MS = 10000;
export declare const MAX_RPC_RESPONSE_BYTES: number;
export type RpcAuth = "query" | "header";
export type RpcParams = readonly unknown[] | Record<string, unknown>;
export type RpcId = number | string | null;
export interface RpcCall {
    method: string;
    params?: RpcParams;
}
export type BatchOutcome = {
    ok: true;
    result: unknown;
} | {
    ok: false;
    error: JsonRpcError;
};
export interface RpcClient {
    request<T = unknown>(method: string, params?: RpcParams): Promise<T>;
    /** A notification: no id, no answer expected. */
    notify(method: string, params?: RpcParams): Promise<void>;
    /** Results in the order of `calls`. */
    batch(calls: readonly RpcCall[]): Promise<BatchOutcome[]>;
    close(): Promise<void>;
}
export interface RpcClientOptions {
    /** Full endpoint, e.g. http://127.0.0.1:8545/rpc or ws://127.0.0.1:8545/ws */
    url: string;
    apiKey?: string;
    /** Default "query". */
    auth?: RpcAuth;
    timeoutMs?: number;
    headers?: Record<string, string>;
}
/** The endpoint URL and headers that carry the key. */
export declare function applyRpcAuth(url: string, apiKey: string | undefined, auth?: RpcAuth): {
    url: string;
    headers: Record<string, string>;
};
export declare function makeRequest(id: number | undefined, method: string, params: RpcParams | undefined): Record<string, unknown>;
export declare function isRecord(x: unknown): x is Record<string, unknown>;
/** The JsonRpcError inside a response's error member (or an invalid_response error when malformed). */
export declare function toJsonRpcError(error: unknown): JsonRpcError;
export declare function outcomeOf(response: Record<string, unknown>): BatchOutcome;
export declare function unwrap<T>(outcome: BatchOutcome): T;
/** Why `response` does not answer request `id` (undefined when it does): an error with id null answers any request. */
export declare function responseProblem(response: unknown, id: RpcId): string | undefined;
