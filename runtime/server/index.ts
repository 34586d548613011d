// The node:http server machinery the generated server.ts builds on.

export { type AuthenticateInput, authenticate, singleHeader } from "./auth.ts";
export { hasRole, hasScopes, isAuthorized, ROLE_RANK } from "./authorize.ts";
export {
  DEFAULT_BODY_LIMIT_BYTES,
  DEFAULT_MAX_JSON_DEPTH,
  decodeUtf8,
  jsonDepthExceeds,
  parseJsonBody,
  readBody,
} from "./body.ts";
export { type ListenOptions, listen, type RunningServer } from "./listen.ts";
export { createMatcher, type Matcher, type RouteMatch } from "./match.ts";
export { JSON_CONTENT_TYPE, resolveRequestId, sendError, sendJson, sendUnauthorized } from "./respond.ts";
export { createRouter, declaredStatus, defaultLogger, type RequestListener, splitTarget } from "./router.ts";
export * from "./types.ts";
export { fieldPath, formatIssues, headersRecord, type InputLocation, queryRecord, validateInput } from "./validate.ts";
