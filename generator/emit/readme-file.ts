// generated/README.md from templates/readme.hbs: every operation with method, path, scopes, role, source.

import type { OperationModel, SpecModel } from "../model/types.ts";
import { markdownCode as code, markdownText as text } from "../spec-text.ts";
import { exampleLines, idempotencyHeader } from "./client-file.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import { inputSource, operationExample } from "./examples.ts";
import { headerLines, renderTemplate } from "./templates.ts";

export function emitReadme(ctx: EmitContext): EmittedFile {
  const { model } = ctx;
  const rpc = model.rpc;
  const guideOptions: GuideOptions = {
    importFrom: "./index.js",
    hasWebhooks: model.webhooks.length > 0,
    hasRpc: model.rpc !== undefined,
  };
  const content = renderTemplate("readme", {
    install: ctx.install ?? [],
    start: sdkStart(model, guideOptions),
    guide: sdkGuide(model, guideOptions),
    header: headerLines([
      { path: model.displayPath, sha256: model.sha256 },
      ...(rpc ? [{ path: rpc.displayPath, sha256: rpc.sha256 }] : []),
    ]).join("\n"),
    title: text(model.title),
    version: text(model.apiVersion),
    specPath: code(model.displayPath),
    clientName: model.clientName,
    hmac: model.security.hmac ? `${model.security.hmac.algorithm} (x-custody-hmac)` : undefined,
    webhookProfile: model.webhookProfile,
    webhookDelivery: model.webhookDelivery !== undefined,
    operations: model.operations.map((op) => ({
      operationId: code(op.operationId),
      method: op.method,
      path: code(op.path),
      scopes: op.scopes.map(code),
      minRole: op.minRole,
      source: text(op.source ?? "—"),
    })),
    webhooks: model.webhooks.map((h) => ({
      event: code(h.event),
      typeName: h.typeName,
      summary: text(h.summary ?? ""),
    })),
    rpc: rpc && {
      path: code(rpc.displayPath),
      methods: rpc.methods.map((m) => ({
        name: code(m.name),
        params: m.params.map((p) => ({ name: code(p.name) })),
        result: m.result && code(m.result.name),
      })),
    },
  });
  return { path: "README.md", content: `${content.trimEnd()}\n`.replace(/\n{3,}/g, "\n\n") };
}

export interface GuideOptions {
  importFrom: string;
  hasWebhooks: boolean;
  hasRpc: boolean;
}

/** The README's short top: the first call, errors in brief, where to go next. */
export function sdkStart(model: SpecModel, options: GuideOptions): string {
  const { firstOperation, firstInput } = firstCall(model);
  return renderTemplate("sdk-start", { ...options, clientName: model.clientName, firstOperation, firstInput });
}

/** The first GET (else the first operation) and its example input, for the snippets. */
function firstCall(model: SpecModel): { firstOperation?: string; firstInput: string } {
  const first = model.operations.find((op) => op.method === "GET") ?? model.operations[0];
  return {
    firstOperation: first?.name,
    firstInput: first === undefined ? "" : inputSource(operationExample(model, first)).replace(/\s*\n\s*/g, " "),
  };
}

/** The guide to the client (results, errors, retries, idempotency, logs, webhooks, JSON-RPC, an example per operation). */
export function sdkGuide(model: SpecModel, options: GuideOptions): string {
  const { firstOperation, firstInput } = firstCall(model);
  const sub = (module: string) =>
    options.importFrom.startsWith(".") ? `./${module}.js` : `${options.importFrom}/${module}`;
  return renderTemplate("sdk-guide", {
    ...options,
    clientFrom: sub("client"),
    webhooksFrom: sub("webhooks"),
    rpcFrom: sub("rpc"),
    clientName: model.clientName,
    firstOperation,
    firstInput,
    idempotent: model.operations
      .filter((op) => idempotencyHeader(op) !== undefined)
      .map((op) => ({ name: op.name, header: idempotencyHeader(op) })),
    ...directionTypes(model),
    ...pagedOperations(model),
    examples: model.operations.map((op) => ({
      name: op.name,
      summary: text(op.summary ?? op.operationId),
      code: exampleLines(model, op).join("\n"),
    })),
  }).replace(/\n{3,}/g, "\n\n");
}

/** The paged list operations, and the first one (with its example input) for the guide's example. */
function pagedOperations(model: SpecModel) {
  const paged = model.operations.filter((op) => op.pagination !== undefined);
  const inputOf = (op: OperationModel) => inputSource(operationExample(model, op)).replace(/\s*\n\s*/g, " ");
  // An example that shows the input next to the options reads better: prefer a list that takes one.
  const first = paged.find((op) => inputOf(op) !== "") ?? paged[0];
  const pagedFirst = first && {
    name: first.name,
    input: inputOf(first),
    inputOrEmpty: inputOf(first) || "{}",
    defaultLimit: first.pagination?.defaultLimit,
    maxLimit: first.pagination?.maxLimit,
  };
  return { paged: paged.map((op) => ({ name: op.name })), pagedFirst };
}

const LISTED_VARIANTS = 8;

/** The readOnly/writeOnly variant types of the spec's components, for the guide (none: the section is left out). */
function directionTypes(model: SpecModel): {
  variants: { base: string; writable?: string; readable?: string }[];
  moreVariants: number;
} {
  const all = model.schemas
    .filter((s) => s.variants !== undefined)
    .map((s) => ({
      base: s.typeName,
      writable: s.variants?.request?.typeName,
      readable: s.variants?.response?.typeName,
    }));
  return { variants: all.slice(0, LISTED_VARIANTS), moreVariants: Math.max(0, all.length - LISTED_VARIANTS) };
}
