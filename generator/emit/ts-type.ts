// Schema → TypeScript type text, one small function per kind of schema node (the shape of
// openapi-typescript's transforms, producing text instead of AST nodes). Named components become
// references; everything else is written inline.
import { propertyKey } from "../model/names.ts";
import { canonicalComponentRef, derefSchema, typeInfo } from "../model/schema-utils.ts";
import type { NamedSchema, Schema, SchemaObject } from "../model/types.ts";

export interface TypeContext {
  document: unknown;
  components: ReadonlyMap<string, NamedSchema>;
  /** Prefix for component names (e.g. "T." outside types.ts). */
  prefix?: string;
}

/** Type text plus its precedence, so composites know when to parenthesize. */
interface TypeText {
  text: string;
  /** 0: union, 1: intersection, 2: atom. */
  prec: 0 | 1 | 2;
}

const atom = (text: string): TypeText => ({ text, prec: 2 });
const MAX_INLINE_DEPTH = 64;

export function tsType(schema: Schema | undefined, ctx: TypeContext): string {
  return typeOf(schema, ctx, 0).text;
}

function typeOf(schema: Schema | undefined, ctx: TypeContext, depth: number): TypeText {
  if (schema === undefined || schema === true) return atom("unknown");
  if (schema === false) return atom("never");
  if (depth > MAX_INLINE_DEPTH) return atom("unknown");
  if (typeof schema.$ref === "string") return refType(schema as SchemaObject & { $ref: string }, ctx, depth);
  const { nullable } = typeInfo(schema);
  const base = nonNullType(schema, ctx, depth);
  return nullable && base.text !== "null" && base.text !== "unknown" ? union([base, atom("null")]) : base;
}

function refType(schema: SchemaObject & { $ref: string }, ctx: TypeContext, depth: number): TypeText {
  const canonical = canonicalComponentRef(schema.$ref);
  const named = canonical === undefined ? undefined : ctx.components.get(canonical);
  const base = named ? atom((ctx.prefix ?? "") + named.typeName) : typeOf(derefSchema(ctx.document, schema), ctx, depth + 1);
  // 3.0 ignores siblings of $ref; 3.1 allows `nullable`-like siblings only through type arrays.
  return schema.nullable === true ? union([base, atom("null")]) : base;
}

function nonNullType(schema: SchemaObject, ctx: TypeContext, depth: number): TypeText {
  if (schema.const !== undefined) return literalType(schema.const);
  if (Array.isArray(schema.enum)) return enumType(schema.enum);
  const parts: TypeText[] = [];
  if (schema.allOf) parts.push(intersection(schema.allOf.map((s) => typeOf(s, ctx, depth + 1))));
  if (schema.oneOf) parts.push(union(schema.oneOf.map((s) => typeOf(s, ctx, depth + 1))));
  if (schema.anyOf) parts.push(union(schema.anyOf.map((s) => typeOf(s, ctx, depth + 1))));
  const own = ownType(schema, ctx, depth, parts.length > 0);
  if (own !== undefined) parts.unshift(own);
  if (parts.length === 0) return atom("unknown");
  return parts.length === 1 ? parts[0] : intersection(parts);
}

/** The type from `type`/`properties`/`items`; undefined when the node only composes others. */
function ownType(schema: SchemaObject, ctx: TypeContext, depth: number, composed: boolean): TypeText | undefined {
  const { types } = typeInfo(schema);
  const hasShape = schema.properties !== undefined || schema.additionalProperties !== undefined;
  if (types.length === 0) {
    if (hasShape) return objectType(schema, ctx, depth);
    if (schema.items !== undefined) return arrayType(schema, ctx, depth);
    return composed ? undefined : atom("unknown");
  }
  const each = types.map((t) => typeForName(t, schema, ctx, depth));
  return each.length === 1 ? each[0] : union(each);
}

function typeForName(type: string, schema: SchemaObject, ctx: TypeContext, depth: number): TypeText {
  switch (type) {
    case "string":
      return atom("string");
    case "integer":
    case "number":
      return atom("number");
    case "boolean":
      return atom("boolean");
    case "null":
      return atom("null");
    case "array":
      return arrayType(schema, ctx, depth);
    case "object":
      return objectType(schema, ctx, depth);
    default:
      return atom("unknown");
  }
}

