// Schema → zod 4 expression text, one small function per kind of schema node. Component refs
// become the component's const; objects whose allOf parts are all objects are merged into one
// z.object; a discriminator becomes z.discriminatedUnion when every member is an object const.
import { isPrototypeMember, objectLiteralKey } from "../model/names.ts";
import { canonicalComponentRef, derefSchema, flattenObject, isRefSchema, typeInfo, type FlatObject } from "../model/schema-utils.ts";
import type { NamedSchema, Schema, SchemaObject } from "../model/types.ts";
import { indent } from "./ts-type.ts";

export interface ZodContext {
  document: unknown;
  components: ReadonlyMap<string, NamedSchema>;
  /** Values arrive as strings (path, query, header): numbers and booleans are coerced. */
  coerce?: boolean;
  /** For coerced arrays: repeated keys (default) or one comma-separated value. */
  explode?: boolean;
  /** OpenAPI 3.0: boolean exclusiveMinimum/Maximum. */
  version: "3.0" | "3.1";
}

const MAX_INLINE_DEPTH = 64;

export function zodSchema(schema: Schema | undefined, ctx: ZodContext): string {
  return zodOf(schema, ctx, 0);
}

function zodOf(schema: Schema | undefined, ctx: ZodContext, depth: number): string {
  if (schema === undefined || schema === true) return "z.unknown()";
  if (schema === false) return "z.never()";
  if (depth > MAX_INLINE_DEPTH) return "z.unknown()";
  if (typeof schema.$ref === "string") return refZod(schema as SchemaObject & { $ref: string }, ctx, depth);
  const { nullable } = typeInfo(schema);
  let out = nonNullZod(schema, ctx, depth);
  if (nullable && out !== "z.null()" && out !== "z.unknown()") out += ".nullable()";
  return withDefault(out, schema, ctx.document);
}

function refZod(schema: SchemaObject & { $ref: string }, ctx: ZodContext, depth: number): string {
  const canonical = canonicalComponentRef(schema.$ref);
  const named = canonical === undefined ? undefined : ctx.components.get(canonical);
  let out = named && !ctx.coerce ? named.schemaName : zodOf(derefSchema(ctx.document, schema), ctx, depth + 1);
  if (schema.nullable === true) out += ".nullable()";
  return withDefault(out, schema, ctx.document);
}

function nonNullZod(schema: SchemaObject, ctx: ZodContext, depth: number): string {
  if (schema.const !== undefined) return literalZod([schema.const], ctx);
  if (Array.isArray(schema.enum)) return literalZod(schema.enum.filter((v) => v !== null), ctx);
  const parts: string[] = [];
  if (schema.allOf) parts.push(allOfZod(schema, ctx, depth));
  if (schema.oneOf) parts.push(unionZod(schema, schema.oneOf, ctx, depth));
  if (schema.anyOf) parts.push(unionZod(schema, schema.anyOf, ctx, depth));
  const hasComposition = parts.length > 0;
  // With allOf merged into an object, the node's own properties are already part of it.
  const ownCovered = schema.allOf !== undefined && flattenObject(ctx.document, schema) !== undefined;
  if (!ownCovered) {
    const own = ownZod(schema, ctx, depth, hasComposition);
    if (own !== undefined) parts.unshift(own);
  }
  if (parts.length === 0) return "z.unknown()";
  return parts.reduce((acc, part) => `z.intersection(${acc}, ${part})`);
}

function ownZod(schema: SchemaObject, ctx: ZodContext, depth: number, composed: boolean): string | undefined {
  const { types } = typeInfo(schema);
  const hasShape = schema.properties !== undefined || schema.additionalProperties !== undefined;
  if (types.length === 0) {
    if (hasShape) return objectZod(flatOwn(schema), ctx, depth);
    if (schema.items !== undefined) return arrayZod(schema, ctx, depth);
    return composed ? undefined : "z.unknown()";
  }
  const each = types.map((t) => zodForType(t, schema, ctx, depth));
  return each.length === 1 ? each[0] : `z.union([${each.join(", ")}])`;
}

