// generated/schemas.ts: a zod 4 schema per component (dependencies first; cycles as z.lazy with an
// explicit type) and per operation its params/query/headers/body schemas and response schemas.
// Classic zod or zod/mini, as the context's dialect says (zod-dialect.ts).

import { DIRECTIONS } from "../model/directions.ts";
import { objectLiteralKey, propertyKey } from "../model/names.ts";
import type { NamedSchema, OperationModel, ParameterModel, ResponseModel } from "../model/types.ts";
import { codeJson } from "../spec-text.ts";
import {
  dialectOf,
  type EmitContext,
  type EmittedFile,
  headerStatement,
  importStatement,
  zodContext,
} from "./context.ts";
import { printStatements, type Statement } from "./print.ts";
import { indent } from "./ts-type.ts";
import { runtimeHelpersUsed, withOwnProperties, type ZodContext, zodDialectOf, zodSchema } from "./zod-schema.ts";

/** Preprocessing helpers (runtime/http/parameter-input.ts) the parameter schemas call. */
const PARAMETER_HELPERS = ["toArray", "splitCommas", "ownProperties"];

export function emitSchemas(ctx: EmitContext): EmittedFile {
  const plain = zodContext(ctx);
  const body: Statement[] = [];
  for (const named of ctx.model.schemas) {
    body.push(componentSchema(named, named, plain));
    // A variant refers to its dependencies' variants, which come before it as their bases do.
    for (const direction of DIRECTIONS) {
      const variant = named.variants?.[direction];
      if (variant !== undefined) body.push(componentSchema(variant, named, { ...plain, direction }));
    }
  }
  const coerced = new CoercedComponents(plain);
  const operations = ctx.model.operations.flatMap((op) => operationSchemas(op, ctx, coerced));
  body.push(...coerced.statements, ...operations);
  for (const hook of ctx.model.webhooks) {
    if (hook.componentRef === undefined)
      body.push(constant(hook.schemaName, zodSchema(hook.schema, { ...plain, direction: "response" })));
  }

  const zod = importStatement(dialectOf(ctx).module, [], { namespace: "z" });
  const head: Statement[] = [headerStatement(ctx.headerLines), zod];
  if (ctx.model.schemas.some((s) => s.recursive))
    head.push(importStatement("./types.js", [], { typeOnly: true, namespace: "T" }));
  const text = printStatements(body);
  const used = runtimeHelpersUsed(text);
  if (used.schema.length > 0) head.push(importStatement(ctx.runtime("schema/json-schema"), used.schema));
  if (used.formats.length > 0) head.push(importStatement(ctx.runtime("schema/formats"), used.formats));
  // Classic passes a helper as z.preprocess(name, ...), mini as z.transform(name).
  const parameterHelpers = PARAMETER_HELPERS.filter((n) => text.includes(`(${n}, `) || text.includes(`(${n})`));
  if (parameterHelpers.length > 0) head.push(importStatement(ctx.runtime("http/parameter-input"), parameterHelpers));
  return { path: "schemas.ts", content: `${printStatements(head)}\n${text}` };
}

function constant(name: string, initializer: string, type?: string, isExported = true): Statement {
  return {
    kind: "variable",
    structure: { isExported, declarationKind: "const" as never, declarations: [{ name, initializer, type }] },
  };
}

/** The zod const of a component (or of one of its variants: `names`, printed with zctx.direction). */
function componentSchema(
  names: { typeName: string; schemaName: string },
  named: NamedSchema,
  zctx: ZodContext,
): Statement {
  const code = zodSchema(named.schema, zctx);
  if (!named.recursive) return constant(names.schemaName, code);
  // A cycle needs z.lazy, and TypeScript needs the type spelled out to check a self-reference.
  return constant(names.schemaName, `z.lazy(() => ${code})`, zodDialectOf(zctx).schemaType(`T.${names.typeName}`));
}

/**
 * Parameters arrive as text, so their schemas coerce numbers and booleans; a component they refer to
 * gets one coerced const (`FooSchema$text`, or `FooSchema$csv` for comma-separated arrays), emitted
 * once before the operations' schemas however many parameters use it, and only when coercing
 * changes it (else the parameter uses `FooSchema`). So the output stays linear in the document.
 */
