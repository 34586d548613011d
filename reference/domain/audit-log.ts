// Reading the audit log of a workspace, oldest first, a page at a time.
import { assertWorkspace } from "./access.ts";
import type { DomainContext } from "./context.ts";
import { auditKeys } from "./indexes.ts";
import type { PageQuery } from "./paging.ts";
import { type Actor, type AuditRecord, C } from "./records.ts";

export class AuditLogService {
  constructor(private readonly ctx: DomainContext) {}

  page(actor: Actor, workspaceId: string, page: PageQuery): AuditRecord[] {
    assertWorkspace(actor, workspaceId);
    return this.ctx.store.page<AuditRecord>(C.audit, auditKeys.ofWorkspace(actor.workspaceId), page.offset, page.limit);
  }
}
