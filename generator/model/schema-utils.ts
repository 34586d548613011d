// Small questions about schemas that several parts of the model and the emitters ask.
import { escapeToken, refTokens, resolvePointer, toPointer } from "../load/json-pointer.ts";
import type { Schema, SchemaObject } from "./types.ts";

export const COMPONENT_SCHEMA_PREFIX = "#/components/schemas/";

/** "#/components/schemas/<name>" spelled one way (refs may percent-encode), or undefined for other refs. */
export function canonicalComponentRef(ref: string): string | undefined {
  const tokens = refTokens(ref);
  if (tokens === undefined || tokens.length !== 3 || tokens[0] !== "components" || tokens[1] !== "schemas")
    return undefined;
  return COMPONENT_SCHEMA_PREFIX + escapeToken(tokens[2]);
}

/** The key a ref has in the component table: a component's canonical ref, or any local ref spelled "#" + JSON pointer. */
export function componentKey(ref: string): string | undefined {
  const canonical = canonicalComponentRef(ref);
  if (canonical !== undefined) return canonical;
  const tokens = refTokens(ref);
  return tokens === undefined ? undefined : `#${toPointer(tokens)}`;
}

export function isRefSchema(schema: Schema | undefined): schema is SchemaObject & { $ref: string } {
  return typeof schema === "object" && schema !== null && typeof schema.$ref === "string";
}

/** Follows $ref chains to a schema object; undefined for a cycle of pure refs or a dangling ref. */
export function derefSchema(document: unknown, schema: Schema): Schema | undefined {
  let current: Schema | undefined = schema;
  for (let hops = 0; isRefSchema(current); hops++) {
    if (hops > 32) return undefined;
    current = resolvePointer(document, current.$ref) as Schema | undefined;
  }
  return current;
}

/** The schema's types without null, and whether null is allowed (3.0 nullable, 3.1 type arrays, enum null). */
export function typeInfo(schema: SchemaObject): { types: string[]; nullable: boolean } {
  const declared = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  // `type: "null"` alone is the null type itself, not a nullable something.
  if (declared.length > 0 && declared.every((t) => t === "null")) return { types: ["null"], nullable: false };
  const types = declared.filter((t) => t !== "null");
  const nullable =
    schema.nullable === true || declared.includes("null") || (Array.isArray(schema.enum) && schema.enum.includes(null));
  return { types, nullable };
}

const DATA_KEYS = new Set(["example", "examples", "default", "const", "enum"]);

/** Every $ref string inside a schema (data keywords such as example and default are skipped). */
export function collectRefs(schema: unknown, out: Set<string> = new Set()): Set<string> {
  if (schema === null || typeof schema !== "object") return out;
  if (Array.isArray(schema)) {
    for (const item of schema) collectRefs(item, out);
    return out;
  }
  for (const [key, value] of Object.entries(schema)) {
    if ((key === "$ref" || key === "$dynamicRef") && typeof value === "string") out.add(value);
    else if (!DATA_KEYS.has(key) && key !== "properties") collectRefs(value, out);
    else if (key === "properties" && value && typeof value === "object") {
      // Property names may be anything (even "$ref" or "example"): walk their schemas only.
      for (const prop of Object.values(value)) collectRefs(prop, out);
    }
  }
  return out;
}

/** A schema that is only an object shape: properties/additionalProperties/allOf of shapes, nothing else. */
export function isObjectShape(schema: SchemaObject): boolean {
  if (schema.oneOf || schema.anyOf || schema.enum || schema.const !== undefined || schema.not) return false;
  const { types, nullable } = typeInfo(schema);
  if (nullable) return false;
  if (types.length > 1 || (types.length === 1 && types[0] !== "object")) return false;
  return (
    types[0] === "object" ||
    schema.properties !== undefined ||
    schema.additionalProperties !== undefined ||
    schema.allOf !== undefined
  );
}

export interface FlatObject {
  properties: Record<string, Schema>;
  required: Set<string>;
  additionalProperties?: Schema;
  description?: string;
}

/**
 * An object shape with allOf members merged in (later members override earlier properties), or
 * undefined when any part is not a plain object shape.
 */
export function flattenObject(document: unknown, schema: Schema, depth = 0): FlatObject | undefined {
  if (depth > 16) return undefined;
  const target = derefSchema(document, schema);
  if (typeof target !== "object" || target === null || !isObjectShape(target)) return undefined;
  const flat: FlatObject = { properties: {}, required: new Set(), description: target.description };
  const members = target.allOf ?? [];
  let allStrict = members.length > 0;
  let inherited: Schema | undefined;
  for (const member of members) {
    const part = flattenObject(document, member, depth + 1);
    if (part === undefined) return undefined;
    Object.assign(flat.properties, part.properties);
    for (const name of part.required) flat.required.add(name);
    if (part.additionalProperties !== false) allStrict = false;
    if (part.additionalProperties !== undefined && part.additionalProperties !== false)
      inherited = part.additionalProperties;
  }
  Object.assign(flat.properties, target.properties ?? {});
  for (const name of target.required ?? []) flat.required.add(name);
  // JSON Schema's allOf with a strict member would forbid the other members' properties; only an
  // all-strict composition stays strict here.
  const additional = target.additionalProperties ?? (allStrict ? false : inherited);
  if (additional !== undefined) flat.additionalProperties = additional;
  return flat;
}

/** The `data` schema when `schema` is an envelope: an object with success, message, code and data. */
export function envelopeDataSchema(document: unknown, schema: Schema): Schema | undefined {
  const flat = flattenObject(document, schema);
  if (flat === undefined) return undefined;
  const keys = ["success", "message", "code", "data"];
  return keys.every((k) => Object.hasOwn(flat.properties, k)) ? flat.properties.data : undefined;
}
