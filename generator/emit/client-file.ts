// generated/client.ts: a typed client class, one method per operation, on runtime/http-client.ts
// (undici, HMAC signing when the spec declares x-custody-hmac, retries for idempotent calls).
// Responses are validated with the zod schemas and envelopes unwrapped; failures raise ApiError.
import type { OperationModel, SpecModel } from "../model/types.ts";
import { headerStatement, importStatement, type EmitContext, type EmittedFile } from "./context.ts";
import { printStatements, type Statement } from "./print.ts";

const HELPERS = `/** What a generated method hands to \`call\`. */
interface CallInput {
  params?: object;
  query?: object;
  headers?: object;
  body?: unknown;
}

/** The parts of an operations.ts entry the client needs. */
interface CallOperation {
  operationId: string;
  method: string;
  path: string;
  successStatus: number;
  idempotent: boolean;
  envelope: boolean;
  responseSchemas: object;
}

type ResponseKind = "json" | "text" | "none";

/** Fills the path template; each value is percent-encoded as one path segment. */
function expandPath(template: string, params: object | undefined): string {
  const values = (params ?? {}) as Record<string, unknown>;
  return template.replace(/\\{([^}]+)\\}/g, (_, name: string) => encodeURIComponent(String(values[name])));
}

function headerStrings(headers: object | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) if (value !== undefined && value !== null) out[name] = String(value);
  return out;
}

async function call(transport: Transport, op: CallOperation, input: CallInput, options: CallOptions | undefined, kind: ResponseKind): Promise<unknown> {
  const response = await transport.request({
    method: op.method,
    path: expandPath(op.path, input.params),
    query: input.query as Record<string, QueryValue> | undefined,
    headers: { ...headerStrings(input.headers), ...options?.headers },
    body: input.body,
    idempotent: op.idempotent,
    timeoutMs: options?.timeoutMs,
    retry: options?.retry,
    signal: options?.signal,
  });
  if (op.envelope) return checked(op, response, unwrapEnvelope(response, op.successStatus));
  if (response.status < 200 || response.status >= 300) throw httpError(response);
  return checked(op, response, kind === "text" ? response.text : kind === "none" ? undefined : response.body);
}

/** Validates what the response carries against the schema declared for its status. */
function checked(op: CallOperation, response: TransportResponse, data: unknown): unknown {
  const schemas = op.responseSchemas as Record<string, z.ZodType | undefined>;
  const schema = schemas[response.status] ?? schemas[\`\${String(response.status)[0]}XX\`] ?? schemas.default;
  if (schema === undefined) return data;
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue !== undefined && issue.path.length > 0 ? issue.path.join(".") : "(root)";
  const message = \`\${op.operationId}: the response does not match the spec at \${where}: \${issue?.message ?? "invalid"}\`;
  throw new ApiError(response.status, "invalid_response", message, { requestId: response.requestId, body: response.body ?? response.text });
}

/** A non-2xx answer without an envelope: code and message from the body when it has them. */
function httpError(response: TransportResponse): ApiError {
  const body = (typeof response.body === "object" && response.body !== null ? response.body : {}) as Record<string, unknown>;
  const code = typeof body.code === "string" || typeof body.code === "number" ? String(body.code) : \`http_\${response.status}\`;
  const message = typeof body.message === "string" ? body.message : \`HTTP \${response.status}\`;
  return new ApiError(response.status, code, message, { requestId: response.requestId, body: response.body ?? response.text });
}`;

export function emitClient(ctx: EmitContext): EmittedFile {
  const { model } = ctx;
  const rt = ctx.runtimeImport;
  const statements: Statement[] = [
    headerStatement(ctx.headerLines),
    importStatement("zod", ["z"], { typeOnly: true }),
    importStatement(`${rt}/errors.ts`, ["ApiError"]),
    importStatement(`${rt}/http-client.ts`, [
      "createTransport",
      "unwrapEnvelope",
      "type QueryValue",
      "type RetryPolicy",
      "type Transport",
      "type TransportOptions",
      "type TransportResponse",
    ]),
    importStatement("./operations.ts", ["operations"]),
    importStatement("./types.ts", [], { typeOnly: true, namespace: "T" }),
    clientOptions(model),
    {
      kind: "interface",
      structure: {
        name: "CallOptions",
        isExported: true,
        docs: ["Per-call overrides."],
        properties: [
          { name: "timeoutMs", type: "number", hasQuestionToken: true },
          { name: "retry", type: "Partial<RetryPolicy> | false", hasQuestionToken: true, docs: ["Retry policy for this call (only idempotent calls are ever retried)."] },
          { name: "signal", type: "AbortSignal", hasQuestionToken: true },
          { name: "headers", type: "Record<string, string | undefined>", hasQuestionToken: true, docs: ["Extra headers, applied after signing; undefined removes one."] },
        ],
      },
    },
    clientClass(model),
    { kind: "text", text: HELPERS },
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
  const success = op.responses.find((r) => r.code === op.successStatus) ?? op.responses.find((r) => r.status === "default");
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
    statements: [`return call(this.transport, operations.${op.name}, input, options, "${kind}") as Promise<T.${n.data}>;`],
  };
}
