export * from "./types.ts";
export { createRouter, declaredStatus, defaultLogger, splitTarget, type RequestListener } from "./router.ts";
export { authenticate, singleHeader, type AuthenticateInput } from "./auth.ts";
export { hasRole, hasScopes, isAuthorized, ROLE_RANK } from "./authorize.ts";
export { readBody, parseJsonBody, decodeUtf8, jsonDepthExceeds, DEFAULT_BODY_LIMIT_BYTES, DEFAULT_MAX_JSON_DEPTH } from "./body.ts";
export { createMatcher, type Matcher, type RouteMatch } from "./match.ts";
export { resolveRequestId, sendJson, sendError, sendUnauthorized, JSON_CONTENT_TYPE } from "./respond.ts";
export { validateInput, formatIssues, fieldPath, queryRecord, headersRecord, type InputLocation } from "./validate.ts";
export { listen, type ListenOptions, type RunningServer } from "./listen.ts";
