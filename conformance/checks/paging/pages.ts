// Reading a list page by page as x-custody-pagination declares it.

import { firstString } from "../../provision/util.ts";
import type { CheckContext, Suite } from "../../run/context.ts";
import type { OperationInfo, Paging } from "../../run/operations.ts";
import type { HttpExchange } from "../../transport/probe.ts";
import { expectSuccess, failWith } from "../expect.ts";
import { type Item, itemsOf } from "../list-reader.ts";
import { skip } from "../outcome.ts";

const SEED_REF =
  "§8 (page sizes not shown); assumed: x-custody-pagination (offset and limit as https://docs.fystack.io/pagination)";

export const COMMON = {
  group: "paging" as const,
  severity: "MUST" as const,
  seedRef: SEED_REF,
  level: "full" as const,
};

export function pagingOf(op: OperationInfo): Paging {
  if (!op.pagination) skip(`${op.operationId} declares no x-custody-pagination`);
  return op.pagination;
}

export function query(
  p: Paging,
  offset: number | string | undefined,
  limit: number | string | undefined,
  base: Record<string, string> = {},
): Record<string, string> {
  return {
    ...base,
    ...(offset !== undefined ? { [p.offset]: String(offset) } : {}),
    ...(limit !== undefined ? { [p.limit]: String(limit) } : {}),
  };
}

/** The items of a successful page (the operation's schema checked), failing with the exchange otherwise. */
export function pageItems(op: OperationInfo, ex: HttpExchange, what: string): Item[] {
  return itemsOf(expectSuccess(ex, op, what), op.pagination);
}

const longLists = new WeakMap<Suite, Promise<void>>();

/**
 * listWebhooks holding at least `min` webhooks of the run's own, registered to the receiver (deleted
 * when the run ends). Once per run, shared by the checks that need it.
 */
export function ensureLongWebhookList(ctx: CheckContext, min: number): Promise<void> {
  let made = longLists.get(ctx.suite);
  if (!made) {
    made = (async () => {
      const workspaceId = await ctx.need("workspace");
      const receiver = await ctx.need("receiver");
      // All `min` are the run's own, whatever the list holds already: other checks (and other clients)
      // register and delete webhooks concurrently, so webhooks the run does not own may vanish mid-check.
      for (let i = 0; i < min; i++) {
        const ex = await ctx.call("createWebhook", {
          params: { workspace_id: workspaceId },
          body: {
            url: receiver.url("paging"),
            event_types: ["withdrawal.failed"],
            description: ctx.suite.marker.description("paging webhook"),
          },
        });
        // A deployment may cap webhooks per workspace: then this list cannot be made long here (a skip, never a pass).
        if (ex.response.status >= 400 && ex.response.status < 500)
          skip(
            `listWebhooks holds ${i} webhooks and createWebhook refused another (HTTP ${ex.response.status}), so no list longer than a page could be made`,
          );
        const id = firstString(
          expectSuccess(ex, ctx.operation("createWebhook"), "createWebhook") as Item,
          "id",
          "webhook_id",
        );
        if (!id) failWith(ex, "createWebhook answered without an id");
        ctx.suite.removeAtEnd(`paging webhook ${id}`, "deleteWebhook", {
          params: { workspace_id: workspaceId, webhook_id: id },
        });
      }
    })();
    longLists.set(ctx.suite, made);
  }
  return made;
}
