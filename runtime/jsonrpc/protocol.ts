// JSON-RPC 2.0 as both transports (jsonrpc/http.ts, jsonrpc/ws.ts) speak it: the message shapes,
// where the API key goes (the api_key query parameter or `authorization: APIKEY <key>`), and how an
// answer becomes a result or a JsonRpcError. Written once, for every client of node access.
import { JsonRpcError } from "../errors.ts";

/** JSON-RPC 2.0's reserved error codes, and the node-access ones (-32000 server error, -32001 unauthorized). */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
export const SERVER_ERROR = -32000;
export const UNAUTHORIZED = -32001;

export const DEFAULT_RPC_TIMEOUT_MS = 10_000;
export const MAX_RPC_RESPONSE_BYTES = 10 * 1024 * 1024;

export type RpcAuth = "query" | "header";
export type RpcParams = readonly unknown[] | Record<string, unknown>;
export type RpcId = number | string | null;

export interface RpcCall {
  method: string;
  params?: RpcParams;
}

export type BatchOutcome = { ok: true; result: unknown } | { ok: false; error: JsonRpcError };

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
export function applyRpcAuth(
  url: string,
  apiKey: string | undefined,
  auth: RpcAuth = "query",
): { url: string; headers: Record<string, string> } {
  if (apiKey === undefined) return { url, headers: {} };
  if (auth === "header") return { url, headers: { authorization: `APIKEY ${apiKey}` } };
  const withKey = new URL(url);
  withKey.searchParams.set("api_key", apiKey);
  return { url: withKey.toString(), headers: {} };
}

export function makeRequest(
  id: number | undefined,
  method: string,
  params: RpcParams | undefined,
): Record<string, unknown> {
  const message: Record<string, unknown> = { jsonrpc: "2.0", method };
  if (params !== undefined) message.params = params;
  if (id !== undefined) message.id = id;
  return message;
}

export function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** The JsonRpcError inside a response's error member (or an invalid_response error when malformed). */
export function toJsonRpcError(error: unknown): JsonRpcError {
  if (isRecord(error) && typeof error.code === "number" && typeof error.message === "string") {
    return new JsonRpcError(error.code, error.message, error.data);
  }
  return new JsonRpcError(INTERNAL_ERROR, "malformed error object in response", error);
}

export function outcomeOf(response: Record<string, unknown>): BatchOutcome {
  if ("error" in response && response.error !== undefined && response.error !== null) {
    return { ok: false, error: toJsonRpcError(response.error) };
  }
  return { ok: true, result: response.result };
}

export function unwrap<T>(outcome: BatchOutcome): T {
  if (!outcome.ok) throw outcome.error;
  return outcome.result as T;
}

/** Why `response` does not answer request `id` (undefined when it does): an error with id null answers any request. */
export function responseProblem(response: unknown, id: RpcId): string | undefined {
  if (!isRecord(response) || response.jsonrpc !== "2.0") return "the response is not a JSON-RPC 2.0 object";
  if (response.id !== id && !(response.id === null && "error" in response))
    return `response id ${JSON.stringify(response.id)} does not echo request id ${JSON.stringify(id)}`;
  return undefined;
}