function zodForType(type: string, schema: SchemaObject, ctx: ZodContext, depth: number): string {
  switch (type) {
    case "string":
      return stringZod(schema);
    case "integer":
    case "number":
      return numberZod(schema, type === "integer", ctx);
    case "boolean":
      return ctx.coerce ? "z.stringbool()" : "z.boolean()";
    case "null":
      return "z.null()";
    case "array":
      return arrayZod(schema, ctx, depth);
    case "object":
      return objectZod(flatOwn(schema), ctx, depth);
    default:
      return "z.unknown()";
  }
}

function literalZod(values: unknown[], ctx: ZodContext): string {
  const primitives = [...new Set(values)].filter((v) => v === null || ["string", "number", "boolean"].includes(typeof v));
  if (primitives.length === 0) return values.length === 0 ? "z.never()" : "z.unknown()";
  if (primitives.length > 1 && primitives.every((v) => typeof v === "string")) return `z.enum([${primitives.map((v) => JSON.stringify(v)).join(", ")}])`;
  const literal = primitives.length === 1 ? `z.literal(${JSON.stringify(primitives[0])})` : `z.literal([${primitives.map((v) => JSON.stringify(v)).join(", ")}])`;
  // Strings from a URL must become numbers/booleans before the literal check.
  if (ctx.coerce && primitives.every((v) => typeof v === "number")) return `z.coerce.number().pipe(${literal})`;
  if (ctx.coerce && primitives.every((v) => typeof v === "boolean")) return `z.stringbool().pipe(${literal})`;
  return literal;
}

const STRING_FORMATS: Record<string, string> = {
  "date-time": "z.iso.datetime({ offset: true })",
  date: "z.iso.date()",
  time: "z.iso.time()",
  uuid: "z.uuid()",
  email: "z.email()",
  uri: "z.url()",
  url: "z.url()",
  ipv4: "z.ipv4()",
  ipv6: "z.ipv6()",
};

