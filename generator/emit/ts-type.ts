// Resolved schema (generator/model/resolve-schema.ts) → TypeScript type text, branch by branch as
// the zod emitter prints it (generator/model/schema-shape.ts), so z.infer of a generated schema and its
// type are the same type. Named components become references; everything else is written inline.
import { directedNames, hiddenProperties } from "../model/directions.ts";
import { propertyKey } from "../model/names.ts";
import { type Branch, branchesOf, jsonTypeText, literalValues } from "../model/schema-shape.ts";
import type { Direction, NamedSchema, ResolvedSchemas, Schema, SchemaObject } from "../model/types.ts";
import { codeJson, commentText } from "../spec-text.ts";

export interface TypeContext {
  document: unknown;
  components: ReadonlyMap<string, NamedSchema>;
  resolver: ResolvedSchemas;
  /** Prefix for component names (e.g. "T." outside types.ts). */
  prefix?: string;
  /** Who sends the value: hidden properties are left out and $refs name the direction's variants. */
  direction?: Direction;
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

function typeOf(input: Schema | undefined, ctx: TypeContext, depth: number): TypeText {
  const schema = ctx.resolver.resolve(input);
  if (schema === true) return atom("unknown");
  if (schema === false) return atom("never");
  if (depth > MAX_INLINE_DEPTH) return atom("unknown");
  if (typeof schema.$ref === "string") {
    const named = ctx.resolver.component(schema.$ref);
    return named
      ? atom((ctx.prefix ?? "") + directedNames(named, ctx.direction).typeName)
      : typeOf(undefined, ctx, depth + 1);
  }
  const parts: TypeText[] = [];
  const base = baseType(schema, ctx, depth);
  if (base !== undefined) parts.push(base);
  for (const member of (schema.allOf as Schema[] | undefined) ?? []) parts.push(typeOf(member, ctx, depth + 1));
  for (const key of ["anyOf", "oneOf"]) {
    const members = schema[key];
    if (Array.isArray(members))
      parts.push(members.length === 0 ? atom("never") : union(members.map((m) => typeOf(m as Schema, ctx, depth + 1))));
  }
  if (parts.length === 0) return atom("unknown");
  return parts.length === 1 ? parts[0] : intersection(parts);
}

/** enum/const literals, then the union of the per-type branches (as the zod emitter prints them). */
function baseType(schema: SchemaObject, ctx: TypeContext, depth: number): TypeText | undefined {
  const branches = branchesOf(schema);
  const typed = branches.length === 0 ? undefined : union(branches.map((b) => branchType(b, schema, ctx, depth)));
  const literals = literalValues(schema);
  if (literals === undefined) return typed;
  const literal =
    literals.length === 0
      ? atom("never")
      : union(literals.map((v) => (v !== null && typeof v === "object" ? atom(jsonTypeText(v)) : atom(codeJson(v)))));
  return typed === undefined || branchesOf(schema, true).length === 0 ? literal : intersection([literal, typed]);
}

function branchType(branch: Branch, schema: SchemaObject, ctx: TypeContext, depth: number): TypeText {
  switch (branch) {
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
  }
}

function arrayType(schema: SchemaObject, ctx: TypeContext, depth: number): TypeText {
  if (Array.isArray(schema.prefixItems)) {
    const items = schema.prefixItems.map((p) => `${typeOf(p as Schema, ctx, depth + 1).text}?`);
    if (schema.items !== false) {
      const rest = typeOf(schema.items as Schema | undefined, ctx, depth + 1);
      items.push(`...${rest.prec < 2 ? `(${rest.text})` : rest.text}[]`);
    }
    return atom(`[${items.join(", ")}]`);
  }
  const item = typeOf(schema.items as Schema | undefined, ctx, depth + 1);
  return atom(item.prec < 2 ? `(${item.text})[]` : `${item.text}[]`);
}

function objectType(schema: SchemaObject, ctx: TypeContext, depth: number): TypeText {
  const { properties, index } = objectShape(schema, ctx, depth);
  if (properties.length === 0) return atom(`{ [key: string]: ${index ?? "never"} }`);
  const lines: string[] = [];
  for (const p of properties) {
    if (p.docs !== undefined) lines.push(...commentLines(p.docs));
    lines.push(`${p.key}${p.optional ? "?" : ""}: ${p.type};`);
  }
  const body = atom(`{\n${lines.map((l) => indent(l)).join("\n")}\n}`);
  if (index === undefined || index === "unknown") {
    if (index === "unknown")
      return atom(`{\n${[...lines, "[key: string]: unknown;"].map((l) => indent(l)).join("\n")}\n}`);
    return body;
  }
  // Declared properties beside a typed index: what zod's .catchall() infers.
  return intersection([body, atom(`{ [key: string]: ${index} }`)]);
}

export interface PropertyText {
  /** Key as written (quoted when not an identifier). */
  key: string;
  type: string;
  optional: boolean;
  docs?: string;
}

/**
 * Properties (with required names that `properties` does not declare, typed unknown) and the index
 * signature: none for a closed object or a plain one (zod strips undeclared keys), `unknown` for an
 * open one (additionalProperties true, patternProperties), else the additionalProperties type.
 */
export function objectShape(
  input: SchemaObject,
  ctx: TypeContext,
  depth = 0,
): { properties: PropertyText[]; index?: string } {
  const resolved = ctx.resolver.resolve(input);
  const schema = typeof resolved === "object" ? resolved : {};
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const props = (schema.properties as Record<string, Schema> | undefined) ?? {};
  const hidden = hiddenProperties(ctx.direction, schema, ctx.resolver);
  const names = [...Object.keys(props), ...[...required].filter((n) => !Object.hasOwn(props, n))].filter(
    (n) => !hidden.has(n),
  );
  const properties = names.map((name) => ({
    key: propertyKey(name),
    type: Object.hasOwn(props, name) ? typeOf(props[name], ctx, depth + 1).text : "unknown",
    optional: !required.has(name),
    docs: docText(props[name]),
  }));
  const extra = schema.patternProperties === undefined ? schema.additionalProperties : true;
  let index: string | undefined;
  if (extra === true) index = "unknown";
  else if (extra === undefined) index = properties.length === 0 ? "unknown" : undefined;
  else if (extra !== false) index = typeOf(extra as Schema, ctx, depth + 1).text;
  return { properties, index };
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

/** JSDoc lines for a text. */
export function commentLines(text: string): string[] {
  const lines = commentText(text).split("\n");
  if (lines.length === 1) return [`/** ${lines[0]} */`];
  return ["/**", ...lines.map((l) => (l.trim() === "" ? " *" : ` * ${l.trimEnd()}`)), " */"];
}

export function docText(schema: Schema | undefined): string | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const parts: string[] = [];
  if (typeof schema.description === "string" && schema.description.trim() !== "") parts.push(schema.description.trim());
  if (schema.deprecated === true) parts.push("@deprecated");
  if (parts.length === 0) return undefined;
  return parts.join("\n");
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
  return `  ${text.replace(/\n/g, "\n  ")}`;
}