function literalType(value: unknown): TypeText {
  if (value === null) return atom("null");
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return atom(JSON.stringify(value));
  return atom("unknown");
}

function enumType(values: unknown[]): TypeText {
  const members = [...new Set(values.filter((v) => v !== null).map((v) => literalType(v).text))];
  if (members.length === 0) return atom("never");
  return members.length === 1 ? atom(members[0]) : { text: members.join(" | "), prec: 0 };
}

function arrayType(schema: SchemaObject, ctx: TypeContext, depth: number): TypeText {
  const item = typeOf(schema.items, ctx, depth + 1);
  return atom(item.prec < 2 ? `(${item.text})[]` : `${item.text}[]`);
}

function objectType(schema: SchemaObject, ctx: TypeContext, depth: number): TypeText {
  const lines = objectMembers(schema, ctx, depth);
  if (lines.length === 0) return atom("{}");
  return atom(`{\n${lines.map((l) => indent(l)).join("\n")}\n}`);
}

export interface PropertyText {
  /** Key as written (quoted when not an identifier). */
  key: string;
  type: string;
  optional: boolean;
  docs?: string;
}

/** Properties and index signature of an object shape (interfaces print these as structures). */
export function objectShape(schema: SchemaObject, ctx: TypeContext, depth = 0): { properties: PropertyText[]; index?: string } {
  const required = new Set(schema.required ?? []);
  const props = schema.properties ?? {};
  const properties = Object.keys(props).map((name) => ({
    key: propertyKey(name),
    type: typeOf(props[name], ctx, depth + 1).text,
    optional: !required.has(name),
    docs: docText(props[name]),
  }));
  return { properties, index: indexSignature(schema, ctx, depth, properties.length > 0) };
}

/** Member lines of an inline object type. */
export function objectMembers(schema: SchemaObject, ctx: TypeContext, depth = 0): string[] {
  const { properties, index } = objectShape(schema, ctx, depth);
  const lines: string[] = [];
  for (const p of properties) {
    if (p.docs !== undefined) lines.push(...commentLines(p.docs));
    lines.push(`${p.key}${p.optional ? "?" : ""}: ${p.type};`);
  }
  if (index !== undefined) lines.push(`[key: string]: ${index};`);
  return lines;
}

/**
 * additionalProperties as an index signature. With declared properties next to a schema, the
 * signature is `unknown`: TypeScript requires every property to fit the index type.
 */
function indexSignature(schema: SchemaObject, ctx: TypeContext, depth: number, hasProps: boolean): string | undefined {
  const extra = schema.additionalProperties;
  if (extra === false) return undefined;
  if (extra === undefined) return hasProps ? undefined : "unknown";
  if (extra === true || hasProps) return "unknown";
  return typeOf(extra, ctx, depth + 1).text;
}

/** JSDoc lines for a text. */
export function commentLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.length === 1) return [`/** ${lines[0]} */`];
  return ["/**", ...lines.map((l) => (l.trim() === "" ? " *" : ` * ${l.trimEnd()}`)), " */"];
}

export function docText(schema: Schema | undefined): string | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const parts: string[] = [];
  if (typeof schema.description === "string" && schema.description.trim() !== "") parts.push(schema.description.trim());
  if (schema.deprecated === true) parts.push("@deprecated");
  if (parts.length === 0) return undefined;
  return parts.join("\n").replace(/\*\//g, "*\\/").replace(/\r\n?/g, "\n");
}

function union(parts: TypeText[]): TypeText {
  const unique = [...new Map(parts.map((p) => [p.text, p])).values()];
  if (unique.length === 1) return unique[0];
  return { text: unique.map((p) => p.text).join(" | "), prec: 0 };
}

function intersection(parts: TypeText[]): TypeText {
  const unique = [...new Map(parts.map((p) => [p.text, p])).values()];
  if (unique.length === 1) return unique[0];
  return { text: unique.map((p) => (p.prec < 1 ? `(${p.text})` : p.text)).join(" & "), prec: 1 };
}

export function indent(text: string): string {
  return "  " + text.replace(/\n/g, "\n  ");
}
