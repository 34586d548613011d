// Which operations a check drives, and the concrete requests it sends to them: real ids where the
// run knows them (so a read reaches a real record), placeholders elsewhere (so a write that wrongly
// gets through never touches real data).

import type { CheckContext } from "../run/context.ts";
import type { OperationInfo } from "../run/operations.ts";
import { isRead } from "../run/operations.ts";
import { encodeBody, fillPath } from "../transport/api.ts";
import { sampleFromZod, sampleQuery } from "./sample-values.ts";

export interface RequestPlan {
  op: OperationInfo;
  method: string;
  path: string;
  query?: Record<string, string>;
  body?: string;
  /** Non-auth headers the operation requires (content-type, Idempotency-Key). */
  headers: Record<string, string>;
}

/** The operations in scope at this level: seed level drives only operations the seed specifies. */
export function operationsInScope(ctx: CheckContext): OperationInfo[] {
  return ctx.level === "seed" ? ctx.operations.filter((op) => op.source === "seed") : ctx.operations;
}

/** Ids known right now (flags, or prerequisites already created), without waiting for anything. */
export function knownIds(ctx: CheckContext): Record<string, string | undefined> {
  const f = ctx.suite.fixtures;
  const ids = ctx.config.fixtureIds;
  return {
    workspace_id: ctx.config.workspaceId ?? f.peek("workspace"),
    wallet_id: f.peek("wallet")?.walletId ?? ids.walletId,
    asset_id: f.peek("asset")?.assetId ?? ids.assetId,
    withdrawal_id: f.peek("withdrawal") ?? ids.withdrawalId,
    delivery_id: f.peek("delivery")?.deliveryId ?? ids.deliveryId,
    webhook_id: f.peek("webhook")?.id ?? ids.webhookId,
  };
}

/** A well-formed request to `op`; ids come from `ids` for reads, the workspace always. */
export function planRequest(op: OperationInfo, ids: Record<string, string | undefined>): RequestPlan {
  const values = isRead(op) ? ids : { workspace_id: ids.workspace_id };
  const headers: Record<string, string> = {};
  const sampleHeaders = sampleFromZod(op.headersSchema);
  if (sampleHeaders && typeof sampleHeaders === "object") {
    for (const [k, v] of Object.entries(sampleHeaders as Record<string, unknown>)) {
      headers[k] = /idempotency/i.test(k) ? `certify-${Math.random().toString(36).slice(2)}` : String(v);
    }
  }
  let body: string | undefined;
  if (!isRead(op) && op.method !== "DELETE") {
    body = encodeBody(sampleFromZod(op.bodySchema) ?? {});
    headers["content-type"] = "application/json";
  }
  const query = sampleQuery(op.querySchema);
  if (query.asset_id !== undefined && ids.asset_id) query.asset_id = ids.asset_id;
  return {
    op,
    method: op.method,
    path: fillPath(op, values),
    query: Object.keys(query).length ? query : undefined,
    body,
    headers,
  };
}

/**
 * Runs `task` over `items` with at most `limit` at a time; results keep the input order. Once
 * `signal` aborts (the check's time limit), no new item starts, so the check winds down at once.
 */
export async function mapLimit<T, R>(
  items: T[],
  limit: number,
  task: (item: T) => Promise<R>,
  signal?: AbortSignal,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length && !signal?.aborted) {
      const index = next++;
      results[index] = await task(items[index]);
    }
  });
  await Promise.all(workers);
  return results;
}
