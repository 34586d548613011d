// Resolved schema (generator/model/resolve-schema.ts) → zod 4 expression text. Each JSON Schema
// keyword is expressed exactly: zod primitives where they mean the same, else a .refine() with a
// predicate from runtime/json-schema.ts. Keywords that need the value's own keys or raw items
// (not, if/then/else, patternProperties, uniqueItems, ...) are checked on the raw value before it is
// parsed: `z.unknown().refine(rule).pipe(schema)`. Defaults are annotations and are not applied.
import { directedNames, hiddenIn, hiddenProperties } from "../model/directions.ts";
import { isPrototypeMember, objectLiteralKey } from "../model/names.ts";
import type { SchemaResolver } from "../model/resolve-schema.ts";
import { patternFlags } from "../model/resolve-schema.ts";
import { branchesOf, jsonTypeText, literalValues, type Branch } from "../model/schema-shape.ts";
import type { Direction, NamedSchema, Schema, SchemaObject } from "../model/types.ts";
import { indent } from "./ts-type.ts";
import { codeJson } from "../spec-text.ts";

export interface ZodContext {
  document: unknown;
  components: ReadonlyMap<string, NamedSchema>;
  resolver: SchemaResolver;
  /** Values arrive as strings (path, query, header): numbers and booleans are coerced. */
  coerce?: boolean;
  /** For coerced arrays: repeated keys (default) or one comma-separated value. */
  explode?: boolean;
  version: "3.0" | "3.1";
  /** Who sends the value: hidden properties are left out and $refs name the direction's variants. */
  direction?: Direction;
  /**
   * Coerced mode: the name of a component's coerced const, emitted once by the caller (schemas.ts);
   * without it a component is inlined, which only callers printing one small schema may afford.
   */
  coercedRef?: (named: NamedSchema, ctx: ZodContext) => string;
}

const MAX_INLINE_DEPTH = 64;

/** Formats asserted, with their predicate in runtime/json-schema-formats.ts; others are annotations. */
export const FORMAT_CHECKS: Record<string, string> = {
  "date-time": "isDateTime",
  date: "isDate",
  time: "isTime",
  uuid: "isUuid",
  email: "isEmail",
  uri: "isUri",
  hostname: "isHostname",
  ipv4: "isIpv4",
  ipv6: "isIpv6",
};

export function zodSchema(schema: Schema | undefined, ctx: ZodContext): string {
  return zodOf(schema, ctx, 0);
}

function zodOf(input: Schema | undefined, ctx: ZodContext, depth: number): string {
  const schema = ctx.resolver.resolve(input);
  if (schema === true) return "z.unknown()";
  if (schema === false) return "z.never()";
  if (depth > MAX_INLINE_DEPTH) return "z.unknown()";
  if (typeof schema.$ref === "string") {
    const named = ctx.resolver.component(schema.$ref);
    if (named && !ctx.coerce) return directedNames(named, ctx.direction).schemaName;
    // A recursive component is never coerced (its cycle runs through objects or nested arrays, which
    // text from a URL cannot fill): its own const.
    if (named?.recursive) return directedNames(named, ctx.direction).schemaName;
    if (named && ctx.coercedRef) return ctx.coercedRef(named, ctx);
    return zodOf(named?.schema, ctx, depth + 1);
  }
  const parts: string[] = [];
  const base = baseZod(schema, ctx, depth);
  if (base !== undefined) parts.push(base);
  for (const member of (schema.allOf as Schema[] | undefined) ?? []) parts.push(zodOf(member, ctx, depth + 1));
  if (Array.isArray(schema.anyOf)) parts.push(anyOfZod(schema.anyOf, ctx, depth));
  if (Array.isArray(schema.oneOf)) parts.push(oneOfZod(schema, schema.oneOf, ctx, depth));
  let out = parts.length === 0 ? "z.unknown()" : parts.reduce((acc, part) => `z.intersection(${acc}, ${part})`);
  const rules = rawRules(schema, ctx, depth);
  if (rules.length > 0) out = `z.unknown()${rules.join("")}.pipe(${out})`;
  return out;
}

