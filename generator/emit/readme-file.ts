// generated/README.md from templates/readme.hbs: every operation with method, path, scopes, role, source.
import type { EmitContext, EmittedFile } from "./context.ts";
import { headerLines, renderTemplate } from "./templates.ts";

/** Table cells must stay on one line and must not end the cell early. */
function cell(text: string | undefined): string {
  return (text ?? "").replace(/\s+/g, " ").replace(/\|/g, "\\|").trim();
}

export function emitReadme(ctx: EmitContext): EmittedFile {
  const { model } = ctx;
  const rpc = model.rpc;
  const content = renderTemplate("readme", {
    header: headerLines([
      { path: model.displayPath, sha256: model.sha256 },
      ...(rpc ? [{ path: rpc.displayPath, sha256: rpc.sha256 }] : []),
    ]).join("\n"),
    title: cell(model.title),
    version: cell(model.apiVersion),
    specPath: model.displayPath,
    clientName: model.clientName,
    hmac: model.security.hmac ? `${model.security.hmac.algorithm} (x-custody-hmac)` : undefined,
    webhookProfile: model.webhookProfile,
    operations: model.operations.map((op) => ({
      operationId: cell(op.operationId),
      method: op.method,
      path: cell(op.path),
      scopes: op.scopes.map(cell),
      minRole: op.minRole,
      source: cell(op.source ?? "—"),
    })),
    webhooks: model.webhooks.map((h) => ({ event: cell(h.event), typeName: h.typeName, summary: cell(h.summary) })),
    rpc: rpc && {
      path: rpc.displayPath,
      methods: rpc.methods.map((m) => ({ name: cell(m.name), params: m.params.map((p) => ({ name: cell(p.name) })), result: m.result && cell(m.result.name) })),
    },
  });
  return { path: "README.md", content: content.replace(/\n{3,}/g, "\n\n") };
}
