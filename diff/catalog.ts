// Every check id `custody diff` can report, its level and one sentence. Schema checks exist once per
// subject (request body, response property, webhook payload, JSON-RPC param...) and take their level
// from the direction data flows: what a client sends may only get looser, what it receives only tighter.
import type { Level } from "./types.ts";

export type Direction = "request" | "response";

/** Where a schema sits, as seen by the client: it writes requests and RPC params, reads the rest. */
export interface Subject {
  /** Id prefix at the top of the schema ("request-body"). */
  root: string;
  /** Id prefix below it ("request-property"). */
  prop: string;
  dir: Direction;
  /** How messages name it ("request body"). */
  label: string;
}

export const SUBJECTS = {
  requestBody: { root: "request-body", prop: "request-property", dir: "request", label: "request body" },
  parameter: {
    root: "request-parameter",
    prop: "request-parameter-property",
    dir: "request",
    label: "request parameter",
  },
  responseBody: { root: "response-body", prop: "response-property", dir: "response", label: "response body" },
  webhookPayload: { root: "webhook-payload", prop: "webhook-property", dir: "response", label: "webhook payload" },
  rpcParam: { root: "rpc-param", prop: "rpc-param-property", dir: "request", label: "JSON-RPC param" },
  rpcResult: { root: "rpc-result", prop: "rpc-result-property", dir: "response", label: "JSON-RPC result" },
} as const satisfies Record<string, Subject>;

const B: Level = "breaking";
const W: Level = "warning";
const I: Level = "info";

/** Schema check suffixes: [level when the client sends it, level when it receives it, what it means]. */
export const SCHEMA_CHECKS: Record<string, [Level, Level, string]> = {
  "type-changed": [B, B, "the type changed to one that does not accept every old value"],
  "type-generalized": [I, B, "the type now accepts more values"],
  "type-specialized": [B, I, "the type now accepts fewer values"],
  "became-nullable": [I, B, "null became allowed"],
  "became-not-nullable": [B, I, "null is no longer allowed"],
  "became-enum": [B, I, "values became restricted to an enum"],
  "enum-value-removed": [B, I, "an enum value was removed"],
  "enum-value-added": [I, B, "an enum value was added"],
  "const-changed": [B, B, "the const value changed"],
  "format-changed": [W, W, "the format changed"],
  "pattern-added": [B, I, "a pattern was added"],
  "pattern-changed": [W, I, "the pattern changed"],
  "pattern-removed": [I, I, "the pattern was removed"],
  "max-decreased": [B, I, "the maximum decreased"],
  "max-increased": [I, B, "the maximum increased"],
  "max-set": [W, I, "a maximum was set"],
  "max-unset": [I, B, "the maximum was removed"],
  "min-increased": [B, I, "the minimum increased"],
  "min-decreased": [I, B, "the minimum decreased"],
  "min-set": [W, I, "a minimum was set"],
  "min-unset": [I, B, "the minimum was removed"],
  "max-length-decreased": [B, I, "maxLength decreased"],
  "max-length-increased": [I, B, "maxLength increased"],
  "max-length-set": [W, I, "a maxLength was set"],
  "max-length-unset": [I, B, "maxLength was removed"],
  "min-length-increased": [B, I, "minLength increased"],
  "min-length-decreased": [I, B, "minLength decreased"],
  "min-length-set": [W, I, "a minLength was set"],
  "min-length-unset": [I, B, "minLength was removed"],
  "max-items-decreased": [B, I, "maxItems decreased"],
  "max-items-increased": [I, B, "maxItems increased"],
  "max-items-set": [W, I, "a maxItems was set"],
  "max-items-unset": [I, B, "maxItems was removed"],
  "min-items-increased": [B, I, "minItems increased"],
  "min-items-decreased": [I, B, "minItems decreased"],
  "min-items-set": [W, I, "a minItems was set"],
  "min-items-unset": [I, B, "minItems was removed"],
  "one-of-added": [I, B, "a oneOf alternative was added"],
  "one-of-removed": [B, I, "a oneOf alternative was removed"],
  "any-of-added": [I, B, "an anyOf alternative was added"],
  "any-of-removed": [B, I, "an anyOf alternative was removed"],
  "became-required": [B, I, "a property became required"],
  "became-optional": [I, B, "a property became optional"],
  "removed-required": [W, B, "a required property was removed"],
  "removed-optional": [W, W, "an optional property was removed"],
  "added-required": [B, I, "a required property was added"],
  "added-optional": [I, I, "an optional property was added"],
  // Docs only, but the regenerated SDK's doc comments and README change with it.
  "description-changed": [I, I, "the description changed (added, removed or reworded)"],
};

