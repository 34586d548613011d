// The runtime of custody: everything generated code, the conformance suite and the reference
// deployment import from hand-written code.
export * from "./hmac.ts";
export * from "./envelope.ts";
export * from "./errors.ts";
export * from "./webhook-signature.ts";
export * from "./http-client.ts";
export * from "./jsonrpc-client.ts";
export * from "./server/index.ts";
export * from "./schema-issue.ts";
export * from "./client-call.ts";
export * from "./paginate.ts";
export * from "./api-promise.ts";
export * from "./rpc-call.ts";
export * from "./webhook-event.ts";
export * from "./json-schema.ts";
export * from "./json-schema-formats.ts";
export * from "./parameter-input.ts";
