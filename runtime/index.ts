// The runtime of custody: everything generated code, the conformance suite and the reference
// deployment import from hand-written code.

export * from "./envelope.ts";
export * from "./errors.ts";
export * from "./http/api-promise.ts";
export * from "./http/client.ts";
export * from "./http/client-call.ts";
export * from "./http/hmac.ts";
export * from "./http/paginate.ts";
export * from "./http/parameter-input.ts";
export * from "./jsonrpc/call.ts";
export * from "./jsonrpc/client.ts";
export * from "./schema/formats.ts";
export * from "./schema/issue.ts";
export * from "./schema/json-schema.ts";
export * from "./server/index.ts";
export * from "./webhooks/event.ts";
export * from "./webhooks/signature.ts";
