// The client side of the runtime alone, for generated code built with `--runtime package`: what a
// generated client.ts imports (schemas.ts's JSON Schema rules and formats included), and the error classes. Nothing here reaches server, webhook or JSON-RPC
// code, undici or a node: module (custody/runtime, the whole runtime, does).
export * from "./errors.ts";
export * from "./api-promise.ts";
export * from "./client-call.ts";
export * from "./paginate.ts";
export * from "./client-log.ts";
export * from "./http-transport.ts";
export * from "./http-answer.ts";
export * from "./retry.ts";
export * from "./json-schema.ts";
export * from "./json-schema-formats.ts";
