// Turns one JSON-RPC 2.0 payload (single request or batch, as text) into the text to answer with, or
// undefined when nothing must be answered (notifications). Shared by the HTTP and WebSocket transports.
import { type ChainBackend, ChainRpcError } from "../chain/backend.ts";
import { answerPayload } from "./framing.ts";
import {
  INVALID_PARAMS,
  isPlainObject,
  METHOD_NOT_FOUND,
  type RpcErrorObject,
  RpcFault,
  SERVER_ERROR,
} from "./jsonrpc.ts";
import { METHODS, type Transport } from "./methods.ts";
import type { Subscriber, SubscriptionHub } from "./subscriptions.ts";

export interface CallContext {
  transport: Transport;
  /** The WebSocket connection; needed by eth_subscribe / eth_unsubscribe. */
  subscriber?: Subscriber;
}

/** What the HTTP and WebSocket transports hand a message to (the EVM dispatcher, the Solana one). */
export interface PayloadHandler {
  handle(text: string, ctx: CallContext): Promise<string | undefined>;
}

export interface DispatcherOptions {
  backend: ChainBackend;
  hub: SubscriptionHub;
  maxBatchSize: number;
}

const MAX_MESSAGE_CHARS = 500;

export class RpcDispatcher implements PayloadHandler {
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

  handle(text: string, ctx: CallContext): Promise<string | undefined> {
    return answerPayload(text, (method, request) => this.#call(method, request, ctx), this.#maxBatchSize, toRpcError);
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

// Every method served is positional (as on geth): an object is well-formed JSON-RPC but wrong here.
function positionalParams(method: string, request: Record<string, unknown>): readonly unknown[] {
  if (!Object.hasOwn(request, "params")) return [];
  const params = request.params;
  if (Array.isArray(params)) return params;
  if (isPlainObject(params))
    throw new RpcFault(INVALID_PARAMS, `invalid params: ${method} takes its params as an array`);
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
