// diffDocuments(): old and new OpenAPI (and optionally OpenRPC) documents → every change a client
// notices, classified, in a stable order (breaking first, then by where and check id).
import { checkOperations } from "./checks/operations.ts";
import { checkRpc } from "./checks/rpc.ts";
import { checkWebhooks } from "./checks/webhooks.ts";
import { summarize } from "./classify.ts";
import type { SpecDoc } from "./document.ts";
import { SchemaDiff } from "./schema-diff.ts";
import { Sink } from "./sink.ts";
import { type Change, type DiffReport, LEVEL_RANK } from "./types.ts";

export interface DiffInput {
  openapi?: { old: SpecDoc; next: SpecDoc };
  rpc?: { old: SpecDoc; next: SpecDoc };
}

export function diffDocuments(input: DiffInput): DiffReport {
  const sink = new Sink();
  if (input.openapi) {
    const { old, next } = input.openapi;
    const ctx = { old, next, schemas: new SchemaDiff(old, next), sink };
    checkOperations(ctx);
    checkWebhooks(ctx);
  }
  if (input.rpc) {
    const { old, next } = input.rpc;
    checkRpc({ old, next, schemas: new SchemaDiff(old, next), sink });
  }
  const changes = [...sink.changes].sort(order);
  return {
    old: { openapi: input.openapi?.old.display, rpc: input.rpc?.old.display },
    new: { openapi: input.openapi?.next.display, rpc: input.rpc?.next.display },
    changes,
    summary: summarize(changes),
  };
}

function order(a: Change, b: Change): number {
  return (
    LEVEL_RANK[b.level] - LEVEL_RANK[a.level] ||
    a.where.localeCompare(b.where) ||
    a.id.localeCompare(b.id) ||
    (a.oldPointer ?? "").localeCompare(b.oldPointer ?? "")
  );
}
