// Resolved schema (generator/model/resolve-schema.ts) → zod 4 expression text. Each JSON Schema
// keyword is expressed exactly: zod primitives where they mean the same, else a .refine() with a
// predicate from runtime/json-schema.ts. Keywords that need the value's own keys or raw items
// (not, if/then/else, patternProperties, uniqueItems, ...) are checked on the raw value before it is
// parsed: `z.unknown().refine(rule).pipe(schema)`. Defaults are annotations and are not applied.
// The text is classic zod or zod/mini as the context's dialect spells it (zod-dialect.ts).
import { directedNames, hiddenIn, hiddenProperties } from "../model/directions.ts";
import { isPrototypeMember, objectLiteralKey } from "../model/names.ts";
import { patternFlags } from "../model/resolve-schema.ts";
import { type Branch, branchesOf, jsonTypeText, literalValues } from "../model/schema-shape.ts";
import type { Direction, NamedSchema, ResolvedSchemas, Schema, SchemaObject } from "../model/types.ts";
import { codeJson } from "../spec-text.ts";
import { indent } from "./ts-type.ts";
import { type ZodCheck, type ZodDialect, zodDialect } from "./zod-dialect.ts";

export interface ZodContext {
  document: unknown;
  components: ReadonlyMap<string, NamedSchema>;
  resolver: ResolvedSchemas;
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
  /** How the text spells wrappers and checks (default: classic zod). */
  dialect?: ZodDialect;
}

const CLASSIC = zodDialect("classic");

/** The dialect the text is spelled in (classic unless the context names one). */
export function zodDialectOf(ctx: ZodContext): ZodDialect {
  return ctx.dialect ?? CLASSIC;
}

const MAX_INLINE_DEPTH = 64;

/** Formats asserted, with their predicate in runtime/schema/formats.ts; others are annotations. */
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
  if (rules.length > 0) out = zodDialectOf(ctx).pipe(zodDialectOf(ctx).checked("z.unknown()", rules), out);
  return out;
}

/** enum/const, then the per-type branches (string, number, ..., object) of what `type` allows. */
function baseZod(schema: SchemaObject, ctx: ZodContext, depth: number): string | undefined {
  const literals = literalValues(schema);
  const all = branchesOf(schema);
  const others = all.filter((b) => b !== "null").map((b) => branchZod(b, schema, ctx, depth));
  let typed = others.length === 0 ? undefined : others.length === 1 ? others[0] : `z.union([${others.join(", ")}])`;
  if (all.includes("null")) typed = typed === undefined ? "z.null()" : zodDialectOf(ctx).nullable(typed);
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
  if (unique.length > 1 && unique.every((v) => typeof v === "string"))
    literal = `z.enum([${unique.map((v) => codeJson(v)).join(", ")}])`;
  else
    literal =
      unique.length === 1
        ? `z.literal(${codeJson(unique[0])})`
        : `z.literal([${unique.map((v) => codeJson(v)).join(", ")}])`;
  // Strings from a URL must become numbers/booleans before the literal check.
  const dialect = zodDialectOf(ctx);
  if (ctx.coerce && unique.every((v) => typeof v === "number")) return dialect.pipe("z.coerce.number()", literal);
  if (ctx.coerce && unique.every((v) => typeof v === "boolean")) return dialect.pipe("z.stringbool()", literal);
  return literal;
}

