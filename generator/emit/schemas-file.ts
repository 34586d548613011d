// generated/schemas.ts: a zod 4 schema per component (dependencies first; cycles as z.lazy with an
// explicit type) and per operation its params/query/headers/body schemas and response schemas.
import { objectLiteralKey, propertyKey } from "../model/names.ts";
import type { NamedSchema, OperationModel, ParameterModel, ResponseModel } from "../model/types.ts";
import { headerStatement, importStatement, zodContext, type EmitContext, type EmittedFile } from "./context.ts";
import { printStatements, type Statement } from "./print.ts";
import { indent } from "./ts-type.ts";
import { emitsDefault, withOwnProperties, zodSchema, type ZodContext } from "./zod-schema.ts";

const HELPERS: Record<string, string> = {
  toArray: [
    "/** A query value arrives once as a string, or repeated as an array. */",
    "function toArray(value: unknown): unknown {",
    "  return value === undefined || Array.isArray(value) ? value : [value];",
    "}",
  ].join("\n"),
  splitCommas: [
    "/** A non-exploded query array: one comma-separated value. */",
    "function splitCommas(value: unknown): unknown {",
    '  return typeof value === "string" ? (value === "" ? [] : value.split(",")) : value;',
    "}",
  ].join("\n"),  ownProperties: [
    "/** The input without its prototype: a key named constructor or toString is then absent unless sent. */",
    "function ownProperties(value: unknown): unknown {",
    '  return value !== null && typeof value === "object" && !Array.isArray(value) ? Object.assign(Object.create(null), value) : value;',
    "}",
  ].join("\n"),
};

export function emitSchemas(ctx: EmitContext): EmittedFile {
  const plain = zodContext(ctx);
  const body: Statement[] = [];
  for (const named of ctx.model.schemas) body.push(componentSchema(named, plain));
  for (const op of ctx.model.operations) body.push(...operationSchemas(op, ctx));
  for (const hook of ctx.model.webhooks) {
    if (hook.componentRef === undefined) body.push(constant(hook.schemaName, zodSchema(hook.schema, plain)));
  }

  const head: Statement[] = [headerStatement(ctx.headerLines), importStatement("zod", [], { namespace: "z" })];
  if (ctx.model.schemas.some((s) => s.recursive)) head.push(importStatement("./types.js", [], { typeOnly: true, namespace: "T" }));
  const text = printStatements(body);
  for (const [name, code] of Object.entries(HELPERS)) {
    if (text.includes(`(${name}, `)) head.push({ kind: "text", text: code });
  }
  return { path: "schemas.ts", content: `${printStatements(head)}\n${text}` };
}

function constant(name: string, initializer: string, type?: string): Statement {
  return { kind: "variable", structure: { isExported: true, declarationKind: "const" as never, declarations: [{ name, initializer, type }] } };
}

function componentSchema(named: NamedSchema, zctx: ZodContext): Statement {
  const code = zodSchema(named.schema, zctx);
  if (!named.recursive) return constant(named.schemaName, code);
  // A cycle needs z.lazy, and TypeScript needs the type spelled out to check a self-reference.
  return constant(named.schemaName, `z.lazy(() => ${code})`, `z.ZodType<T.${named.typeName}>`);
}

function parametersSchema(params: ParameterModel[], ctx: EmitContext): string {
  if (params.length === 0) return "z.object({})";
  const lines = params.map((p) => {
    const zctx: ZodContext = { ...zodContext(ctx, true), explode: p.explode };
    const code = zodSchema(p.schema, zctx);
    const optional = !p.required && !emitsDefault(p.schema, ctx.model.document);
    return `${objectLiteralKey(p.key)}: ${code}${optional ? ".optional()" : ""},`;
  });
  return withOwnProperties(params.map((p) => p.key), `z.object({\n${lines.map(indent).join("\n")}\n})`);
}

function operationSchemas(op: OperationModel, ctx: EmitContext): Statement[] {
  const n = op.names;
  const plain = zodContext(ctx);
  const out: Statement[] = [
    constant(n.paramsSchema, parametersSchema(op.params.path, ctx)),
    constant(n.querySchema, parametersSchema(op.params.query, ctx)),
    constant(n.headersSchema, parametersSchema(op.params.header, ctx)),
  ];
  if (op.body) {
    const code = zodSchema(op.body.schema, plain);
    out.push(constant(n.bodySchema, op.body.required ? code : `${code}.optional()`));
  }
  out.push(constant(n.responseSchemas, responseRecord(op.responses, plain)));
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
