// Reading the audit log of a workspace, newest first.
import { assertWorkspace } from "./access.ts";
import type { DomainContext } from "./context.ts";
import { C, type Actor, type AuditRecord } from "./records.ts";

export class AuditLogService {
  constructor(private readonly ctx: DomainContext) {}

  list(actor: Actor, workspaceId: string): AuditRecord[] {
    assertWorkspace(actor, workspaceId);
    return this.ctx.store.list<AuditRecord>(C.audit, (a) => a.workspace_id === actor.workspaceId).reverse();
  }
}