/** Property ids named as oasdiff names them, where it has the same check. */
const PROPERTY_IDS: Record<string, Record<string, string>> = {
  "request-property": {
    "added-required": "new-required-request-property",
    "added-optional": "new-optional-request-property",
    "removed-required": "request-property-removed",
    "removed-optional": "request-property-removed",
  },
  "response-property": {
    "removed-required": "response-required-property-removed",
    "removed-optional": "response-optional-property-removed",
    "added-required": "response-required-property-added",
    "added-optional": "response-optional-property-added",
  },
};

export function schemaCheckId(subject: Subject, nested: boolean, suffix: string): string {
  const prefix = nested ? subject.prop : subject.root;
  return PROPERTY_IDS[prefix]?.[suffix] ?? `${prefix}-${suffix}`;
}

export function schemaCheckLevel(subject: Subject, suffix: string): Level {
  const entry = SCHEMA_CHECKS[suffix];
  if (!entry) throw new Error(`unknown schema check '${suffix}'`);
  return subject.dir === "request" ? entry[0] : entry[1];
}

/** Checks on operations, parameters, bodies, statuses, security, webhooks and JSON-RPC methods. */
export const CHECKS: Record<string, { level: Level; about: string }> = {
  "api-path-removed-without-deprecation": {
    level: B,
    about: "a path was removed (with its operations) without being deprecated first",
  },
  "api-path-removed-with-deprecation": { level: I, about: "a deprecated path was removed" },
  "api-removed-without-deprecation": { level: B, about: "an operation was removed without being deprecated first" },
  "api-removed-with-deprecation": { level: I, about: "a deprecated operation was removed" },
  "endpoint-added": { level: I, about: "an operation was added" },
  "endpoint-deprecated": { level: I, about: "an operation was marked deprecated" },
  "api-summary-changed": {
    level: I,
    about: "an operation's summary changed (the SDK method's doc comment and README change)",
  },
  "api-description-changed": {
    level: I,
    about: "an operation's description changed (the SDK method's doc comment changes)",
  },
  "request-parameter-description-changed": {
    level: I,
    about: "a parameter's description changed (the SDK method's doc comment changes)",
  },
  "new-required-request-parameter": { level: B, about: "a required parameter was added" },
  "new-optional-request-parameter": { level: I, about: "an optional parameter was added" },
  "request-parameter-removed": { level: B, about: "a parameter was removed: the SDK no longer accepts it" },
  "request-parameter-became-required": { level: B, about: "an optional parameter became required" },
  "request-parameter-became-optional": { level: I, about: "a required parameter became optional" },
  "request-parameter-default-value-changed": {
    level: B,
    about: "an optional parameter's default changed: a client that omits it gets another behaviour",
  },
  "request-parameter-default-value-added": {
    level: B,
    about: "an optional parameter got a default: a client that omits it may get another behaviour",
  },
  "request-parameter-default-value-removed": {
    level: B,
    about: "an optional parameter lost its default: a client that omits it may get another behaviour",
  },
  "request-parameter-location-changed": { level: B, about: "a parameter moved (e.g. from query to header)" },
  "added-required-request-body": { level: B, about: "a required request body was added" },
  "added-optional-request-body": { level: I, about: "an optional request body was added" },
  "request-body-became-required": { level: B, about: "the request body became required" },
  "request-body-became-optional": { level: I, about: "the request body became optional" },
  "request-body-removed": { level: B, about: "the request body was removed: the SDK no longer sends it" },
  "request-body-media-type-removed": { level: B, about: "a request content type is no longer accepted" },
  "request-body-media-type-added": { level: I, about: "a request content type was added" },
  "response-success-status-removed": { level: B, about: "a success (2xx) response status was removed" },
  "response-non-success-status-removed": { level: I, about: "an error response status was removed" },
  "response-success-status-added": { level: I, about: "a success response status was added" },
  "response-non-success-status-added": { level: I, about: "an error response status was added" },
  "response-media-type-removed": { level: B, about: "a response content type was removed" },
  "response-media-type-added": { level: I, about: "a response content type was added" },
  "api-security-added": { level: B, about: "the operation needs a security scheme it did not need" },
  "api-security-alternative-added": { level: I, about: "a new way to authenticate was added next to the old ones" },
  "api-security-removed": { level: I, about: "a security scheme is no longer needed" },
  "api-security-scope-added": { level: B, about: "a security scheme needs a scope it did not need" },
  "api-security-scope-removed": { level: I, about: "a security scheme needs one scope fewer" },
  "security-scheme-changed": {
    level: B,
    about: "a security scheme the operation uses changed its type, location or name",
  },
  "api-custody-scope-added": { level: B, about: "x-custody-scopes: the API key needs a scope it did not need" },
  "api-custody-scope-removed": { level: I, about: "x-custody-scopes: the API key needs one scope fewer" },
  "api-custody-min-role-raised": { level: B, about: "x-custody-min-role: a higher role is needed" },
  "api-custody-min-role-lowered": { level: I, about: "x-custody-min-role: a lower role suffices" },
  "api-custody-min-role-changed": {
    level: W,
    about: "x-custody-min-role: changed to a role outside x-custody-roles' order",
  },
  "api-agent-effect-changed": {
    level: B,
    about: "x-custody-effect: the effect for agents changed (read, write, funds), so MCP tools need other flags",
  },
  "api-agent-hidden": { level: B, about: "x-custody-agent: never was added: agents may no longer call the operation" },
  "api-agent-exposed": {
    level: W,
    about: "x-custody-agent: never was removed: agents may now call the operation (review it)",
  },
  "webhook-removed": { level: B, about: "a webhook event is no longer sent" },
  "webhook-added": { level: I, about: "a webhook event was added" },
  "webhook-payload-media-type-removed": { level: B, about: "a webhook payload content type was removed" },
  "rpc-method-removed": { level: B, about: "a JSON-RPC method was removed" },
  "rpc-method-added": { level: I, about: "a JSON-RPC method was added" },
  "rpc-new-required-param": { level: B, about: "a JSON-RPC method gained a required param" },
  "rpc-new-optional-param": { level: I, about: "a JSON-RPC method gained an optional param" },
  "rpc-param-removed": { level: B, about: "a JSON-RPC param was removed (by-position calls shift)" },
  "rpc-param-renamed": { level: W, about: "a JSON-RPC param was renamed (by-name calls break)" },
  "rpc-param-became-required": { level: B, about: "a JSON-RPC param became required" },
  "rpc-param-became-optional": { level: I, about: "a JSON-RPC param became optional" },
  "rpc-result-removed": { level: B, about: "a JSON-RPC method no longer declares a result" },
  "pagination-added": {
    level: B,
    about:
      "x-custody-pagination: a list became paged; a caller that sends no limit gets one page instead of every record",
  },
  "pagination-removed": {
    level: B,
    about: "x-custody-pagination: a list is no longer paged; offset and limit no longer select a page",
  },
  "pagination-parameters-changed": {
    level: B,
    about: "x-custody-pagination: the paging style or the offset/limit parameter changed",
  },
  "pagination-items-changed": {
    level: B,
    about: "x-custody-pagination: the page's items moved to another place in the response",
  },
  "pagination-default-page-size-changed": {
    level: B,
    about: "x-custody-pagination: the default page size changed; a caller without limit gets another number of records",
  },
  "pagination-max-page-size-decreased": {
    level: B,
    about: "x-custody-pagination: the maximum page size decreased; a caller asking for the old maximum gets 400",
  },
  "pagination-max-page-size-set": {
    level: B,
    about: "x-custody-pagination: a maximum page size was set; larger limits are refused",
  },
  "pagination-max-page-size-increased": { level: I, about: "x-custody-pagination: the maximum page size increased" },
  "pagination-max-page-size-removed": { level: I, about: "x-custody-pagination: the maximum page size was removed" },
};

/** Every id with its level, for documentation and tests: fixed checks plus schema checks per subject. */
export function allChecks(): { id: string; level: string; about: string }[] {
  const rows = Object.entries(CHECKS).map(([id, c]) => ({ id, level: c.level, about: c.about }));
  const seen = new Set(rows.map((r) => r.id));
  for (const subject of Object.values(SUBJECTS)) {
    for (const [suffix, [req, res, about]] of Object.entries(SCHEMA_CHECKS)) {
      for (const nested of [false, true]) {
        if (!nested && /^(became-required|became-optional|removed-|added-)/.test(suffix)) continue;
        const id = schemaCheckId(subject, nested, suffix);
        if (seen.has(id)) continue;
        seen.add(id);
        rows.push({
          id,
          level: subject.dir === "request" ? req : res,
          about: `${subject.label}${nested ? " property" : ""}: ${about}`,
        });
      }
    }
  }
  return rows;
}
