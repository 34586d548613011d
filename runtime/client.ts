// The client side of the runtime alone, for generated code built with `--runtime package`: what a
// generated client.ts imports (schemas.ts's JSON Schema rules and formats included), and the error classes. Nothing here reaches server, webhook or JSON-RPC
// code, undici or a node: module (custody/runtime, the whole runtime, does).
export * from "./errors.ts";
export * from "./http/answer.ts";
export * from "./http/api-promise.ts";
export * from "./http/client-call.ts";
export * from "./http/client-log.ts";
export * from "./http/paginate.ts";
export * from "./http/retry.ts";
export * from "./http/transport.ts";
export * from "./schema/formats.ts";
export * from "./schema/json-schema.ts";
