// JSON-RPC 2.0 message shapes, error codes and serialization used by both transports of the gateway.
// Responses are built as strings so that an id whose source text JSON.parse cannot represent
// (see raw-ids.ts) is echoed byte for byte.

export {
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  PARSE_ERROR,
  SERVER_ERROR,
  UNAUTHORIZED,
} from "../../runtime/jsonrpc/protocol.ts";

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** Exact body of every node-access authentication failure (HTTP 401, also on a refused WS upgrade). */
export const UNAUTHORIZED_RPC_BODY = '{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"unauthorized"}}';

/** The id as it will be written back: its JSON text, "null" when unknown or invalid. */
export type IdText = string;
export const NULL_ID: IdText = "null";

/** Thrown inside the gateway to answer with a specific JSON-RPC error. */
export class RpcFault extends Error {
  readonly code: number;
  readonly data?: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    if (data !== undefined) this.data = data;
  }
}

export function resultText(id: IdText, result: unknown): string {
  return `{"jsonrpc":"2.0","id":${id},"result":${JSON.stringify(result) ?? "null"}}`;
}

export function errorText(id: IdText, error: RpcErrorObject): string {
  return `{"jsonrpc":"2.0","id":${id},"error":${errorObjectText(error)}}`;
}

export function notificationText(method: string, params: unknown): string {
  return `{"jsonrpc":"2.0","method":${JSON.stringify(method)},"params":${JSON.stringify(params)}}`;
}

function errorObjectText(error: RpcErrorObject): string {
  const base = { code: error.code, message: error.message };
  if (error.data === undefined) return JSON.stringify(base);
  try {
    return JSON.stringify({ ...base, data: error.data });
  } catch {
    return JSON.stringify(base); // data that cannot be serialized (cycles, bigint) is dropped
  }
}

export function isValidId(id: unknown): id is string | number | null {
  return id === null || typeof id === "string" || typeof id === "number";
}

/** The text an id is echoed with; `raw` is its source text when JSON.parse could not keep it exactly. */
export function idText(id: string | number | null, raw: string | undefined): IdText {
  if (typeof id === "number" && !Number.isSafeInteger(id) && raw !== undefined) return raw;
  return JSON.stringify(id);
}

export function needsRawId(id: unknown): boolean {
  return typeof id === "number" && !Number.isSafeInteger(id);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