/** enum/const, then the per-type branches (string, number, ..., object) of what `type` allows. */
function baseZod(schema: SchemaObject, ctx: ZodContext, depth: number): string | undefined {
  const literals = literalValues(schema);
  const all = branchesOf(schema);
  const others = all.filter((b) => b !== "null").map((b) => branchZod(b, schema, ctx, depth));
  let typed = others.length === 0 ? undefined : others.length === 1 ? others[0] : `z.union([${others.join(", ")}])`;
  if (all.includes("null")) typed = typed === undefined ? "z.null()" : `${typed}.nullable()`;
  if (literals === undefined) return typed;
  const literal = literalZod(literals, ctx);
  // Other keywords still hold next to enum/const (e.g. a pattern): both are checked.
  return typed === undefined || !hasTypedKeywords(schema) ? literal : `z.intersection(${literal}, ${typed})`;
}

function hasTypedKeywords(schema: SchemaObject): boolean {
  return branchesOf(schema, true).length > 0;
}

function literalZod(values: unknown[], ctx: ZodContext): string {
  if (values.length === 0) return "z.never()";
  if (values.some((v) => v !== null && typeof v === "object")) {
    return `z.custom<${values.map(jsonTypeText).join(" | ")}>(equalsOneOf(${codeJson(values)}))`;
  }
  const unique = [...new Set(values)];
  let literal: string;
  if (unique.length > 1 && unique.every((v) => typeof v === "string")) literal = `z.enum([${unique.map((v) => codeJson(v)).join(", ")}])`;
  else literal = unique.length === 1 ? `z.literal(${codeJson(unique[0])})` : `z.literal([${unique.map((v) => codeJson(v)).join(", ")}])`;
  // Strings from a URL must become numbers/booleans before the literal check.
  if (ctx.coerce && unique.every((v) => typeof v === "number")) return `z.coerce.number().pipe(${literal})`;
  if (ctx.coerce && unique.every((v) => typeof v === "boolean")) return `z.stringbool().pipe(${literal})`;
  return literal;
}

function branchZod(branch: Branch, schema: SchemaObject, ctx: ZodContext, depth: number): string {
  switch (branch) {
    case "string":
      return stringZod(schema);
    case "integer":
    case "number":
      return numberZod(schema, branch === "integer", ctx);
    case "boolean":
      return ctx.coerce ? "z.stringbool()" : "z.boolean()";
    case "null":
      return "z.null()";
    case "array":
      return arrayZod(schema, ctx, depth);
    case "object":
      // A parameter's value is text (or a list of texts): an object schema never matches it, so its
      // properties need no coercion and print as everywhere else, component refs by name.
      return objectZod(schema, ctx.coerce ? { ...ctx, coerce: false, explode: undefined } : ctx, depth);
  }
}

function stringZod(schema: SchemaObject): string {
  let out = "z.string()";
  const min = isCount(schema.minLength) ? schema.minLength : 0;
  const max = isCount(schema.maxLength) ? schema.maxLength : undefined;
  // JSON Schema counts code points; zod's .min/.max count UTF-16 units.
  if (min > 0 || max !== undefined) out += `.refine((s) => lengthWithin(s, ${min}, ${max ?? "Infinity"}), "length")`;
  if (typeof schema.pattern === "string") {
    const flags = patternFlags(schema.pattern) ?? "";
    out += `.regex(new RegExp(${codeJson(schema.pattern)}${flags ? `, "${flags}"` : ""}))`;
  }
  const check = typeof schema.format === "string" ? FORMAT_CHECKS[schema.format] : undefined;
  if (check !== undefined) out += `.refine(${check}, ${codeJson(`format ${schema.format}`)})`;
  return out;
}

function numberZod(schema: SchemaObject, integer: boolean, ctx: ZodContext): string {
  let out = ctx.coerce ? "z.coerce.number()" : "z.number()";
  // JSON Schema's integer is any whole number, beyond 2^53 too (zod's .int() stops there).
  if (integer) out += `.refine(isInteger, "integer")`;
  if (typeof schema.minimum === "number") out += `.min(${schema.minimum})`;
  if (typeof schema.exclusiveMinimum === "number") out += `.gt(${schema.exclusiveMinimum})`;
  if (typeof schema.maximum === "number") out += `.max(${schema.maximum})`;
  if (typeof schema.exclusiveMaximum === "number") out += `.lt(${schema.exclusiveMaximum})`;
  if (typeof schema.multipleOf === "number" && schema.multipleOf > 0) out += `.refine((n) => isMultipleOf(n, ${schema.multipleOf}), "multipleOf")`;
  return out;
}

