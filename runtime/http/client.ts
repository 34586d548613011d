// The wallet API client's HTTP side under one import, for Node code (custody's CLI, conformance, tests):
// the transport (http/transport.ts), its retry policy (http/retry.ts) and the reading of an answer
// (http/answer.ts). Here createTransport sends through an undici dispatcher when one is given (faster on
// Node than fetch); generated clients import http/transport.ts itself, which needs no Node API.
import type { Dispatcher } from "undici";
import { undiciSend } from "./exchange.ts";
import { createTransport as createPortableTransport, type Transport, type TransportOptions } from "./transport.ts";

export {
  AbortError,
  ConnectionError,
  TimeoutError,
  TransportError,
  type TransportErrorKind,
  transportError,
} from "../errors.ts";
export * from "./answer.ts";
export * from "./client-log.ts";
export * from "./raw.ts";
export { type PreparedSecret, portableSignature, prepareSecret, signedHeaders } from "./request-signing.ts";
export * from "./retry.ts";
export * from "./transport.ts";

/** createTransport of http/transport.ts, sending through `dispatcher` with undici's dispatch API when one is given. */
export function createTransport(options: TransportOptions): Transport {
  if (options.dispatcher === undefined || options.send !== undefined || options.fetch !== undefined)
    return createPortableTransport(options);
  return createPortableTransport({ ...options, send: undiciSend(options.dispatcher as Dispatcher) });
}
