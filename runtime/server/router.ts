// The request pipeline of the generated server, for node:http:
//   route match → read body (limit) → authenticate (HMAC) → authorize (role, scopes, workspace)
//   → validate params/query/headers/body → handler → (optionally) validate the result → envelope.
// Authentication comes before validation so an unauthenticated caller learns nothing about inputs.
// Nothing is ever sent that the operation does not declare, and no error shows a stack.
import type { IncomingMessage, ServerResponse } from "node:http";
import { serializeSuccess } from "../envelope.ts";
import { ApiError } from "../errors.ts";
import { unixSeconds } from "../http/hmac.ts";
import { authenticate } from "./auth.ts";
import { isAuthorized } from "./authorize.ts";
import {
  DEFAULT_BODY_LIMIT_BYTES,
  DEFAULT_MAX_JSON_DEPTH,
  EMPTY_BODY,
  hasBody,
  parseJsonBody,
  readBody,
} from "./body.ts";
import { createMatcher, type Matcher } from "./match.ts";
import { resolveRequestId, sendError, sendJson, sendUnauthorized } from "./respond.ts";
import type { AuthContext, HandlerContext, HandlerInput, Logger, OperationDefinition, RouterOptions } from "./types.ts";
import { headersRecord, headersSubset, queryRecord, readKeys, validateInput } from "./validate.ts";

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** Logs internal errors by name and message only: messages of our own code carry no secrets, stacks stay out. */
export const defaultLogger: Logger = {
  error(message, error) {
    const detail = error instanceof Error ? ` (${error.name}: ${error.message})` : "";
    console.error(`[custody] ${message}${detail}`);
  },
};

// Headers a handler may not set: they belong to the envelope machinery.
const RESERVED_HEADERS = new Set(["content-type", "content-length", "x-request-id", "connection", "transfer-encoding"]);

/** The first of `preferred` that the operation declares, else the first of them. */
export function declaredStatus(op: Pick<OperationDefinition, "declaredStatuses">, ...preferred: number[]): number {
  return preferred.find((status) => op.declaredStatuses.includes(status)) ?? preferred[0];
}

/** Path and query of the request target (absolute-form targets are reduced to their path). */
export function splitTarget(target: string): { path: string; search: string } {
  let rest = target;
  if (!rest.startsWith("/")) {
    try {
      const url = new URL(rest);
      rest = url.pathname + url.search;
    } catch {
      return { path: "", search: "" };
    }
  }
  const q = rest.indexOf("?");
  return q === -1 ? { path: rest, search: "" } : { path: rest.slice(0, q), search: rest.slice(q + 1) };
}

/** What a router decides once from its options; every request reads it. */
interface RouterSetup {
  readonly options: RouterOptions;
  readonly matcher: Matcher<OperationDefinition>;
  readonly bodyLimit: number;
  readonly maxDepth: number;
  readonly now: () => number;
  readonly logger: Logger;
  readonly workspaceParam: string | false;
  /** Per operation, once: the header names its schema reads (undefined: it gets every header). */
  readonly headerNames: Map<OperationDefinition, readonly string[] | undefined>;
}

export function createRouter(options: RouterOptions): RequestListener {
  const setup: RouterSetup = {
    options,
    matcher: createMatcher(options.operations.map((op) => ({ method: op.method, path: op.path, value: op }))),
    bodyLimit: options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
    maxDepth: options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH,
    now: options.now ?? (() => unixSeconds()),
    logger: options.logger ?? defaultLogger,
    workspaceParam: options.workspaceParam ?? "workspace_id",
    headerNames: new Map(
      options.operations.map((op) => [op, op.headersSchema === undefined ? [] : readKeys(op.headersSchema)]),
    ),
  };
  return (req, res) => {
    const requestId = resolveRequestId(req);
    handle(setup, req, res, requestId).catch((error: unknown) => {
      setup.logger.error(`internal error (request ${requestId})`, error);
      if (!res.headersSent) sendError(res, 500, "internal error", requestId);
      else res.destroy();
    });
  };
}

async function handle(s: RouterSetup, req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
  const { path, search } = splitTarget(req.url ?? "");
  const match = s.matcher.match(req.method ?? "", path);
  if (match === undefined) {
    // Unknown route or method: 404 (405 is not declared anywhere). Node discards the unread body.
    return sendError(res, 404, "no such operation", requestId);
  }
  const op = match.value;

  // A request without content-length or transfer-encoding has no body (RFC 9112 6.3): nothing to wait for.
  const read = hasBody(req) ? await readBody(req, s.bodyLimit) : EMPTY_BODY;
  if (!read.ok) {
    if (read.reason === "aborted") return;
    const message = `body: larger than ${s.bodyLimit} bytes`;
    return sendError(res, declaredStatus(op, 413, 400), message, requestId, { close: true });
  }

  const auth = await authenticate({
    req,
    path,
    body: read.bytes,
    resolveKey: s.options.resolveKey,
    nowSeconds: s.now(),
    windowSeconds: s.options.timestampWindowSeconds,
  });
  if (auth === undefined) return sendUnauthorized(res, requestId);
  if (refused(s, res, op, match.params, auth, requestId)) return;
  const input = validatedInput(s, req, res, op, match.params, search, read.bytes, requestId);
  if (input === undefined) return;

  const handler = s.options.handlers[op.operationId];
  if (handler === undefined) throw new Error(`no handler for operation ${op.operationId}`);
  const extraHeaders: Record<string, string> = {};
  let data: unknown;
  try {
    data = await handler(input, handlerContext(auth, requestId, op, extraHeaders));
  } catch (error) {
    return sendFailure(s, res, op, error, requestId, extraHeaders);
  }
  sendSuccess(s, res, op, data, requestId, extraHeaders);
}

