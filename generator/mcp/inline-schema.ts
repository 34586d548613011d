// JSON Schemas every MCP client accepts: the generator's resolved schema with every $ref inlined (a
// cycle becomes an open schema with a note), no $defs, no vendor or document-only keywords, one-type
// arrays written as the type, no member named like a keyword ("$ref" in SCIM documents: clients that
// resolve refs naively take it for one; outputs still accept it). Inputs drop readOnly members;
// outputs are loosened (loosen): an output schema stricter than the real answers turns good calls into errors.
import type { ResolvedSchemas, Schema, SchemaObject } from "../model/types.ts";

export type Direction = "input" | "output";
type Json = Record<string, unknown>;

const DROPPED = new Set([
  "$schema",
  "$id",
  "$anchor",
  "$dynamicAnchor",
  "$defs",
  "definitions",
  "$comment",
  "discriminator",
  "xml",
  "externalDocs",
  "example",
  "examples",
]);
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "dependentSchemas"]);
const SCHEMA_LISTS = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
const SCHEMA_VALUES = new Set([
  "items",
  "additionalProperties",
  "not",
  "contains",
  "propertyNames",
  "if",
  "then",
  "else",
]);
/** Deeper than this, a schema is left open: agents do not need it, and recursive schemas end. */
const MAX_DEPTH = 12;

export function inlineSchema(
  resolver: ResolvedSchemas,
  schema: Schema | undefined,
  direction: Direction,
  seen: readonly string[] = [],
  depth = 0,
): Json | boolean {
  const resolved = resolver.resolve(schema);
  if (typeof resolved === "boolean") return resolved;
  if (depth > MAX_DEPTH) return { description: "(nested deeper than shown here)" };
  if (typeof resolved.$ref === "string") {
    const ref = resolved.$ref;
    const component = resolver.component(ref);
    if (component === undefined || seen.includes(ref))
      return { description: `(recursive: the same shape as ${ref.split("/").pop()})` };
    const inner = inlineSchema(resolver, component.schema, direction, [...seen, ref], depth);
    return typeof inner === "object" && resolved.description ? { ...inner, description: resolved.description } : inner;
  }
  const out: Json = {};
  const sub = (value: unknown) => inlineSchema(resolver, value as Schema, direction, seen, depth + 1);
  for (const [key, value] of Object.entries(resolved as SchemaObject)) {
    if (key.startsWith("x-") || DROPPED.has(key)) continue;
    if (SCHEMA_MAPS.has(key) && value && typeof value === "object")
      out[key] = Object.fromEntries(
        Object.entries(value)
          .filter(([k, v]) => !k.startsWith("$") && keeps(resolver, v as Schema, direction))
          .map(([k, v]) => [k, sub(v)]),
      );
    else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) out[key] = value.map(sub);
    else if (SCHEMA_VALUES.has(key)) out[key] = sub(value);
    else if (key === "type" && Array.isArray(value) && value.length === 1) out.type = value[0];
    else out[key] = value;
  }
  if (Array.isArray(out.required) && out.properties)
    out.required = (out.required as string[]).filter((n) => n in (out.properties as Json));
  return out;
}

/** Inputs leave out what only the server writes (readOnly), outputs what only the client sends (writeOnly). */
function keeps(resolver: ResolvedSchemas, schema: Schema, direction: Direction): boolean {
  const node = resolver.resolve(schema);
  if (typeof node !== "object") return true;
  const target = typeof node.$ref === "string" ? resolver.component(node.$ref)?.schema : node;
  const flags = (typeof target === "object" ? target : {}) as SchemaObject;
  return direction === "input"
    ? flags.readOnly !== true && node.readOnly !== true
    : flags.writeOnly !== true && node.writeOnly !== true;
}

const STRICT = new Set([
  "required",
  "enum",
  "const",
  "pattern",
  "format",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "not",
  "if",
  "then",
  "else",
  "propertyNames",
]);

/**
 * The shape of an answer with none of its constraints: types kept (null always allowed), members
 * described, nothing required, unknown members allowed, enums and bounds gone. It tells the model
 * what to expect and never refuses what the service really sends.
 */
export function loosen(schema: Json | boolean): Json | boolean {
  if (typeof schema === "boolean") return true;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (STRICT.has(key)) continue;
    if (key === "additionalProperties") out[key] = value === false ? true : loosen(value as Json);
    else if (key === "properties" || key === "patternProperties")
      out[key] = Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, loosen(v as Json)]));
    else if (key === "items") out[key] = loosen(value as Json);
    else if (SCHEMA_LISTS.has(key)) out[key] = (value as Json[]).map(loosen);
    else if (key === "type") out.type = withNull(value);
    else out[key] = value;
  }
  // Loosened members may overlap, and "exactly one" would then refuse a good answer: any one will do.
  if (Array.isArray(out.oneOf)) {
    out.anyOf = [...((out.anyOf as Json[]) ?? []), ...(out.oneOf as Json[])];
    delete out.oneOf;
  }
  return out;
}

function withNull(type: unknown): unknown {
  const list = Array.isArray(type) ? [...type] : [type];
  if (!list.includes("null")) list.push("null");
  if (list.includes("integer") && !list.includes("number")) list[list.indexOf("integer")] = "number";
  return list;
}
