// Every list operation pages.

import type { CheckContext } from "../../run/context.ts";
import type { OperationInfo } from "../../run/operations.ts";
import type { Check } from "../check.ts";
import { failWith } from "../expect.ts";
import { skip } from "../outcome.ts";
import { COMMON, pageItems, pagingOf, query } from "./pages.ts";

/** An offset no list reaches: the page there must be empty, not an error. */
const FAR_OFFSET = 1_000_000;

/** Path parameters of a list operation from the run's fixtures, or undefined when it needs another one. */
async function listParams(ctx: CheckContext, op: OperationInfo): Promise<Record<string, string> | undefined> {
  const params: Record<string, string> = {};
  for (const name of [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])) {
    if (name === "workspace_id") params[name] = await ctx.need("workspace");
    else if (name === "wallet_id") params[name] = (await ctx.need("wallet")).walletId;
    else return undefined;
  }
  return params;
}

export const everyList: Check = {
  ...COMMON,
  id: "paging.every-list",
  title: "Every paged list honours a limit of 1 and the maximum, and answers an empty page far past its end",
  requires: ["workspace", "wallet"],
  timeoutScale: 2,
  sends: "every paged list with limit 1, with the maximum, and with an offset far past its end",
  async run(ctx) {
    const lists = ctx.operations.filter((op) => op.pagination && op.method === "GET");
    if (lists.length === 0) skip("the operation table declares no paged list");
    let tried = 0;
    for (const listed of lists) {
      const op = ctx.operation(listed.operationId);
      const p = pagingOf(op);
      const params = await listParams(ctx, op);
      if (!params) continue;
      tried++;
      const one = await ctx.call(op.operationId, { params, query: query(p, 0, 1) });
      const got = pageItems(op, one, `${op.operationId} with limit 1`);
      if (got.length > 1)
        failWith(one, `${op.operationId} with limit 1 answered ${got.length} items: the limit is not honoured`);
      if (p.maxLimit !== undefined)
        pageItems(
          op,
          await ctx.call(op.operationId, { params, query: query(p, 0, p.maxLimit) }),
          `${op.operationId} with limit ${p.maxLimit} (the maximum)`,
        );
      const far = await ctx.call(op.operationId, { params, query: query(p, FAR_OFFSET, undefined) });
      const beyond = pageItems(op, far, `${op.operationId} at offset ${FAR_OFFSET}`);
      if (beyond.length > 0)
        failWith(
          far,
          `${op.operationId} at offset ${FAR_OFFSET} answered ${beyond.length} items: past the end the page must be empty`,
        );
    }
    if (tried === 0) skip("no paged list takes only workspace_id or wallet_id");
  },
};