function stringZod(schema: SchemaObject): string {
  let out = (schema.format && STRING_FORMATS[schema.format]) || "z.string()";
  if (isCount(schema.minLength) && schema.minLength > 0) out += `.min(${schema.minLength})`;
  if (isCount(schema.maxLength)) out += `.max(${schema.maxLength})`;
  if (typeof schema.pattern === "string") {
    // Unicode escapes (\p{L}, \u{1F600}) only mean what they say with the u flag.
    const flags = /\\[pP]\{|\\u\{/.test(schema.pattern) ? "u" : "";
    if (compiles(schema.pattern, flags)) {
      out += `.regex(new RegExp(${JSON.stringify(schema.pattern)}${flags ? `, "${flags}"` : ""}))`;
    }
  }
  return out;
}

function numberZod(schema: SchemaObject, integer: boolean, ctx: ZodContext): string {
  // int32/int64 alike: z.number().int() accepts only safe integers (|n| < 2^53). JSON.parse has
  // already rounded anything larger, so refusing it beats passing on a silently wrong value.
  let out = (ctx.coerce ? "z.coerce.number()" : "z.number()") + (integer ? ".int()" : "");
  const exclusiveMin = ctx.version === "3.0" ? schema.exclusiveMinimum === true : typeof schema.exclusiveMinimum === "number";
  const exclusiveMax = ctx.version === "3.0" ? schema.exclusiveMaximum === true : typeof schema.exclusiveMaximum === "number";
  if (typeof schema.exclusiveMinimum === "number") out += `.gt(${schema.exclusiveMinimum})`;
  if (typeof schema.minimum === "number") out += exclusiveMin && schema.exclusiveMinimum === true ? `.gt(${schema.minimum})` : `.min(${schema.minimum})`;
  if (typeof schema.exclusiveMaximum === "number") out += `.lt(${schema.exclusiveMaximum})`;
  if (typeof schema.maximum === "number") out += exclusiveMax && schema.exclusiveMaximum === true ? `.lt(${schema.maximum})` : `.max(${schema.maximum})`;
  if (typeof schema.multipleOf === "number" && schema.multipleOf > 0) out += `.multipleOf(${schema.multipleOf})`;
  return out;
}

function arrayZod(schema: SchemaObject, ctx: ZodContext, depth: number): string {
  const item = zodOf(schema.items, ctx, depth + 1);
  let out = `z.array(${item})`;
  if (isCount(schema.minItems) && schema.minItems > 0) out += `.min(${schema.minItems})`;
  if (isCount(schema.maxItems)) out += `.max(${schema.maxItems})`;
  // A query value arrives once as a string, or repeated as an array.
  return ctx.coerce ? `z.preprocess(${ctx.explode === false ? "splitCommas" : "toArray"}, ${out})` : out;
}

function flatOwn(schema: SchemaObject): FlatObject {
  return {
    properties: schema.properties ?? {},
    required: new Set(schema.required ?? []),
    additionalProperties: schema.additionalProperties,
  };
}

/** z.object / z.strictObject / z.looseObject / .catchall / z.record from an object shape. */
export function objectZod(flat: FlatObject, ctx: ZodContext, depth: number): string {
  const names = Object.keys(flat.properties);
  const extra = flat.additionalProperties;
  const isSchemaExtra = extra !== undefined && extra !== true && extra !== false && !isEmptySchema(extra);
  if (names.length === 0) {
    if (extra === false) return "z.strictObject({})";
    return `z.record(z.string(), ${isSchemaExtra ? zodOf(extra, ctx, depth + 1) : "z.unknown()"})`;
  }
  const lines = names.map((name) => `${objectLiteralKey(name)}: ${propertyZod(flat.properties[name], flat.required.has(name), ctx, depth)},`);
  const body = `{\n${lines.map(indent).join("\n")}\n}`;
  let out = `z.object(${body})`;
  if (extra === false) out = `z.strictObject(${body})`;
  else if (extra === true || (extra !== undefined && isEmptySchema(extra))) out = `z.looseObject(${body})`;
  else if (isSchemaExtra) out = `z.object(${body}).catchall(${zodOf(extra, ctx, depth + 1)})`;
  return withOwnProperties(names, out);
}

/**
 * An object schema with a key named like an Object.prototype member (constructor, toString...) reads
 * the input through `ownProperties`, a copy without prototype, so an absent key is absent rather than
 * the inherited function (see isPrototypeMember).
 */
export function withOwnProperties(keys: readonly string[], objectCode: string): string {
  return keys.some(isPrototypeMember) ? `z.preprocess(ownProperties, ${objectCode})` : objectCode;
}

function propertyZod(schema: Schema, required: boolean, ctx: ZodContext, depth: number): string {
  const out = zodOf(schema, ctx, depth + 1);
  // A default already makes the key optional on input.
  return required || emitsDefault(schema, ctx.document) ? out : `${out}.optional()`;
}

/** True when the schema carries a default the zod schema applies (see defaultFits). */
export function emitsDefault(schema: Schema | undefined, document: unknown): boolean {
  if (typeof schema !== "object" || schema === null || !Object.hasOwn(schema, "default")) return false;
  // 3.1 allows `{ $ref, default }`: the default must fit the referenced schema.
  const target = isRefSchema(schema) ? derefSchema(document, schema) : schema;
  return typeof target === "object" && target !== null && defaultFits(target, schema.default);
}

function allOfZod(schema: SchemaObject, ctx: ZodContext, depth: number): string {
  const flat = flattenObject(ctx.document, schema);
  if (flat !== undefined) return objectZod(flat, ctx, depth);
  const members = (schema.allOf ?? []).map((m) => zodOf(m, ctx, depth + 1));
  if (members.length === 0) return "z.unknown()";
  return members.reduce((acc, m) => `z.intersection(${acc}, ${m})`);
}

function unionZod(schema: SchemaObject, members: Schema[], ctx: ZodContext, depth: number): string {
  if (members.length === 1) return zodOf(members[0], ctx, depth + 1);
  if (members.length === 0) return "z.never()";
  const discriminated = schema.discriminator ? discriminatedZod(schema.discriminator, members, ctx, depth) : undefined;
  if (discriminated !== undefined) return discriminated;
  return `z.union([\n${members.map((m) => indent(zodOf(m, ctx, depth + 1) + ",")).join("\n")}\n])`;
}

/**
 * z.discriminatedUnion when every member is an object const (a non-recursive component or an inline
 * object) whose discriminator value is known: from the member's own const/enum, else from the mapping
 * or the component name, in which case the member is extended with that literal. Otherwise undefined.
 */
function discriminatedZod(
  discriminator: { propertyName: string; mapping?: Record<string, string> },
  members: Schema[],
  ctx: ZodContext,
  depth: number,
): string | undefined {
  const property = discriminator.propertyName;
  if (typeof property !== "string" || ctx.coerce) return undefined;
  const valuesByRef = new Map<string, string[]>();
  for (const [value, target] of Object.entries(discriminator.mapping ?? {})) {
    const canonical = canonicalComponentRef(target.startsWith("#") ? target : `#/components/schemas/${target}`);
    if (canonical === undefined) continue;
    valuesByRef.set(canonical, [...(valuesByRef.get(canonical) ?? []), value]);
  }
  const seen = new Set<string>();
  const out: string[] = [];
  for (const member of members) {
    const entry = discriminatedMember(member, property, valuesByRef, ctx, depth);
    if (entry === undefined) return undefined;
    for (const v of entry.values) {
      if (seen.has(v)) return undefined; // zod refuses duplicate discriminator values
      seen.add(v);
    }
    out.push(entry.code);
  }
  return `z.discriminatedUnion(${JSON.stringify(property)}, [\n${out.map((m) => indent(m + ",")).join("\n")}\n])`;
}

function discriminatedMember(
  member: Schema,
  property: string,
  valuesByRef: ReadonlyMap<string, string[]>,
  ctx: ZodContext,
  depth: number,
): { code: string; values: string[] } | undefined {
  if (typeof member !== "object" || member === null) return undefined;
  const canonical = isRefSchema(member) ? canonicalComponentRef(member.$ref) : undefined;
  const named = canonical === undefined ? undefined : ctx.components.get(canonical);
  if (isRefSchema(member) && (named === undefined || !named.zodObject || member.nullable === true)) return undefined;
  const flat = flattenObject(ctx.document, member);
  // The property must be required: responses that leave it out (GitHub's user_view_type) would
  // otherwise fail a union that a plain z.union accepts.
  if (flat === undefined || !flat.required.has(property)) return undefined;
  const own = literalValues(ctx.document, flat.properties[property]);
  if (own !== undefined) {
    return { code: named ? named.schemaName : objectZod(flat, ctx, depth + 1), values: own.map(String) };
  }
  if (named === undefined) return undefined;
  const values = valuesByRef.get(named.ref) ?? [named.originalName];
  const literal = values.length === 1 ? `z.literal(${JSON.stringify(values[0])})` : `z.enum([${values.map((v) => JSON.stringify(v)).join(", ")}])`;
  return { code: `${named.schemaName}.extend({ ${objectLiteralKey(property)}: ${literal} })`, values };
}

/** The values a discriminator property allows when it is a const or an enum of strings. */
function literalValues(document: unknown, schema: Schema | undefined): string[] | undefined {
  const target = schema === undefined ? undefined : derefSchema(document, schema);
  if (typeof target !== "object" || target === null) return undefined;
  if (typeof target.const === "string") return [target.const];
  if (Array.isArray(target.enum) && target.enum.length > 0 && target.enum.every((v) => typeof v === "string")) return target.enum as string[];
  return undefined;
}

function withDefault(out: string, schema: SchemaObject, document: unknown): string {
  if (!emitsDefault(schema, document)) return out;
  const value = schema.default;
  const literal = JSON.stringify(value);
  return typeof value === "object" && value !== null ? `${out}.default(() => (${literal}))` : `${out}.default(${literal})`;
}

/** A default is emitted only when it has the schema's type (public specs carry wrong ones). */
function defaultFits(schema: SchemaObject, value: unknown): boolean {
  if (Array.isArray(schema.enum)) return schema.enum.some((v) => v === value);
  if (value === null) return typeInfo(schema).nullable;
  const { types } = typeInfo(schema);
  if (types.length !== 1) return false;
  switch (types[0]) {
    case "string":
      return typeof value === "string" && !schema.format;
    case "integer":
      return Number.isSafeInteger(value);
    case "number":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value) && value.length === 0;
    default:
      return false;
  }
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function isEmptySchema(schema: Schema): boolean {
  return typeof schema === "object" && schema !== null && Object.keys(schema).filter((k) => !k.startsWith("x-") && k !== "description").length === 0;
}

/** Patterns JavaScript cannot compile (other regex dialects) are left out rather than failing at import. */
function compiles(pattern: string, flags: string): boolean {
  try {
    new RegExp(pattern, flags);
    return true;
  } catch {
    return false;
  }
}