/** Answers (and returns true) when the key may not call this operation or names another workspace. */
function refused(
  s: RouterSetup,
  res: ServerResponse,
  op: OperationDefinition,
  params: Record<string, string>,
  auth: AuthContext,
  requestId: string,
): boolean {
  if (!isAuthorized(auth, op)) {
    const message = "the api key lacks the role or scope this operation needs";
    sendError(res, declaredStatus(op, 403), message, requestId);
    return true;
  }
  // Another workspace is answered exactly like a missing one, so its existence is not revealed.
  const workspaceParam = s.workspaceParam;
  if (
    workspaceParam !== false &&
    Object.hasOwn(params, workspaceParam) &&
    params[workspaceParam] !== auth.workspaceId
  ) {
    sendError(res, declaredStatus(op, 404, 403), "workspace not found", requestId);
    return true;
  }
  return false;
}

/** The handler's input, or undefined once a 400 (or 404 for a malformed path parameter) is sent. */
function validatedInput(
  s: RouterSetup,
  req: IncomingMessage,
  res: ServerResponse,
  op: OperationDefinition,
  params: Record<string, string>,
  search: string,
  bytes: Buffer,
  requestId: string,
): HandlerInput | undefined {
  let body: unknown;
  if (op.bodySchema !== undefined) {
    const parsed = parseJsonBody(bytes, s.maxDepth);
    if (!parsed.ok) {
      sendError(res, declaredStatus(op, 400), parsed.message, requestId);
      return undefined;
    }
    body = parsed.value;
  }
  const names = s.headerNames.get(op);
  const headers = names === undefined ? headersRecord(req) : headersSubset(req, names);
  const validation = validateInput(op, { params, query: queryRecord(search), headers, body });
  if (validation.ok) return validation.input;
  // A malformed path parameter names no existing resource; 404 when 400 is not declared.
  const status = validation.location === "params" ? declaredStatus(op, 400, 404) : declaredStatus(op, 400);
  sendError(res, status, validation.message, requestId);
  return undefined;
}

function handlerContext(
  auth: AuthContext,
  requestId: string,
  op: OperationDefinition,
  extraHeaders: Record<string, string>,
): HandlerContext {
  return {
    auth,
    requestId,
    operationId: op.operationId,
    setHeader(name, value) {
      if (!RESERVED_HEADERS.has(name.toLowerCase())) extraHeaders[name.toLowerCase()] = value;
    },
  };
}

/** The handler's data in the success envelope; data not matching the response schema (when checked) is a 500. */
function sendSuccess(
  s: RouterSetup,
  res: ServerResponse,
  op: OperationDefinition,
  data: unknown,
  requestId: string,
  extraHeaders: Record<string, string>,
): void {
  if (s.options.validateResponses && op.responseSchema !== undefined) {
    const checked = op.responseSchema.safeParse(data);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const where = issue?.path.join(".") || "(root)";
      s.logger.error(
        `${op.operationId} returned data that does not match its response schema at ${where}: ${issue?.message}`,
      );
      return sendError(res, 500, "internal error", requestId);
    }
  }
  // JSON.stringify throws on bigints and cycles; that is a handler bug and becomes a 500.
  const text = serializeSuccess(data === undefined ? null : data);
  sendJson(res, op.successStatus, text, requestId, { headers: extraHeaders });
}

/** Maps what a handler threw to a declared answer. */
function sendFailure(
  s: RouterSetup,
  res: ServerResponse,
  op: OperationDefinition,
  error: unknown,
  requestId: string,
  headers: Record<string, string>,
): void {
  if (error instanceof ApiError && error.status < 500 && op.declaredStatuses.includes(error.status)) {
    if (error.status === 401) return sendUnauthorized(res, requestId);
    return sendError(res, error.status, error.message, requestId, { code: error.code, headers });
  }
  const undeclared = error instanceof ApiError && error.status < 500;
  const what = undeclared ? `${op.operationId} threw undeclared status ${error.status}` : `${op.operationId} failed`;
  s.logger.error(`${what} (request ${requestId})`, error);
  sendError(res, 500, "internal error", requestId);
}
