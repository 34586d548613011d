// The node:http server machinery the generated server.ts builds on.
export * from "./types.ts";
export { createRouter, declaredStatus, defaultLogger, splitTarget } from "./router.ts";
export { authenticate, singleHeader } from "./auth.ts";
export { hasRole, hasScopes, isAuthorized, ROLE_RANK } from "./authorize.ts";
export { readBody, parseJsonBody, decodeUtf8, jsonDepthExceeds, DEFAULT_BODY_LIMIT_BYTES, DEFAULT_MAX_JSON_DEPTH } from "./body.ts";
export { createMatcher } from "./match.ts";
export { resolveRequestId, sendJson, sendError, sendUnauthorized, JSON_CONTENT_TYPE } from "./respond.ts";
export { validateInput, formatIssues, fieldPath, queryRecord, headersRecord } from "./validate.ts";
export { listen } from "./listen.ts";
//# sourceMappingURL=index.js.map