// generated/client.ts: a typed client class, one method per operation, on runtime/http/transport.ts
// (the standard fetch, HMAC signing when the spec declares x-custody-hmac, retries for calls safe to
// repeat, a generated idempotency key where the operation declares one). Every method returns an
// ApiPromise (`await` for the data, `.withResponse()` for status, headers and request id); failures raise
// the ApiError subclass of their status. The client imports no server, webhook or JSON-RPC code.
import { CLIENT_REEXPORTS } from "../model/custody-names.ts";
import { PAGING_EXPORTS } from "../model/pagination.ts";
import type { OperationModel, PaginationModel, SpecModel } from "../model/types.ts";
import { codeJson } from "../spec-text.ts";
import { type EmitContext, type EmittedFile, headerStatement, importStatement } from "./context.ts";
import { inputSource, operationExample } from "./examples.ts";
import { pagedProperty, pagingDocs, pagingExample } from "./paged-client.ts";
import { printStatements, type Statement } from "./print.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);

const STATUS_ERROR: Record<number, string> = {
  400: "BadRequestError",
  401: "AuthenticationError",
  403: "PermissionDeniedError",
  404: "NotFoundError",
  409: "ConflictError",
  422: "UnprocessableEntityError",
  429: "RateLimitError",
};

export function emitClient(ctx: EmitContext): EmittedFile {
  const { model } = ctx;
  const statements: Statement[] = [
    headerStatement(ctx.headerLines),
    importStatement(ctx.runtime("http/client-call"), ["callOperation", "type CallOperation", "type CallOptions"]),
    importStatement(ctx.runtime("http/api-promise"), ["type ApiPromise"]),
    importStatement(ctx.runtime("http/transport"), ["createTransport", "type Transport", "type TransportOptions"]),
    ...(model.operations.some((op) => op.pagination)
      ? [importStatement(ctx.runtime("http/paginate"), ["paginate", "type PagedOperation"])]
      : []),
    importStatement("./schemas.js", [], { namespace: "S" }),
    importStatement("./types.js", [], { typeOnly: true, namespace: "T" }),
    clientOptions(model),
    {
      kind: "text",
      text: "/** Per-call overrides: timeout, retries, idempotency key, abort signal, extra headers. */\nexport type { CallOptions };",
    },
    ...CLIENT_REEXPORTS.map(
      (r): Statement => ({
        kind: "text",
        text: `export ${r.typeOnly ? "type " : ""}{ ${r.names.join(", ")} } from "${ctx.runtime(r.module)}";`,
      }),
    ),
    ...(model.operations.some((op) => op.pagination)
      ? [
          {
            kind: "text" as const,
            text: `export type { ${PAGING_EXPORTS.join(", ")} } from "${ctx.runtime("http/paginate")}";`,
          },
        ]
      : []),
    callTable(model),
    clientClass(model),
  ];
  return { path: "client.ts", content: printStatements(statements) };
}

/**
 * What the client needs of each operation, and nothing more: the operations table (operations.ts)
 * also carries the request schemas, scopes and sources the server and conformance use, which a
 * bundle of the client should not pay for.
 */
function callTable(model: SpecModel): Statement {
  const entries = model.operations.map((op) => {
    // Fields equal to callOperation's defaults are left out (200, envelope, idempotent by method).
    const fields = [
      `operationId: ${codeJson(op.operationId)}`,
      `method: ${codeJson(op.method)}`,
      `path: ${codeJson(op.path)}`,
      ...(op.successStatus === 200 ? [] : [`successStatus: ${op.successStatus}`]),
      ...(op.idempotent === SAFE_METHODS.has(op.method.toUpperCase()) ? [] : [`idempotent: ${op.idempotent}`]),
      ...(op.envelope ? [] : ["envelope: false"]),
      `responseSchemas: S.${op.names.responseSchemas}`,
      ...(idempotencyHeader(op) ? [`idempotencyHeader: ${codeJson(idempotencyHeader(op))}`] : []),
    ];
    return `  ${codeJson(op.name)}: { ${fields.join(", ")} },`;
  });
  return { kind: "text", text: `const calls: Record<string, CallOperation> = {\n${entries.join("\n")}\n};` };
}

