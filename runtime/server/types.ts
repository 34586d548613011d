// Shapes shared by the node:http machinery: what an operation declares, what a key resolves to,
// what a handler receives.
import type { z } from "zod";

export type Role = "viewer" | "admin" | "owner";

/** One operation as the generated server describes it (zod schemas for every input). */
export interface OperationDefinition {
  operationId: string;
  method: string;
  /** OpenAPI path template including /api/v1, e.g. /api/v1/wallets/{wallet_id}/overview */
  path: string;
  successStatus: number;
  /** All of them are required; the scope `*` on a key grants every scope. */
  scopes: readonly string[];
  minRole: Role;
  /** Absent when the operation declares no parameter there: the handler then gets an empty object. */
  paramsSchema?: z.ZodType;
  querySchema?: z.ZodType;
  headersSchema?: z.ZodType;
  /** Absent when the operation takes no body: a sent body is then signed but otherwise ignored. */
  bodySchema?: z.ZodType;
  /** Checked only when the router runs with validateResponses. */
  responseSchema?: z.ZodType;
  /** Every status the spec declares for the operation; nothing else is ever sent for it. */
  declaredStatuses: readonly number[];
}

/** What resolveKey returns for a known, active key. */
export interface KeyRecord {
  keyId: string;
  secret: string;
  role: string;
  scopes: readonly string[];
  workspaceId: string;
}

export interface AuthContext {
  keyId: string;
  role: string;
  scopes: readonly string[];
  workspaceId: string;
}

// biome-ignore lint/suspicious/noExplicitAny: untyped defaults, so a handler without type arguments accepts any input
export interface HandlerInput<P = any, Q = any, H = any, B = any> {
  params: P;
  query: Q;
  headers: H;
  body: B;
}

export interface HandlerContext {
  auth: AuthContext;
  requestId: string;
  operationId: string;
  /** Adds a response header (not content-type, content-length or x-request-id). */
  setHeader(name: string, value: string): void;
}

export type OperationHandler<I extends HandlerInput = HandlerInput, O = unknown> = (
  input: I,
  ctx: HandlerContext,
) => Promise<O> | O;

export interface Logger {
  /** Called for internal errors only; `error` is the thrown value, for loggers that want a stack. */
  error(message: string, error?: unknown): void;
}

export interface RouterOptions {
  operations: readonly OperationDefinition[];
  /** Handler per operationId; an operation without a handler answers 500 (and is logged). */
  // biome-ignore lint/suspicious/noExplicitAny: one map holds handlers of every operation's own input and output types
  handlers: Readonly<Record<string, OperationHandler<any, any>>>;
  resolveKey(keyId: string): Promise<KeyRecord | undefined> | KeyRecord | undefined;
  /** Default 1 MiB. */
  bodyLimitBytes?: number;
  /** Unix seconds; defaults to the clock. */
  now?: () => number;
  /** Default ±300 s. */
  timestampWindowSeconds?: number;
  logger?: Logger;
  /** Check handler results against responseSchema (development). Default false. */
  validateResponses?: boolean;
  /** Deeper JSON bodies are refused with 400 before parsing. Default 64. */
  maxJsonDepth?: number;
  /** Path parameter that must equal the key's workspace (else 404); false to turn off. Default "workspace_id". */
  workspaceParam?: string | false;
}