function branchZod(branch: Branch, schema: SchemaObject, ctx: ZodContext, depth: number): string {
  switch (branch) {
    case "string":
      return stringZod(schema, ctx);
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

function stringZod(schema: SchemaObject, ctx: ZodContext): string {
  const checks: ZodCheck[] = [];
  const min = isCount(schema.minLength) ? schema.minLength : 0;
  const max = isCount(schema.maxLength) ? schema.maxLength : undefined;
  // JSON Schema counts code points; zod's .min/.max count UTF-16 units.
  if (min > 0 || max !== undefined) {
    checks.push({ kind: "refine", args: `(s) => lengthWithin(s, ${min}, ${max ?? "Infinity"}), "length"` });
  }
  if (typeof schema.pattern === "string") {
    const flags = patternFlags(schema.pattern) ?? "";
    checks.push({ kind: "regex", args: `new RegExp(${codeJson(schema.pattern)}${flags ? `, "${flags}"` : ""})` });
  }
  const check = typeof schema.format === "string" ? FORMAT_CHECKS[schema.format] : undefined;
  if (check !== undefined) checks.push({ kind: "refine", args: `${check}, ${codeJson(`format ${schema.format}`)}` });
  return zodDialectOf(ctx).checked("z.string()", checks);
}

function numberZod(schema: SchemaObject, integer: boolean, ctx: ZodContext): string {
  const checks: ZodCheck[] = [];
  // JSON Schema's integer is any whole number, beyond 2^53 too (zod's .int() stops there).
  if (integer) checks.push({ kind: "refine", args: `isInteger, "integer"` });
  if (typeof schema.minimum === "number") checks.push({ kind: "gte", args: `${schema.minimum}` });
  if (typeof schema.exclusiveMinimum === "number") checks.push({ kind: "gt", args: `${schema.exclusiveMinimum}` });
  if (typeof schema.maximum === "number") checks.push({ kind: "lte", args: `${schema.maximum}` });
  if (typeof schema.exclusiveMaximum === "number") checks.push({ kind: "lt", args: `${schema.exclusiveMaximum}` });
  if (typeof schema.multipleOf === "number" && schema.multipleOf > 0) {
    checks.push({ kind: "refine", args: `(n) => isMultipleOf(n, ${schema.multipleOf}), "multipleOf"` });
  }
  return zodDialectOf(ctx).checked(ctx.coerce ? "z.coerce.number()" : "z.number()", checks);
}

function arrayZod(schema: SchemaObject, ctx: ZodContext, depth: number): string {
  const dialect = zodDialectOf(ctx);
  let out: string;
  const min = isCount(schema.minItems) ? schema.minItems : 0;
  const max = isCount(schema.maxItems) ? schema.maxItems : undefined;
  if (Array.isArray(schema.prefixItems)) {
    // prefixItems constrain the items that are there; shorter arrays are valid.
    const items = schema.prefixItems.map((p) => dialect.optional(zodOf(p, ctx, depth + 1)));
    const rest = schema.items === false ? "" : `, ${zodOf(schema.items, ctx, depth + 1)}`;
    const checks: ZodCheck[] = [];
    if (min > 0) checks.push({ kind: "refine", args: `(a) => a.length >= ${min}, "minItems"` });
    if (max !== undefined) checks.push({ kind: "refine", args: `(a) => a.length <= ${max}, "maxItems"` });
    out = dialect.checked(`z.tuple([${items.join(", ")}]${rest})`, checks);
  } else {
    const checks: ZodCheck[] = [];
    if (min > 0) checks.push({ kind: "minLength", args: `${min}` });
    if (max !== undefined) checks.push({ kind: "maxLength", args: `${max}` });
    out = dialect.checked(`z.array(${zodOf(schema.items, ctx, depth + 1)})`, checks);
  }
  // A query value arrives once as a string, or repeated as an array.
  return ctx.coerce ? dialect.preprocess(ctx.explode === false ? "splitCommas" : "toArray", out) : out;
}

/** z.object / z.strictObject / z.looseObject / .catchall / z.record from the object keywords. */
function objectZod(schema: SchemaObject, ctx: ZodContext, depth: number): string {
  const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const hidden = hiddenProperties(ctx.direction, schema, ctx.resolver);
  // `required` may name keys `properties` does not declare: they must be present, with any value.
  const names = [...Object.keys(properties), ...[...required].filter((n) => !Object.hasOwn(properties, n))].filter(
    (n) => !hidden.has(n),
  );
  const extra = schema.patternProperties === undefined ? schema.additionalProperties : true;
  const extraZod = extra === undefined || extra === true || extra === false ? undefined : zodOf(extra, ctx, depth + 1);
  if (names.length === 0) {
    if (extra === false) return "z.strictObject({})";
    return `z.record(z.string(), ${extraZod ?? "z.unknown()"})`;
  }
  const lines = names.map((name) => {
    const value = Object.hasOwn(properties, name) ? zodOf(properties[name], ctx, depth + 1) : "z.unknown()";
    return `${objectLiteralKey(name)}: ${required.has(name) ? value : zodDialectOf(ctx).optional(value)},`;
  });
  const body = `{\n${lines.map(indent).join("\n")}\n}`;
  let out = `z.object(${body})`;
  if (extra === false) out = `z.strictObject(${body})`;
  else if (extra === true) out = `z.looseObject(${body})`;
  else if (extraZod !== undefined) out = zodDialectOf(ctx).catchall(`z.object(${body})`, extraZod);
  return withOwnProperties(names, out, zodDialectOf(ctx));
}

/**
 * An object schema with a key named like an Object.prototype member (constructor, toString...) reads
 * the input through `ownProperties`, a copy without prototype, so an absent key is absent rather than
 * the inherited function (see isPrototypeMember).
 */
export function withOwnProperties(keys: readonly string[], objectCode: string, dialect: ZodDialect = CLASSIC): string {
  return keys.some(isPrototypeMember) ? dialect.preprocess("ownProperties", objectCode) : objectCode;
}

/** Refinements for the keywords checked on the raw value (see the file comment). */
function rawRules(schema: SchemaObject, ctx: ZodContext, depth: number): ZodCheck[] {
  const sub = (s: unknown) => zodOf(s as Schema, ctx, depth + 1);
  const rules: ZodCheck[] = [];
  const object: string[] = [];
  if (isCount(schema.minProperties)) object.push(`minProperties: ${schema.minProperties}`);
  if (isCount(schema.maxProperties)) object.push(`maxProperties: ${schema.maxProperties}`);
  if (schema.propertyNames !== undefined && schema.propertyNames !== true)
    object.push(`propertyNames: ${sub(schema.propertyNames)}`);
  if (isRecord(schema.dependentRequired)) object.push(`dependentRequired: ${codeJson(schema.dependentRequired)}`);
  if (isRecord(schema.dependentSchemas)) {
    const entries = Object.entries(schema.dependentSchemas).map(([k, s]) => `${codeJson(k)}: ${sub(s)}`);
    object.push(`dependentSchemas: { ${entries.join(", ")} }`);
  }
  if (isRecord(schema.patternProperties) || closedBesideComposition(schema)) {
    const patterns = Object.entries(schema.patternProperties ?? {})
      .filter(([p]) => patternFlags(p) !== undefined)
      .map(([p, s]) => `[new RegExp(${codeJson(p)}${patternFlags(p) ? `, "${patternFlags(p)}"` : ""}), ${sub(s)}]`);
    object.push(`patterns: [${patterns.join(", ")}]`);
    object.push(`declared: ${codeJson(Object.keys((schema.properties as object | undefined) ?? {}))}`);
    const extra = schema.additionalProperties;
    if (extra === false) object.push("additional: false");
    else if (extra !== undefined && extra !== true) object.push(`additional: ${sub(extra)}`);
  }
  if (object.length > 0)
    rules.push({ kind: "refine", args: `objectRule({ ${object.join(", ")} }), "object keywords"` });
  for (const declared of closedAllOfMembers(schema, ctx)) {
    const rule = `objectRule({ patterns: [], declared: ${codeJson(declared)}, additional: false })`;
    rules.push({ kind: "refine", args: `${rule}, "closed allOf member"` });
  }
  const array: string[] = [];
  if (schema.uniqueItems === true) array.push("uniqueItems: true");
  if (schema.contains !== undefined) {
    array.push(`contains: ${sub(schema.contains)}`);
    if (isCount(schema.minContains)) array.push(`minContains: ${schema.minContains}`);
    if (isCount(schema.maxContains)) array.push(`maxContains: ${schema.maxContains}`);
  }
  if (array.length > 0) rules.push({ kind: "refine", args: `arrayRule({ ${array.join(", ")} }), "array keywords"` });
  if (schema.not !== undefined) rules.push({ kind: "refine", args: `notRule(${sub(schema.not)}), "not"` });
  if (schema.if !== undefined && (schema.then !== undefined || schema.else !== undefined)) {
    const args = [sub(schema.if), schema.then === undefined ? "undefined" : sub(schema.then)];
    if (schema.else !== undefined) args.push(sub(schema.else));
    rules.push({ kind: "refine", args: `conditionRule(${args.join(", ")}), "if/then/else"` });
  }
  return rules;
}

/**
 * A closed object (`additionalProperties: false`) that is intersected with allOf/anyOf/oneOf members.
 * zod's intersection refuses a key only when both sides refuse it, so the strictObject alone would
 * let through any key a member accepts (a z.object member accepts every key), where JSON Schema
 * refuses every key `properties` does not declare: the keys are checked on the raw value as well.
 */
function closedBesideComposition(schema: SchemaObject): boolean {
  return (
    schema.additionalProperties === false &&
    ["allOf", "anyOf", "oneOf"].some((k) => Array.isArray(schema[k]) && (schema[k] as unknown[]).length > 0)
  );
}

/**
 * The same forgiveness from the other side: an allOf member the model could not merge (a recursive
 * $ref) that is a plain closed object is printed as a strictObject inside the intersection, so its
 * keys are checked on the raw value too. The declared properties of each such member.
 */
function closedAllOfMembers(schema: SchemaObject, ctx: ZodContext): string[][] {
  const out: string[][] = [];
  // A closed composite is closed over its members (resolve-schema.ts, closedOverRecursive): its own check holds.
  if (schema.additionalProperties === false) return out;
  for (const member of (schema.allOf as Schema[] | undefined) ?? []) {
    let target = ctx.resolver.resolve(member);
    if (typeof target === "object" && typeof target.$ref === "string") {
      const named = ctx.resolver.component(target.$ref);
      target = named === undefined ? true : ctx.resolver.resolve(named.schema);
    }
    if (typeof target !== "object" || target.additionalProperties !== false) continue;
    // Those carry their own raw-value check (rawRules on the member).
    if (isRecord(target.patternProperties) || closedBesideComposition(target)) continue;
    out.push(Object.keys((target.properties as object | undefined) ?? {}));
  }
  return out;
}

function anyOfZod(members: Schema[], ctx: ZodContext, depth: number): string {
  if (members.length === 0) return "z.never()";
  if (members.length === 1) return zodOf(members[0], ctx, depth + 1);
  const nulls = members.filter((m) => isNullOnly(ctx.resolver.resolve(m)));
  if (members.length === 2 && nulls.length === 1) {
    return zodDialectOf(ctx).nullable(
      zodOf(
        members.find((m) => !nulls.includes(m)),
        ctx,
        depth + 1,
      ),
    );
  }
  return `z.union([\n${members.map((m) => indent(`${zodOf(m, ctx, depth + 1)},`)).join("\n")}\n])`;
}

/** oneOf: exactly one member matches (z.xor), or z.discriminatedUnion where members cannot overlap. */
function oneOfZod(schema: SchemaObject, members: Schema[], ctx: ZodContext, depth: number): string {
  if (members.length === 0) return "z.never()";
  if (members.length === 1) return zodOf(members[0], ctx, depth + 1);
  const discriminated = discriminatedZod(schema, members, ctx);
  if (discriminated !== undefined) return discriminated;
  return `z.xor([\n${members.map((m) => indent(`${zodOf(m, ctx, depth + 1)},`)).join("\n")}\n])`;
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
    if (typeof target !== "object" || !((target.required as string[] | undefined) ?? []).includes(property))
      return undefined;
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
  const schema = [
    "lengthWithin",
    "isMultipleOf",
    "isInteger",
    "objectRule",
    "arrayRule",
    "notRule",
    "conditionRule",
    "equalsOneOf",
  ].filter((n) => new RegExp(`\\b${n}\\b`).test(text));
  const formats = Object.values(FORMAT_CHECKS).filter((n) => new RegExp(`\\b${n}\\b`).test(text));
  return { schema, formats };
}

function isNullOnly(schema: Schema): boolean {
  return (
    typeof schema === "object" &&
    Object.keys(schema).length === 1 &&
    Array.isArray(schema.type) &&
    schema.type.length === 1 &&
    schema.type[0] === "null"
  );
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