class CoercedComponents {
  readonly statements: Statement[] = [];
  readonly #names = new Map<string, string>();

  constructor(private readonly plain: ZodContext) {}

  readonly ref = (named: NamedSchema, zctx: ZodContext): string => {
    const kind = zctx.explode === false ? "csv" : "text";
    const key = `${named.ref}\0${kind}`;
    const known = this.#names.get(key);
    if (known !== undefined) return known;
    const code = zodSchema(named.schema, { ...zctx, coercedRef: this.ref });
    const name = code === zodSchema(named.schema, this.plain) ? named.schemaName : `${named.schemaName}$${kind}`;
    // Dependencies were pushed while printing `code`: they come first.
    if (name !== named.schemaName) this.statements.push(constant(name, code, undefined, false));
    this.#names.set(key, name);
    return name;
  };
}

function parametersSchema(params: ParameterModel[], ctx: EmitContext, coerced: CoercedComponents): string {
  const lines = params.map((p) => {
    const zctx: ZodContext = { ...zodContext(ctx, true), explode: p.explode, coercedRef: coerced.ref };
    const code = zodSchema(p.schema, zctx);
    return `${objectLiteralKey(p.key)}: ${p.required ? code : parameterDefault(p, code, ctx)},`;
  });
  return withOwnProperties(
    params.map((p) => p.key),
    `z.object({\n${lines.map(indent).join("\n")}\n})`,
    dialectOf(ctx),
  );
}

/**
 * An optional parameter's default is applied when the request leaves it out (parameters are only ever
 * requests); a default of the wrong type is left out. Bodies and responses apply none: JSON Schema's
 * default is an annotation, and a response must carry what it requires.
 */
function parameterDefault(p: ParameterModel, code: string, ctx: EmitContext): string {
  const dialect = dialectOf(ctx);
  const schema = p.schema;
  if (typeof schema !== "object" || !Object.hasOwn(schema, "default")) return dialect.optional(code);
  const value = schema.default;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const fits =
    (typeof value === "string" &&
      types.includes("string") &&
      !schema.format &&
      (!Array.isArray(schema.enum) || schema.enum.includes(value))) ||
    (typeof value === "number" &&
      (types.includes("number") || (types.includes("integer") && Number.isInteger(value)))) ||
    (typeof value === "boolean" && types.includes("boolean"));
  return fits ? dialect.withDefault(code, codeJson(value)) : dialect.optional(code);
}

function operationSchemas(op: OperationModel, ctx: EmitContext, coerced: CoercedComponents): Statement[] {
  const n = op.names;
  const plain = zodContext(ctx);
  // No constant for a location without parameters: the router then hands the handler an empty object.
  const out: Statement[] = (
    [
      [n.paramsSchema, op.params.path],
      [n.querySchema, op.params.query],
      [n.headersSchema, op.params.header],
    ] as const
  )
    .filter(([, params]) => params.length > 0)
    .map(([name, params]) => constant(name, parametersSchema(params, ctx, coerced)));
  if (op.body) {
    const code = zodSchema(op.body.schema, { ...plain, direction: "request" });
    out.push(constant(n.bodySchema, op.body.required ? code : dialectOf(ctx).optional(code)));
  }
  out.push(constant(n.responseSchemas, responseRecord(op.responses, { ...plain, direction: "response" })));
  return out;
}

/** Status → schema of what the response carries: `data` for envelopes, else the body. */
function responseRecord(responses: ResponseModel[], zctx: ZodContext): string {
  if (responses.length === 0) return "{}";
  const lines = responses.map((r) => {
    const key = r.code !== undefined ? String(r.code) : propertyKey(r.status);
    const schema = r.schema === undefined ? "z.unknown()" : zodSchema(r.dataSchema ?? r.schema, zctx);
    return `${key}: ${schema},`;
  });
  return `{\n${lines.map(indent).join("\n")}\n}`;
}
