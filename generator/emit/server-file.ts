// generated/server.ts: the typed handler interface and createServer, a thin layer over
// runtime/server's createRouter (HMAC, roles and scopes, validation, envelopes, error mapping).
import type { OperationModel } from "../model/types.ts";
import { type EmitContext, type EmittedFile, headerStatement, importStatement } from "./context.ts";
import { printStatements, type Statement } from "./print.ts";

const CREATE_SERVER = [
  "// Cast, not checked: proving every generated zod schema is a z.ZodType costs tsc about 40 s and 2 GB on",
  "// a spec of GitHub's size, and the table is generated to the router's shape by construction.",
  "const operations = operationList as unknown as readonly (OperationDefinition & { name: string })[];",
  "const byOperationId: Record<string, OperationHandler<any, any>> = {};",
  "const table = handlers as unknown as Record<string, OperationHandler<any, any> | undefined>;",
  "for (const op of operations) {",
  "  const handler = table[op.name];",
  "  // Bound, so handlers may be methods of a class instance.",
  '  if (typeof handler === "function") byOperationId[op.operationId] = handler.bind(handlers);',
  "}",
  "return createRouter({ ...options, operations, handlers: byOperationId });",
];

export function emitServer(ctx: EmitContext): EmittedFile {
  const statements: Statement[] = [
    headerStatement(ctx.headerLines),
    importStatement(ctx.runtime("server/index"), [
      "createRouter",
      "type HandlerContext",
      "type OperationDefinition",
      "type OperationHandler",
      "type RequestListener",
      "type RouterOptions",
    ]),
    importStatement("./operations.js", ["operationList"]),
    importStatement("./types.js", [], { typeOnly: true, namespace: "T" }),
    {
      kind: "typeAlias",
      structure: {
        name: "RequestContext",
        isExported: true,
        type: "HandlerContext",
        docs: ["What every handler gets besides its input: the caller's key, the request id, setHeader."],
      },
    },
    {
      kind: "interface",
      structure: {
        name: "Handlers",
        isExported: true,
        docs: [
          "One handler per operation. Return the data; the router wraps it, and maps a thrown ApiError to its declared status.",
        ],
        methods: ctx.model.operations.map(handlerSignature),
      },
    },
    {
      kind: "typeAlias",
      structure: {
        name: "ServerOptions",
        isExported: true,
        type: 'Omit<RouterOptions, "operations" | "handlers">',
        docs: ["resolveKey (required), bodyLimitBytes, now, logger and the other router settings."],
      },
    },
    {
      kind: "function",
      structure: {
        name: "createServer",
        isExported: true,
        docs: ["A node:http request listener serving every operation with `handlers`."],
        parameters: [
          { name: "handlers", type: "Handlers" },
          { name: "options", type: "ServerOptions" },
        ],
        returnType: "RequestListener",
        statements: CREATE_SERVER,
      },
    },
  ];
  return { path: "server.ts", content: printStatements(statements) };
}

function handlerSignature(op: OperationModel) {
  const docs = [op.summary, `${op.method} ${op.path}`].filter(Boolean).join("\n");
  return {
    name: op.name,
    docs: [docs],
    parameters: [
      { name: "input", type: `T.${op.names.handlerInput}` },
      { name: "ctx", type: "RequestContext" },
    ],
    returnType: `Promise<T.${op.names.data}>`,
  };
}
