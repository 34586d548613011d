// What a resolved schema allows, as both emitters print it: the per-type branches (a keyword for
// strings constrains strings only, and a schema without `type` accepts every other type as is) and
// the enum/const values. One place, so the TypeScript type and the zod schema cannot disagree.

import { codeJson } from "../spec-text.ts";
import { isPrototypeMember, propertyKey } from "./names.ts";
import type { ResolvedSchemas, Schema, SchemaObject } from "./types.ts";

export type Branch = "string" | "number" | "integer" | "boolean" | "null" | "array" | "object";

/** Formats generated validators assert (JSON Schema 2020-12 section 7.3); others are annotations. */
export const ASSERTED_FORMATS = new Set([
  "date-time",
  "date",
  "time",
  "uuid",
  "email",
  "uri",
  "hostname",
  "ipv4",
  "ipv6",
]);

const ALL: Branch[] = ["string", "number", "boolean", "null", "array", "object"];

/** Types whose own keywords the schema uses. */
function constrainedTypes(schema: SchemaObject): Set<Branch> {
  const out = new Set<Branch>();
  const has = (...keys: string[]) => keys.some((k) => schema[k] !== undefined);
  if (
    has("minLength", "maxLength", "pattern") ||
    (typeof schema.format === "string" && ASSERTED_FORMATS.has(schema.format))
  )
    out.add("string");
  if (has("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")) out.add("number");
  if (has("items", "prefixItems", "minItems", "maxItems")) out.add("array");
  if (has("properties", "required", "additionalProperties", "patternProperties")) out.add("object");
  return out;
}

/**
 * The branches to print: the declared types (integer folded into number when both appear), or, with
 * no `type`, every type when some type-specific keyword is present (the others pass unconstrained),
 * else none (anything). `constrainedOnly`: just the branches that carry keywords.
 */
export function branchesOf(schema: SchemaObject, constrainedOnly = false): Branch[] {
  const declared = Array.isArray(schema.type) ? (schema.type as Branch[]) : undefined;
  const constrained = constrainedTypes(schema);
  if (constrainedOnly) {
    const list = [...constrained];
    if (declared === undefined) return list;
    return list.filter((t) => declared.includes(t) || (t === "number" && declared.includes("integer")));
  }
  if (declared !== undefined) return declared.includes("number") ? declared.filter((t) => t !== "integer") : declared;
  return constrained.size === 0 ? [] : ALL;
}

/** const as one value, enum as its values; undefined when neither is present. */
export function literalValues(schema: SchemaObject): unknown[] | undefined {
  if (Object.hasOwn(schema, "const")) return [schema.const];
  return Array.isArray(schema.enum) ? schema.enum : undefined;
}

/** The TypeScript type of one JSON value. */
export function jsonTypeText(value: unknown): string {
  if (value === null || typeof value !== "object") return codeJson(value);
  if (Array.isArray(value)) return `[${value.map(jsonTypeText).join(", ")}]`;
  const entries = Object.entries(value).map(([k, v]) => `${propertyKey(k)}: ${jsonTypeText(v)}`);
  return entries.length === 0 ? "Record<string, never>" : `{ ${entries.join("; ")} }`;
}

/** Whether a component's zod const is a plain ZodObject (what z.discriminatedUnion and .extend need). */
export function isPlainZodObject(schema: Schema, resolver: ResolvedSchemas): boolean {
  const target = resolver.resolve(schema);
  if (typeof target !== "object" || typeof target.$ref === "string") return false;
  const branches = branchesOf(target);
  if (branches.length !== 1 || branches[0] !== "object" || literalValues(target) !== undefined) return false;
  if (target.allOf || target.anyOf || target.oneOf || target.patternProperties !== undefined) return false;
  const keys = [
    ...Object.keys((target.properties as object | undefined) ?? {}),
    ...((target.required as string[] | undefined) ?? []),
  ];
  if (keys.length === 0 || keys.some(isPrototypeMember)) return false;
  return rawRulesAbsent(target);
}

function rawRulesAbsent(schema: SchemaObject): boolean {
  return [
    "minProperties",
    "maxProperties",
    "propertyNames",
    "dependentRequired",
    "dependentSchemas",
    "uniqueItems",
    "contains",
    "not",
    "if",
  ].every((k) => schema[k] === undefined || (k === "uniqueItems" && schema[k] === false));
}

/** A resolved schema both emitters print as one object type: an interface in types.ts. */
export function isInterfaceShape(schema: Schema, resolver: ResolvedSchemas): boolean {
  const target = resolver.resolve(schema);
  if (typeof target !== "object" || typeof target.$ref === "string") return false;
  const branches = branchesOf(target);
  if (branches.length !== 1 || branches[0] !== "object" || literalValues(target) !== undefined) return false;
  if (target.allOf || target.anyOf || target.oneOf) return false;
  const extra = target.patternProperties === undefined ? target.additionalProperties : true;
  const hasKeys = target.properties !== undefined || target.required !== undefined;
  return hasKeys && (extra === undefined || extra === true || extra === false);
}