function arrayZod(schema: SchemaObject, ctx: ZodContext, depth: number): string {
  let out: string;
  const min = isCount(schema.minItems) ? schema.minItems : 0;
  const max = isCount(schema.maxItems) ? schema.maxItems : undefined;
  if (Array.isArray(schema.prefixItems)) {
    // prefixItems constrain the items that are there; shorter arrays are valid.
    const items = schema.prefixItems.map((p) => `${zodOf(p, ctx, depth + 1)}.optional()`);
    const rest = schema.items === false ? "" : `, ${zodOf(schema.items, ctx, depth + 1)}`;
    out = `z.tuple([${items.join(", ")}]${rest})`;
    if (min > 0) out += `.refine((a) => a.length >= ${min}, "minItems")`;
    if (max !== undefined) out += `.refine((a) => a.length <= ${max}, "maxItems")`;
  } else {
    out = `z.array(${zodOf(schema.items, ctx, depth + 1)})`;
    if (min > 0) out += `.min(${min})`;
    if (max !== undefined) out += `.max(${max})`;
  }
  // A query value arrives once as a string, or repeated as an array.
  return ctx.coerce ? `z.preprocess(${ctx.explode === false ? "splitCommas" : "toArray"}, ${out})` : out;
}

/** z.object / z.strictObject / z.looseObject / .catchall / z.record from the object keywords. */
function objectZod(schema: SchemaObject, ctx: ZodContext, depth: number): string {
  const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const hidden = hiddenProperties(ctx.direction, schema, ctx.resolver);
  // `required` may name keys `properties` does not declare: they must be present, with any value.
  const names = [...Object.keys(properties), ...[...required].filter((n) => !Object.hasOwn(properties, n))].filter((n) => !hidden.has(n));
  const extra = schema.patternProperties === undefined ? schema.additionalProperties : true;
  const extraZod = extra === undefined || extra === true || extra === false ? undefined : zodOf(extra, ctx, depth + 1);
  if (names.length === 0) {
    if (extra === false) return "z.strictObject({})";
    return `z.record(z.string(), ${extraZod ?? "z.unknown()"})`;
  }
  const lines = names.map((name) => {
    const value = Object.hasOwn(properties, name) ? zodOf(properties[name], ctx, depth + 1) : "z.unknown()";
    return `${objectLiteralKey(name)}: ${value}${required.has(name) ? "" : ".optional()"},`;
  });
  const body = `{\n${lines.map(indent).join("\n")}\n}`;
  let out = `z.object(${body})`;
  if (extra === false) out = `z.strictObject(${body})`;
  else if (extra === true) out = `z.looseObject(${body})`;
  else if (extraZod !== undefined) out = `z.object(${body}).catchall(${extraZod})`;
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

/** .refine() calls for the keywords checked on the raw value (see the file comment). */
function rawRules(schema: SchemaObject, ctx: ZodContext, depth: number): string[] {
  const sub = (s: unknown) => zodOf(s as Schema, ctx, depth + 1);
  const rules: string[] = [];
  const object: string[] = [];
  if (isCount(schema.minProperties)) object.push(`minProperties: ${schema.minProperties}`);
  if (isCount(schema.maxProperties)) object.push(`maxProperties: ${schema.maxProperties}`);
  if (schema.propertyNames !== undefined && schema.propertyNames !== true) object.push(`propertyNames: ${sub(schema.propertyNames)}`);
  if (isRecord(schema.dependentRequired)) object.push(`dependentRequired: ${codeJson(schema.dependentRequired)}`);
  if (isRecord(schema.dependentSchemas)) {
    const entries = Object.entries(schema.dependentSchemas).map(([k, s]) => `${codeJson(k)}: ${sub(s)}`);
    object.push(`dependentSchemas: { ${entries.join(", ")} }`);
  }
  if (isRecord(schema.patternProperties)) {
    const patterns = Object.entries(schema.patternProperties)
      .filter(([p]) => patternFlags(p) !== undefined)
      .map(([p, s]) => `[new RegExp(${codeJson(p)}${patternFlags(p) ? `, "${patternFlags(p)}"` : ""}), ${sub(s)}]`);
    object.push(`patterns: [${patterns.join(", ")}]`);
    object.push(`declared: ${codeJson(Object.keys((schema.properties as object | undefined) ?? {}))}`);
    const extra = schema.additionalProperties;
    if (extra === false) object.push("additional: false");
    else if (extra !== undefined && extra !== true) object.push(`additional: ${sub(extra)}`);
  }
  if (object.length > 0) rules.push(`.refine(objectRule({ ${object.join(", ")} }), "object keywords")`);
  const array: string[] = [];
  if (schema.uniqueItems === true) array.push("uniqueItems: true");
  if (schema.contains !== undefined) {
    array.push(`contains: ${sub(schema.contains)}`);
    if (isCount(schema.minContains)) array.push(`minContains: ${schema.minContains}`);
    if (isCount(schema.maxContains)) array.push(`maxContains: ${schema.maxContains}`);
  }
  if (array.length > 0) rules.push(`.refine(arrayRule({ ${array.join(", ")} }), "array keywords")`);
  if (schema.not !== undefined) rules.push(`.refine(notRule(${sub(schema.not)}), "not")`);
  if (schema.if !== undefined && (schema.then !== undefined || schema.else !== undefined)) {
    const args = [sub(schema.if), schema.then === undefined ? "undefined" : sub(schema.then)];
    if (schema.else !== undefined) args.push(sub(schema.else));
    rules.push(`.refine(conditionRule(${args.join(", ")}), "if/then/else")`);
  }
  return rules;
}

function anyOfZod(members: Schema[], ctx: ZodContext, depth: number): string {
  if (members.length === 0) return "z.never()";
  if (members.length === 1) return zodOf(members[0], ctx, depth + 1);
  const nulls = members.filter((m) => isNullOnly(ctx.resolver.resolve(m)));
  if (members.length === 2 && nulls.length === 1) return `${zodOf(members.find((m) => !nulls.includes(m)), ctx, depth + 1)}.nullable()`;
  return `z.union([\n${members.map((m) => indent(zodOf(m, ctx, depth + 1) + ",")).join("\n")}\n])`;
}

/** oneOf: exactly one member matches (z.xor), or z.discriminatedUnion where members cannot overlap. */
function oneOfZod(schema: SchemaObject, members: Schema[], ctx: ZodContext, depth: number): string {
  if (members.length === 0) return "z.never()";
  if (members.length === 1) return zodOf(members[0], ctx, depth + 1);
  const discriminated = discriminatedZod(schema, members, ctx);
  if (discriminated !== undefined) return discriminated;
  return `z.xor([\n${members.map((m) => indent(zodOf(m, ctx, depth + 1) + ",")).join("\n")}\n])`;
}

/**
 * z.discriminatedUnion when every member is a component emitted as a plain z.object that requires the
 * discriminator property with its own distinct literal values: then at most one member can match, so
 * the union is exactly oneOf. (A discriminator mapping is not a validation keyword and adds nothing.)
 */
function discriminatedZod(schema: SchemaObject, members: Schema[], ctx: ZodContext): string | undefined {
  const property = (schema.discriminator as { propertyName?: unknown } | undefined)?.propertyName;
  if (typeof property !== "string" || ctx.coerce) return undefined;
  const seen = new Set<unknown>();
  const names: string[] = [];
  for (const member of members) {
    if (typeof member !== "object" || typeof member.$ref !== "string") return undefined;
    const named = ctx.resolver.component(member.$ref);
    if (named === undefined) return undefined;
    const printed = directedNames(named, ctx.direction);
    if (!printed.zodObject) return undefined;
    const target = ctx.resolver.resolve(named.schema);
    if (typeof target !== "object" || !((target.required as string[] | undefined) ?? []).includes(property)) return undefined;
    const declared = (target.properties as Record<string, Schema> | undefined)?.[property];
    if (ctx.direction !== undefined && hiddenIn(ctx.direction, declared, ctx.resolver)) return undefined;
    const prop = ctx.resolver.resolve(declared);
    const values = typeof prop === "object" && typeof prop.$ref !== "string" ? literalValues(prop) : undefined;
    if (values === undefined || values.length === 0 || !values.every((v) => typeof v === "string")) return undefined;
    for (const v of values) {
      if (seen.has(v)) return undefined;
      seen.add(v);
    }
    names.push(printed.schemaName);
  }
  return `z.discriminatedUnion(${codeJson(property)}, [${names.join(", ")}])`;
}

/** Runtime helpers a piece of generated zod text calls, by module. */
export function runtimeHelpersUsed(text: string): { schema: string[]; formats: string[] } {
  const schema = ["lengthWithin", "isMultipleOf", "isInteger", "objectRule", "arrayRule", "notRule", "conditionRule", "equalsOneOf"].filter((n) =>
    new RegExp(`\\b${n}\\b`).test(text),
  );
  const formats = Object.values(FORMAT_CHECKS).filter((n) => new RegExp(`\\b${n}\\b`).test(text));
  return { schema, formats };
}

function isNullOnly(schema: Schema): boolean {
  return typeof schema === "object" && Object.keys(schema).length === 1 && Array.isArray(schema.type) && schema.type.length === 1 && schema.type[0] === "null";
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
