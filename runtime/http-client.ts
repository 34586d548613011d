// The wallet API client's HTTP side under one import: the transport (http-transport.ts), its retry
// policy (retry.ts) and the reading of an answer (http-answer.ts).
export { TransportError, type TransportErrorKind } from "./errors.ts";
export * from "./retry.ts";
export * from "./http-transport.ts";
export * from "./http-answer.ts";
