// generated/operations.ts: the operation table the runtime router serves and the conformance suite
// iterates. One entry per operation, keyed by its identifier name, in document order.
import { propertyKey } from "../model/names.ts";
import type { OperationModel } from "../model/types.ts";
import { codeJson } from "../spec-text.ts";
import { type EmitContext, type EmittedFile, headerStatement, importStatement } from "./context.ts";
import { pageSpecSource } from "./paged-client.ts";
import { printStatements, type Statement } from "./print.ts";
import { indent } from "./ts-type.ts";

export function emitOperations(ctx: EmitContext): EmittedFile {
  const entries = ctx.model.operations.map((op) => `${propertyKey(op.name)}: ${entry(op)},`);
  const table = entries.length === 0 ? "{}" : `{\n${entries.map(indent).join("\n")}\n}`;
  const statements: Statement[] = [
    headerStatement(ctx.headerLines),
    importStatement("./schemas.js", [], { namespace: "S" }),
    {
      kind: "variable",
      structure: {
        isExported: true,
        declarationKind: "const" as never,
        docs: ["Every operation of the spec: what the router serves, the client calls and conformance checks."],
        declarations: [{ name: "operations", initializer: `${table} as const` }],
      },
    },
    { kind: "typeAlias", structure: { name: "OperationName", isExported: true, type: "keyof typeof operations" } },
    {
      kind: "typeAlias",
      structure: { name: "OperationEntry", isExported: true, type: "(typeof operations)[OperationName]" },
    },
    {
      kind: "variable",
      structure: {
        isExported: true,
        declarationKind: "const" as never,
        docs: ["The same entries as a list, in document order."],
        declarations: [
          { name: "operationList", type: "readonly OperationEntry[]", initializer: "Object.values(operations)" },
        ],
      },
    },
  ];
  return { path: "operations.ts", content: printStatements(statements) };
}

function entry(op: OperationModel): string {
  const n = op.names;
  const success = op.success;
  const successKey =
    success === undefined ? undefined : success.code !== undefined ? String(success.code) : codeJson(success.status);
  const fields: [string, string][] = [
    ["operationId", codeJson(op.operationId)],
    ["name", codeJson(op.name)],
    ["method", codeJson(op.method)],
    ["path", codeJson(op.path)],
    ["tag", codeJson(op.tag)],
    ["source", codeJson(op.source ?? "unspecified")],
    ["successStatus", String(op.successStatus)],
    ["declaredStatuses", `[${op.declaredStatuses.join(", ")}]`],
    ["scopes", `[${op.scopes.map((s) => codeJson(s)).join(", ")}]`],
    ["minRole", codeJson(op.minRole)],
    ["idempotent", String(op.idempotent)],
    ["envelope", String(op.envelope)],
    ["paramsSchema", op.params.path.length > 0 ? `S.${n.paramsSchema}` : "undefined"],
    ["querySchema", op.params.query.length > 0 ? `S.${n.querySchema}` : "undefined"],
    ["headersSchema", op.params.header.length > 0 ? `S.${n.headersSchema}` : "undefined"],
    ["bodySchema", op.body ? `S.${n.bodySchema}` : "undefined"],
    ["responseSchema", successKey === undefined ? "undefined" : `S.${n.responseSchemas}[${successKey}]`],
    ["responseSchemas", `S.${n.responseSchemas}`],
    ["pagination", op.pagination ? pageSpecSource(op.pagination) : "undefined"],
  ];
  return `{\n${fields.map(([k, v]) => indent(`${k}: ${v},`)).join("\n")}\n}`;
}
