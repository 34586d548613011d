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
import { DEFAULT_BODY_LIMIT_BYTES, DEFAULT_MAX_JSON_DEPTH, EMPTY_BODY, hasBody, parseJsonBody, readBody } from "./body.ts";
import { createMatcher } from "./match.ts";
import { resolveRequestId, sendError, sendJson, sendUnauthorized } from "./respond.ts";
import type { HandlerContext, Logger, OperationDefinition, RouterOptions } from "./types.ts";
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

export function createRouter(options: RouterOptions): RequestListener {
  const matcher = createMatcher(options.operations.map((op) => ({ method: op.method, path: op.path, value: op })));
  const bodyLimit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const maxDepth = options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
  const now = options.now ?? (() => unixSeconds());
  const logger = options.logger ?? defaultLogger;
  const workspaceParam = options.workspaceParam ?? "workspace_id";
  // Per operation, once: the header names its schema reads (undefined: it gets every header).
  const headerNames = new Map(options.operations.map((op) => [op, op.headersSchema === undefined ? [] : readKeys(op.headersSchema)]));

  async function handle(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    const { path, search } = splitTarget(req.url ?? "");
    const match = matcher.match(req.method ?? "", path);
    if (match === undefined) {
      // Unknown route or method: 404 (405 is not declared anywhere). Node discards the unread body.
      return sendError(res, 404, "no such operation", requestId);
    }
    const op = match.value;

    // A request without content-length or transfer-encoding has no body (RFC 9112 6.3): nothing to wait for.
    const read = hasBody(req) ? await readBody(req, bodyLimit) : EMPTY_BODY;
    if (!read.ok) {
      if (read.reason === "aborted") return;
      return sendError(res, declaredStatus(op, 413, 400), `body: larger than ${bodyLimit} bytes`, requestId, { close: true });
    }

    const auth = await authenticate({
      req,
      path,
      body: read.bytes,
      resolveKey: options.resolveKey,
      nowSeconds: now(),
      windowSeconds: options.timestampWindowSeconds,
    });
    if (auth === undefined) return sendUnauthorized(res, requestId);

    if (!isAuthorized(auth, op)) {
      return sendError(res, declaredStatus(op, 403), "the api key lacks the role or scope this operation needs", requestId);
    }
    // Another workspace is answered exactly like a missing one, so its existence is not revealed.
    if (workspaceParam !== false && Object.hasOwn(match.params, workspaceParam) && match.params[workspaceParam] !== auth.workspaceId) {
      return sendError(res, declaredStatus(op, 404, 403), "workspace not found", requestId);
    }

    let body: unknown = undefined;
    if (op.bodySchema !== undefined) {
      const parsed = parseJsonBody(read.bytes, maxDepth);
      if (!parsed.ok) return sendError(res, declaredStatus(op, 400), parsed.message, requestId);
      body = parsed.value;
    }
    const names = headerNames.get(op);
    const headers = names === undefined ? headersRecord(req) : headersSubset(req, names);
    const validation = validateInput(op, { params: match.params, query: queryRecord(search), headers, body });
    if (!validation.ok) {
      // A malformed path parameter names no existing resource; 404 when 400 is not declared.
      const status = validation.location === "params" ? declaredStatus(op, 400, 404) : declaredStatus(op, 400);
      return sendError(res, status, validation.message, requestId);
    }

    const handler = options.handlers[op.operationId];
    if (handler === undefined) throw new Error(`no handler for operation ${op.operationId}`);
    const extraHeaders: Record<string, string> = {};
    const ctx: HandlerContext = {
      auth,
      requestId,
      operationId: op.operationId,
      setHeader(name, value) {
        if (!RESERVED_HEADERS.has(name.toLowerCase())) extraHeaders[name.toLowerCase()] = value;
      },
    };
    let data: unknown;
    try {
      data = await handler(validation.input, ctx);
    } catch (error) {
      return sendFailure(res, op, error, requestId, extraHeaders);
    }

    if (options.validateResponses && op.responseSchema !== undefined) {
      const checked = op.responseSchema.safeParse(data);
      if (!checked.success) {
        const issue = checked.error.issues[0];
        logger.error(`${op.operationId} returned data that does not match its response schema at ${issue?.path.join(".") || "(root)"}: ${issue?.message}`);
        return sendError(res, 500, "internal error", requestId);
      }
    }
    // JSON.stringify throws on bigints and cycles; that is a handler bug and becomes a 500.
    const text = serializeSuccess(data === undefined ? null : data);
    sendJson(res, op.successStatus, text, requestId, { headers: extraHeaders });
  }

  /** Maps what a handler threw to a declared answer. */
  function sendFailure(res: ServerResponse, op: OperationDefinition, error: unknown, requestId: string, headers: Record<string, string>): void {
    if (error instanceof ApiError && error.status < 500 && op.declaredStatuses.includes(error.status)) {
      if (error.status === 401) return sendUnauthorized(res, requestId);
      return sendError(res, error.status, error.message, requestId, { code: error.code, headers });
    }
    const undeclared = error instanceof ApiError && error.status < 500;
    const what = undeclared ? `${op.operationId} threw undeclared status ${error.status}` : `${op.operationId} failed`;
    logger.error(`${what} (request ${requestId})`, error);
    sendError(res, 500, "internal error", requestId);
  }

  return (req, res) => {
    const requestId = resolveRequestId(req);
    handle(req, res, requestId).catch((error: unknown) => {
      logger.error(`internal error (request ${requestId})`, error);
      if (!res.headersSent) sendError(res, 500, "internal error", requestId);
      else res.destroy();
    });
  };
}
