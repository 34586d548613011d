// The names custody's output exports on its own account, in one table: the fixed declarations of the
// generated files and the runtime names they re-export. A document's names (components, operations,
// webhooks, OpenRPC methods) yield to these: the one that would equal one gets a stable suffix (see
// NameRegistry.claim), so `import { ApiError } from "<sdk>"` is always the runtime's error class and a
// schema named ApiError is `ApiErrorModel`, whatever else the document names.

/** Declarations the generated files make besides the per-schema and per-operation ones. */
export const FIXED_EXPORTS = [
  "operations",
  "operationList",
  "OperationName",
  "OperationEntry",
  "Handlers",
  "RequestContext",
  "ServerOptions",
  "createServer",
  "ClientOptions",
  "CallOptions",
  "WebhookEvent",
  "WebhookEventType",
  "WebhookEventSchema",
  "webhookEventTypes",
  "webhookEventSchemas",
  "parseWebhookEvent",
  "verifyWebhook",
  "VerifyWebhookOptions",
  "WebhookVerificationError",
  "createRpcClient",
  "RpcClient",
  "RpcClientOptions",
  "rpcMethods",
  "RpcMethods",
] as const;

export interface RuntimeReexport {
  /** runtime/<module>.ts */
  module: string;
  names: readonly string[];
  typeOnly: boolean;
}

/** The error classes the client throws, re-exported so `import { NotFoundError } from "<pkg>/client"` works. */
export const CLIENT_ERRORS = [
  "CustodyError",
  "ApiError",
  "BadRequestError",
  "AuthenticationError",
  "PermissionDeniedError",
  "NotFoundError",
  "ConflictError",
  "UnprocessableEntityError",
  "RateLimitError",
  "InternalServerError",
  "ResponseValidationError",
  "TransportError",
  "ConnectionError",
  "TimeoutError",
  "AbortError",
] as const;

/** What client.ts re-exports from the runtime (its types and errors), in print order. */
export const CLIENT_REEXPORTS: readonly RuntimeReexport[] = [
  { module: "http/api-promise", names: ["ApiPromise", "WithResponse", "ResponseInfo"], typeOnly: true },
  { module: "http/transport", names: ["Middleware", "MiddlewareRequest", "MiddlewareResponse"], typeOnly: true },
  { module: "http/client-log", names: ["ClientLogger", "LogLevel"], typeOnly: true },
  { module: "errors", names: CLIENT_ERRORS, typeOnly: false },
];

/** What index.ts re-exports from the runtime besides the client's (errors of webhooks and JSON-RPC). */
export const INDEX_REEXPORTS: readonly RuntimeReexport[] = [
  { module: "errors", names: ["JsonRpcError", "RpcTransportError", "WebhookVerificationError"], typeOnly: false },
];

/** Every name the output exports on custody's account: a document's name never takes one of these. */
export const CUSTODY_NAMES: readonly string[] = [
  ...new Set([...FIXED_EXPORTS, ...[...CLIENT_REEXPORTS, ...INDEX_REEXPORTS].flatMap((r) => r.names)]),
];
