// generated/client.ts: a typed client class, one method per operation, on runtime/http-client.ts
// (undici, HMAC signing when the spec declares x-custody-hmac, retries for idempotent calls).
// Responses are validated with the zod schemas and envelopes unwrapped; failures raise ApiError.
import type { OperationModel, SpecModel } from "../model/types.ts";
import { headerStatement, importStatement, type EmitContext, type EmittedFile } from "./context.ts";
import { printStatements, type Statement } from "./print.ts";

export function emitClient(ctx: EmitContext): EmittedFile {
  const { model } = ctx;
  const statements: Statement[] = [
    headerStatement(ctx.headerLines),
    importStatement(ctx.runtime("client-call"), ["callOperation", "type CallOptions"]),
    importStatement(ctx.runtime("http-client"), ["createTransport", "type Transport", "type TransportOptions"]),
    importStatement("./operations.js", ["operations"]),
    importStatement("./types.js", [], { typeOnly: true, namespace: "T" }),
    clientOptions(model),
    { kind: "text", text: "/** Per-call overrides: timeout, retry policy, abort signal, extra headers. */\nexport type { CallOptions };" },
    clientClass(model),
  ];
  return { path: "client.ts", content: printStatements(statements) };
}

function clientOptions(model: SpecModel): Statement {
  if (model.security.hmac) {
    return {
      kind: "interface",
      structure: {
        name: "ClientOptions",
        isExported: true,
        extends: ["TransportOptions"],
        docs: [`Requests are signed as ${model.security.hmac.schemeName} (x-custody-hmac) declares: ${model.security.hmac.algorithm} over method, path, timestamp and body.`],
        properties: [
          { name: "apiKey", type: "string" },
          { name: "apiSecret", type: "string", docs: ["Used only to sign; never sent."] },
        ],
      },
    };
  }
  return {
    kind: "interface",
    structure: {
      name: "ClientOptions",
      isExported: true,
      extends: ['Omit<TransportOptions, "apiKey" | "apiSecret">'],
      docs: ["The spec declares no request signing: requests are sent as they are (add auth headers with `headers`)."],
    },
  };
}

function clientClass(model: SpecModel): Statement {
  return {
    kind: "class",
    structure: {
      name: model.clientName,
      isExported: true,
      docs: [`Client of ${model.title}${model.apiVersion ? ` ${model.apiVersion}` : ""}: one method per operation.`],
      properties: [{ name: "transport", type: "Transport", isReadonly: true }],
      ctors: [{ parameters: [{ name: "options", type: "ClientOptions" }], statements: ["this.transport = createTransport(options);"] }],
      methods: model.operations.map(method),
    },
  };
}

function method(op: OperationModel) {
  const n = op.names;
  const requiredInput = op.params.path.length > 0 || op.params.query.some((p) => p.required) || op.params.header.some((p) => p.required) || op.body?.required === true;
  const success = op.success;
  const kind = success?.schema === undefined ? "none" : success.mediaType && !/json/i.test(success.mediaType) ? "text" : "json";
  const docs = [op.summary, `${op.method} ${op.path}`, op.deprecated ? "@deprecated" : undefined].filter(Boolean).join("\n");
  return {
    name: op.name,
    docs: [docs],
    parameters: [
      { name: "input", type: `T.${n.input}`, initializer: requiredInput ? undefined : "{}" },
      { name: "options", type: "CallOptions", hasQuestionToken: true },
    ],
    returnType: `Promise<T.${n.data}>`,
    statements: [`return callOperation(this.transport, operations.${op.name}, input, options, "${kind}") as Promise<T.${n.data}>;`],
  };
}