function clientOptions(model: SpecModel): Statement {
  if (model.security.hmac) {
    return {
      kind: "interface",
      structure: {
        name: "ClientOptions",
        isExported: true,
        extends: ["TransportOptions"],
        docs: [
          `Requests are signed as ${model.security.hmac.schemeName} (x-custody-hmac) declares: ${model.security.hmac.algorithm} over method, path, timestamp and body.\n` +
            "The API secret signs requests that move funds: keep it on a server. It never belongs in a browser.",
        ],
        properties: [
          { name: "apiKey", type: "string" },
          { name: "apiSecret", type: "string", docs: ["Used only to sign; never sent, never logged."] },
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
      // A paged list is a property (callable, with .all() and .pages()); every other operation a method.
      properties: [
        { name: "transport", type: "Transport", isReadonly: true },
        ...model.operations.flatMap((op) => (op.pagination ? [pagedMember(model, op as PagedModel)] : [])),
      ],
      ctors: [
        {
          parameters: [{ name: "options", type: "ClientOptions" }],
          statements: ["this.transport = createTransport(options);"],
        },
      ],
      methods: model.operations.filter((op) => !op.pagination).map((op) => method(model, op)),
    },
  };
}

/** The header the operation declares for an idempotency key (Idempotency-Key, or the signing calls' idempotencyKey). */
export function idempotencyHeader(op: OperationModel): string | undefined {
  return op.params.header.find((p) => /^idempotency-?key$/i.test(p.name))?.name;
}

type PagedModel = OperationModel & { pagination: PaginationModel };

function requiresInput(op: OperationModel): boolean {
  return (
    op.params.path.length > 0 ||
    op.params.query.some((p) => p.required) ||
    op.params.header.some((p) => p.required) ||
    op.body?.required === true
  );
}

function responseKind(op: OperationModel): "none" | "text" | "json" {
  const success = op.success;
  return success?.schema === undefined
    ? "none"
    : success.mediaType && !/json/i.test(success.mediaType)
      ? "text"
      : "json";
}

function pagedMember(model: SpecModel, op: PagedModel) {
  return pagedProperty(op, methodDocs(model, op), responseKind(op), !requiresInput(op));
}

function method(model: SpecModel, op: OperationModel) {
  const n = op.names;
  const requiredInput = requiresInput(op);
  const kind = responseKind(op);
  return {
    name: op.name,
    docs: [methodDocs(model, op)],
    parameters: [
      { name: "input", type: `T.${n.input}`, initializer: requiredInput ? undefined : "{}" },
      { name: "options", type: "CallOptions", hasQuestionToken: true },
    ],
    returnType: `ApiPromise<T.${n.data}>`,
    statements: [
      `return callOperation(this.transport, calls[${codeJson(op.name)}], input, options, "${kind}") as ApiPromise<T.${n.data}>;`,
    ],
  };
}

/** Summary, description, parameters, what it returns, what it throws, and an example from the spec. */
export function methodDocs(model: SpecModel, op: OperationModel): string {
  const lines: string[] = [op.summary ?? op.operationId];
  if (op.description) lines.push("", op.description.trim());
  if (op.pagination) lines.push("", pagingDocs(op as PagedModel));
  const facts = [`\`${op.method} ${op.path}\``];
  if (op.scopes.length > 0) facts.push(`scopes: ${op.scopes.join(", ")}`);
  facts.push(`role: ${op.minRole}`);
  lines.push("", facts.join(" · "));
  const key = idempotencyHeader(op);
  if (key)
    lines.push(
      "",
      `Sends \`${key}\` (a new UUID v4 unless \`options.idempotencyKey\` or the header is given), the same on every retry, so a retried call is safe.`,
    );
  lines.push("");
  const parts = [
    ...op.params.path.map((p) => `\`params.${p.key}\`${p.description ? ` ${oneLine(p.description)}` : ""}`),
    ...op.params.query.map(
      (p) => `\`query.${p.key}\`${p.required ? "" : " (optional)"}${p.description ? ` ${oneLine(p.description)}` : ""}`,
    ),
    ...op.params.header.map(
      (p) =>
        `\`headers.${p.key}\`${p.required ? "" : " (optional)"}${p.description ? ` ${oneLine(p.description)}` : ""}`,
    ),
    ...(op.body
      ? [
          `\`body\`${op.body.required ? "" : " (optional)"}: ${op.names.body}${op.body.description ? ` ${oneLine(op.body.description)}` : ""}`,
        ]
      : []),
  ];
  lines.push(`@param input ${parts.length === 0 ? "nothing is needed" : parts.join("; ")}`);
  lines.push("@param options per-call timeout, retries, deadline, idempotency key, abort signal, headers");
  lines.push(
    `@returns the ${op.envelope ? "envelope's `data`" : "body"} of the ${op.successStatus} answer; \`.withResponse()\` adds status, headers and request id`,
  );
  for (const response of op.responses) {
    if (response.code === undefined || response.code < 400) continue;
    const name = response.code >= 500 ? "InternalServerError" : (STATUS_ERROR[response.code] ?? "ApiError");
    lines.push(`@throws {${name}} ${response.code}${response.description ? `: ${oneLine(response.description)}` : ""}`);
  }
  lines.push("@throws {ResponseValidationError} the answer breaks the spec's schema (issues and raw body attached)");
  lines.push(
    "@throws {ConnectionError | TimeoutError | AbortError} no answer: connection failed, timed out, or aborted",
  );
  if (op.deprecated) lines.push("@deprecated");
  lines.push("@example", ...exampleLines(model, op));
  if (op.pagination) lines.push("@example", ...pagingExample(model, op, inputSource(operationExample(model, op))));
  return lines.join("\n");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** `const x = await client.op(...)` with the spec's example input, and the example answer's data as a comment. */
export function exampleLines(model: SpecModel, op: OperationModel): string[] {
  const example = operationExample(model, op);
  const input = inputSource(example);
  const call = `const result = await client.${op.name}(${input});`;
  const lines = ["```ts", ...call.split("\n")];
  const data =
    example.response === undefined
      ? undefined
      : op.envelope && typeof example.response.body === "object" && example.response.body !== null
        ? (example.response.body as { data?: unknown }).data
        : example.response.body;
  if (data !== undefined) {
    const shown = codeJson(data);
    lines.push(`// result: ${shown.length > 160 ? `${shown.slice(0, 157)}...` : shown}`);
  }
  lines.push("```");
  return lines;
}
