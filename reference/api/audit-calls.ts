// Audit entries for state-changing calls: every operation that is not a GET gets a wrapper that, once
// the handler succeeded, records who called which operation on which path, with the answer's status,
// the request id and the resource it created or changed. Failed calls changed nothing and are not
// recorded (the spec's AuditLogEntry: "one state-changing call, recorded after it was answered").
import type { HandlerContext, HandlerInput } from "../../runtime/server/types.ts";
import type { ReferenceApp } from "../app.ts";
import { recordCall } from "../domain/audit.ts";

export interface AuditedOperation {
  operationId: string;
  method: string;
  path: string;
  successStatus: number;
}

type AnyHandler = (input: HandlerInput, ctx: HandlerContext) => Promise<unknown>;

export function withAudit<H extends object>(
  app: ReferenceApp,
  handlers: H,
  operations: readonly AuditedOperation[],
): H {
  const wrapped: Record<string, unknown> = { ...(handlers as Record<string, unknown>) };
  for (const op of operations) {
    if (op.method.toUpperCase() === "GET") continue;
    const inner = (handlers as unknown as Record<string, AnyHandler>)[op.operationId];
    if (typeof inner !== "function") continue;
    wrapped[op.operationId] = async (input: HandlerInput, ctx: HandlerContext) => {
      const result = await inner(input, ctx);
      recordCall(app.ctx.store, app.ctx.now(), {
        workspace_id: ctx.auth.workspaceId,
        actor_key_id: ctx.auth.keyId,
        action: op.operationId,
        method: op.method.toUpperCase(),
        path: fillPath(op.path, (input.params ?? {}) as Record<string, unknown>),
        status: op.successStatus,
        request_id: ctx.requestId,
        ...resourceId(result),
      });
      return result;
    };
  }
  return wrapped as H;
}

/** The concrete request path: the template with its parameters filled in (URL-encoded). */
export function fillPath(template: string, params: Record<string, unknown>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(params[name] ?? "")));
}

function resourceId(result: unknown): { resource_id?: string } {
  if (result === null || typeof result !== "object") return {};
  const r = result as Record<string, unknown>;
  const id = typeof r.id === "string" ? r.id : typeof r.wallet_id === "string" ? r.wallet_id : undefined;
  return id === undefined ? {} : { resource_id: id };
}
