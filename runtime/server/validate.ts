// Input validation with the operation's zod schemas; a failure becomes one message naming the field,
// e.g. "body.amount: Invalid string: must match pattern /^.../".
import type { IncomingMessage } from "node:http";
import type { z } from "zod";
import type { HandlerInput, OperationDefinition } from "./types.ts";

export type InputLocation = "params" | "query" | "headers" | "body";

const MAX_ISSUES_IN_MESSAGE = 3;
const MAX_MESSAGE_LENGTH = 500;

/** `body.items[0].amount` from a location and a zod issue path. */
export function fieldPath(location: InputLocation, path: readonly PropertyKey[]): string {
  let out: string = location;
  for (const key of path) out += typeof key === "number" ? `[${key}]` : `.${String(key)}`;
  return out;
}

export function formatIssues(location: InputLocation, issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues
    .slice(0, MAX_ISSUES_IN_MESSAGE)
    .map((issue) => `${fieldPath(location, issue.path)}: ${issue.message}`);
  if (issues.length > MAX_ISSUES_IN_MESSAGE) shown.push(`and ${issues.length - MAX_ISSUES_IN_MESSAGE} more`);
  const message = shown.join("; ");
  return message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : message;
}

/** Query string as a record: a repeated key becomes an array (which a scalar schema then refuses). */
export function queryRecord(search: string): Record<string, string | string[]> {
  if (search === "") return {};
  const out = new Map<string, string | string[]>();
  for (const [key, value] of new URLSearchParams(search)) {
    const existing = out.get(key);
    if (existing === undefined) out.set(key, value);
    else out.set(key, Array.isArray(existing) ? [...existing, value] : [existing, value]);
  }
  // fromEntries defines own properties, so a key named __proto__ stays a plain key.
  return Object.fromEntries(out);
}

/** Request headers with lower-case names; a header sent more than once becomes an array. */
export function headersRecord(req: IncomingMessage): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(req.headersDistinct).map(([name, values]) => [
      name,
      values && values.length === 1 ? values[0] : (values ?? []),
    ]),
  );
}

/**
 * The keys a schema reads when it is a zod object that drops unknown keys (the default mode): its
 * result then depends on those keys only, so the router hands it just them. Undefined for any other
 * schema (strict, loose, catchall, transformed), which gets every header.
 */
export function readKeys(schema: z.ZodType | undefined): readonly string[] | undefined {
  const def = (schema as { _zod?: { def?: { type?: string; catchall?: unknown; shape?: object } } } | undefined)?._zod
    ?.def;
  if (def?.type !== "object" || def.catchall !== undefined || def.shape === undefined) return undefined;
  const keys = Object.keys(def.shape);
  return keys.includes("__proto__") ? undefined : keys;
}

/**
 * headersRecord restricted to `names`: the same values for those names, without building the record
 * of every header (most operations read none, and then no header is looked at).
 */
export function headersSubset(req: IncomingMessage, names: readonly string[]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (names.length === 0) return out;
  const distinct = req.headersDistinct;
  for (const name of names) {
    const values = Object.hasOwn(distinct, name) ? distinct[name] : undefined;
    if (values !== undefined) out[name] = values.length === 1 ? values[0] : values;
  }
  return out;
}

export type ValidationResult =
  | { ok: true; input: HandlerInput }
  | { ok: false; message: string; location: InputLocation };

/** Validates params, query, headers and body in that order; the first location that fails is reported. */
export function validateInput(op: OperationDefinition, raw: HandlerInput): ValidationResult {
  const steps: [InputLocation, z.ZodType | undefined][] = [
    ["params", op.paramsSchema],
    ["query", op.querySchema],
    ["headers", op.headersSchema],
    ["body", op.bodySchema],
  ];
  const input: HandlerInput = { params: undefined, query: undefined, headers: undefined, body: undefined };
  for (const [location, schema] of steps) {
    if (schema === undefined) {
      // No parameter declared at this location: nothing sent there is read (a body stays absent).
      if (location !== "body") input[location] = {};
      continue;
    }
    const result = schema.safeParse(raw[location]);
    if (!result.success) return { ok: false, message: formatIssues(location, result.error.issues), location };
    input[location] = result.data;
  }
  return { ok: true, input };
}
