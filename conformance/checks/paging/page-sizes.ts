// Pages hold what limit asks for.
import type { Check } from "../check.ts";
import { failWith } from "../expect.ts";
import { skip } from "../outcome.ts";
import { COMMON, ensureLongWebhookList, pageItems, pagingOf, query } from "./pages.ts";

export const pageSizes: Check = {
  ...COMMON,
  id: "paging.page-sizes",
  title: "Without a limit a list answers the default page size; with the maximum, more than that",
  requires: ["workspace", "receiver"],
  timeoutScale: 3,
  sends: "listWebhooks without a limit, then with the maximum limit",
  async run(ctx) {
    const op = ctx.operation("listWebhooks");
    const p = pagingOf(op);
    if (p.defaultLimit === undefined || p.maxLimit === undefined)
      skip("listWebhooks declares no default or maximum page size");
    await ensureLongWebhookList(ctx, p.defaultLimit + 1);
    const params = { workspace_id: await ctx.need("workspace") };
    const plain = await ctx.call("listWebhooks", { params });
    const first = pageItems(op, plain, "listWebhooks without offset and limit");
    if (first.length !== p.defaultLimit)
      failWith(
        plain,
        `without a limit, a list holding more than ${p.defaultLimit} items answered ${first.length}, not the default page size ${p.defaultLimit}`,
      );
    const widest = await ctx.call("listWebhooks", { params, query: query(p, 0, p.maxLimit) });
    const most = pageItems(op, widest, `listWebhooks with limit ${p.maxLimit}`);
    if (most.length <= p.defaultLimit || most.length > p.maxLimit) {
      failWith(
        widest,
        `limit ${p.maxLimit} (the maximum) answered ${most.length} items of a list holding more than ${p.defaultLimit}: expected more than ${p.defaultLimit} and at most ${p.maxLimit}`,
      );
    }
  },
};
