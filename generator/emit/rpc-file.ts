// generated/rpc.ts: types and zod schemas of the OpenRPC methods (by-position params as tuples),
// and createRpcClient with one typed method per JSON-RPC method, over HTTP and WebSocket
// (runtime/jsonrpc/client.ts; the API key by query or header).
import type { RpcMethodModel, RpcModel } from "../model/types.ts";
import { codeJson } from "../spec-text.ts";
import { dialectOf, type EmitContext, type EmittedFile, headerStatement, importStatement } from "./context.ts";
import { printStatements, type Statement } from "./print.ts";
import { docText, indent, type TypeContext, tsType } from "./ts-type.ts";
import { schemaTypeDeclaration } from "./types-file.ts";
import { runtimeHelpersUsed, type ZodContext, zodDialectOf, zodSchema } from "./zod-schema.ts";

const CLIENT = `export type RpcClientOptions = TypedRpcClientOptions;

export interface RpcClient extends TypedRpcClient<RpcMethods> {}

export function createRpcClient(options: RpcClientOptions): RpcClient {
  return createTypedRpcClient(options, rpcMethodsOver);
}`;

export function emitRpc(ctx: EmitContext): EmittedFile | undefined {
  const rpc = ctx.model.rpc;
  if (rpc === undefined) return undefined;
  const tctx: TypeContext = {
    document: rpc.document,
    components: new Map(rpc.schemas.map((s) => [s.ref, s])),
    resolver: rpc.resolver,
  };
  const dialect = dialectOf(ctx);
  const zctx: ZodContext = {
    document: rpc.document,
    components: tctx.components,
    resolver: rpc.resolver,
    version: "3.1",
  };
  zctx.dialect = dialect;
  const statements: Statement[] = [
    headerStatement(ctx.rpcHeaderLines ?? ctx.headerLines),
    importStatement(dialect.module, [], { namespace: "z" }),
    importStatement(ctx.runtime("jsonrpc/call"), [
      "callRpcMethod",
      "createTypedRpcClient",
      "type TypedRpcClient",
      "type TypedRpcClientOptions",
    ]),
    importStatement(ctx.runtime("jsonrpc/client"), ["RpcClient as RuntimeRpcClient"], { typeOnly: true }),
  ];
  const sortedSchemas = [...rpc.schemas].sort((a, b) => (a.typeName < b.typeName ? -1 : 1));
  for (const named of sortedSchemas) statements.push(rpcType(named.typeName, named.schema, tctx));
  for (const named of rpc.schemas) {
    const code = zodSchema(named.schema, zctx);
    statements.push(
      named.recursive
        ? constant(named.schemaName, `z.lazy(() => ${code})`, dialect.schemaType(named.typeName))
        : constant(named.schemaName, code),
    );
  }
  for (const method of rpc.methods) statements.push(...methodDeclarations(method, tctx, zctx));
  statements.push(
    constant("rpcMethods", `[${rpc.methods.map((m) => codeJson(m.name)).join(", ")}] as const`),
    methodsInterface(rpc),
    methodsFactory(rpc),
    { kind: "text", text: CLIENT },
  );
  // Keyword and format helpers the schemas call, imported after the other imports.
  const body = statements.findIndex((s, i) => i > 0 && s.kind !== "import");
  const used = runtimeHelpersUsed(printStatements(statements.slice(body)));
  if (used.formats.length > 0) statements.splice(body, 0, importStatement(ctx.runtime("schema/formats"), used.formats));
  if (used.schema.length > 0)
    statements.splice(body, 0, importStatement(ctx.runtime("schema/json-schema"), used.schema));
  return { path: "rpc.ts", content: printStatements(statements) };
}

function constant(name: string, initializer: string, type?: string): Statement {
  return {
    kind: "variable",
    structure: { isExported: true, declarationKind: "const" as never, declarations: [{ name, initializer, type }] },
  };
}

function rpcType(name: string, schema: RpcModel["schemas"][number]["schema"], tctx: TypeContext): Statement {
  return schemaTypeDeclaration(name, schema, tctx, docText(schema));
}

function methodDeclarations(method: RpcMethodModel, tctx: TypeContext, zctx: ZodContext): Statement[] {
  const n = method.names;
  const tuple = method.params.map((p) => `${safeLabel(p.name)}${p.required ? "" : "?"}: ${tsType(p.schema, tctx)}`);
  const dialect = zodDialectOf(zctx);
  const zodItems = method.params.map((p) => {
    const code = zodSchema(p.schema, zctx);
    return p.required ? code : dialect.optional(code);
  });
  const result = method.result ? tsType(method.result.schema, tctx) : "unknown";
  return [
    {
      kind: "typeAlias",
      structure: {
        name: n.params,
        isExported: true,
        type: `[${tuple.join(", ")}]`,
        docs: [`Params of ${method.name} (by position).`],
      },
    },
    {
      kind: "typeAlias",
      structure: { name: n.result, isExported: true, type: result, docs: [`Result of ${method.name}.`] },
    },
    constant(
      n.paramsSchema,
      zodItems.length === 0 ? "z.tuple([])" : `z.tuple([\n${zodItems.map((z) => indent(`${z},`)).join("\n")}\n])`,
    ),
    constant(n.resultSchema, method.result ? zodSchema(method.result.schema, zctx) : "z.unknown()"),
  ];
}

/** Tuple labels must be identifiers. */
function safeLabel(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_$]/g, "_");
  return /^[0-9]/.test(cleaned) ? `_${cleaned}` : cleaned || "param";
}

function methodsInterface(rpc: RpcModel): Statement {
  return {
    kind: "interface",
    structure: {
      name: "RpcMethods",
      isExported: true,
      docs: ["One typed method per JSON-RPC method of the OpenRPC document."],
      methods: rpc.methods.map((m) => ({
        name: m.clientName,
        docs: m.summary ? [m.summary] : undefined,
        parameters: [{ name: "params", isRestParameter: true, type: m.names.params }],
        returnType: `Promise<${m.names.result}>`,
      })),
    },
  };
}

function methodsFactory(rpc: RpcModel): Statement {
  const members = rpc.methods.map(
    (m) =>
      `${m.clientName}: (...params) => callRpcMethod(transport(), ${codeJson(m.name)}, params, ${m.names.resultSchema}),`,
  );
  return {
    kind: "function",
    structure: {
      name: "rpcMethodsOver",
      parameters: [{ name: "transport", type: "() => RuntimeRpcClient" }],
      returnType: "RpcMethods",
      statements: [`return {\n${members.map(indent).join("\n")}\n};`],
    },
  };
}
