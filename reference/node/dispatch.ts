// Turns one JSON-RPC 2.0 payload (single request or batch, as text) into the text to answer with, or
// undefined when nothing must be answered (notifications). Shared by the HTTP and WebSocket transports.
import { ChainRpcError, type ChainBackend } from "../chain/backend.ts";
import {
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  NULL_ID,
  PARSE_ERROR,
  RpcFault,
  SERVER_ERROR,
  errorText,
  idText,
  isPlainObject,
  isValidId,
  needsRawId,
  resultText,
  type IdText,
  type RpcErrorObject,
} from "./jsonrpc.ts";
import { METHODS, type Transport } from "./methods.ts";
import { rawIdOfObject, rawIdsOfBatch } from "./raw-ids.ts";
import type { Subscriber, SubscriptionHub } from "./subscriptions.ts";

export interface CallContext {
  transport: Transport;
  /** The WebSocket connection; needed by eth_subscribe / eth_unsubscribe. */
  subscriber?: Subscriber;
}

export interface DispatcherOptions {
  backend: ChainBackend;
  hub: SubscriptionHub;
  maxBatchSize: number;
}

const MAX_MESSAGE_CHARS = 500;

export class RpcDispatcher {
  readonly #backend: ChainBackend;
  readonly #hub: SubscriptionHub;
  readonly #maxBatchSize: number;
  readonly #chainIdHex: string;

  constructor(options: DispatcherOptions) {
    this.#backend = options.backend;
    this.#hub = options.hub;
    this.#maxBatchSize = options.maxBatchSize;
    this.#chainIdHex = `0x${options.backend.chainId.toString(16)}`;
  }

  async handle(text: string, ctx: CallContext): Promise<string | undefined> {
    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch {
      return errorText(NULL_ID, { code: PARSE_ERROR, message: "parse error: the message is not valid JSON" });
    }
    try {
      if (Array.isArray(payload)) return await this.#batch(payload, text, ctx);
      const raw = isPlainObject(payload) && needsRawId(payload.id) ? rawIdOfObject(text) : undefined;
      return await this.#single(payload, raw, ctx);
    } catch {
      return errorText(NULL_ID, { code: INTERNAL_ERROR, message: "internal error" });
    }
  }

  async #batch(items: unknown[], text: string, ctx: CallContext): Promise<string | undefined> {
    if (items.length === 0) return errorText(NULL_ID, { code: INVALID_REQUEST, message: "invalid request: empty batch" });
    if (items.length > this.#maxBatchSize) {
      const message = `invalid request: a batch may hold at most ${this.#maxBatchSize} requests, got ${items.length}`;
      return errorText(NULL_ID, { code: INVALID_REQUEST, message });
    }
    const raws = items.some((item) => isPlainObject(item) && needsRawId(item.id)) ? rawIdsOfBatch(text) : [];
    const answers = await Promise.all(items.map((item, i) => this.#single(item, raws[i], ctx)));
    const parts = answers.filter((answer): answer is string => answer !== undefined);
    return parts.length > 0 ? `[${parts.join(",")}]` : undefined;
  }

  async #single(request: unknown, rawId: string | undefined, ctx: CallContext): Promise<string | undefined> {
    if (!isPlainObject(request)) return invalid(NULL_ID, "a request must be a JSON object");
    const hasId = Object.hasOwn(request, "id");
    if (hasId && !isValidId(request.id)) return invalid(NULL_ID, "id must be a string, a number or null");
    const id = hasId ? idText(request.id as string | number | null, rawId) : NULL_ID;
    if (request.jsonrpc !== "2.0") return invalid(id, 'jsonrpc must be exactly "2.0"');
    if (typeof request.method !== "string") return invalid(id, "method must be a string");
    try {
      const result = await this.#call(request.method, request, ctx);
      return hasId ? resultText(id, result) : undefined;
    } catch (error) {
      return hasId ? errorText(id, toRpcError(error)) : undefined; // notifications never get an answer
    }
  }

  async #call(method: string, request: Record<string, unknown>, ctx: CallContext): Promise<unknown> {
    const rule = METHODS.get(method);
    if (!rule) throw new RpcFault(METHOD_NOT_FOUND, `the method ${clip(method, 100)} does not exist/is not available`);
    if (rule.only && rule.only !== ctx.transport) {
      throw new RpcFault(METHOD_NOT_FOUND, `the method ${method} is only available over WebSocket`);
    }
    const params = positionalParams(method, request);
    const problem = rule.check?.(params);
    if (problem) throw new RpcFault(INVALID_PARAMS, `invalid params: ${problem}`);
    if (rule.handling === "local") return this.#local(method, params, ctx);
    return this.#backend.request({ method, params });
  }

  #local(method: string, params: readonly unknown[], ctx: CallContext): unknown {
    switch (method) {
      case "eth_chainId":
        return this.#chainIdHex;
      case "eth_accounts":
        return [];
      case "eth_subscribe":
        return this.#hub.subscribeNewHeads(ctx.subscriber!);
      case "eth_unsubscribe":
        return this.#hub.unsubscribe(ctx.subscriber!, params[0] as string);
      default:
        throw new RpcFault(METHOD_NOT_FOUND, `the method ${method} does not exist/is not available`);
    }
  }
}

function invalid(id: IdText, message: string): string {
  return errorText(id, { code: INVALID_REQUEST, message: `invalid request: ${message}` });
}

// Every method served is positional (as on geth): an object is well-formed JSON-RPC but wrong here.
function positionalParams(method: string, request: Record<string, unknown>): readonly unknown[] {
  if (!Object.hasOwn(request, "params")) return [];
  const params = request.params;
  if (Array.isArray(params)) return params;
  if (isPlainObject(params)) throw new RpcFault(INVALID_PARAMS, `invalid params: ${method} takes its params as an array`);
  throw new RpcFault(INVALID_PARAMS, "invalid params: params must be an array or an object");
}

/** Backend and gateway failures as JSON-RPC errors: code, message and data only, never a stack. */
export function toRpcError(error: unknown): RpcErrorObject {
  if (error instanceof RpcFault || error instanceof ChainRpcError) {
    return { code: error.code, message: clip(firstLine(error.message), MAX_MESSAGE_CHARS), data: error.data };
  }
  const message = error instanceof Error && error.message ? firstLine(error.message) : "the chain failed";
  return { code: SERVER_ERROR, message: clip(message, MAX_MESSAGE_CHARS) };
}

function firstLine(text: string): string {
  const end = text.indexOf("\n");
  return end < 0 ? text : text.slice(0, end);
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
