// Pages are disjoint and together complete, also while records are created.

import { firstString } from "../../provision/util.ts";
import type { CheckContext } from "../../run/context.ts";
import type { OperationInfo } from "../../run/operations.ts";
import type { Check } from "../check.ts";
import { expectSuccess, failWith } from "../expect.ts";
import type { Item } from "../list-reader.ts";
import { COMMON, pageItems, pagingOf, query } from "./pages.ts";

/** Wallets created between page reads by paging.disjoint-complete. */
const CREATED_WHILE_PAGING = 3;

/** How many items the list holds: probes of one item at doubling offsets, then a binary search. */
async function listLength(ctx: CheckContext, op: OperationInfo, params: Record<string, string>): Promise<number> {
  const p = pagingOf(op);
  const has = async (offset: number) =>
    pageItems(
      op,
      await ctx.call(op.operationId, { params, query: query(p, offset, 1) }),
      `${op.operationId} at offset ${offset}`,
    ).length > 0;
  if (!(await has(0))) return 0;
  let [lo, hi] = [0, 1];
  while (hi < 2 ** 31 && (await has(hi))) [lo, hi] = [hi, hi * 2];
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (await has(mid)) lo = mid;
    else hi = mid;
  }
  return hi;
}

export const disjointComplete: Check = {
  ...COMMON,
  id: "paging.disjoint-complete",
  title: "Pages read while records are created are disjoint and together complete, oldest first",
  requires: ["workspace"],
  timeoutScale: 3,
  sends: "listWallets page by page from the end of the list, createWallet between the reads (three wallets)",
  async run(ctx) {
    const op = ctx.operation("listWallets");
    const p = pagingOf(op);
    const params = { workspace_id: await ctx.need("workspace") };
    // The last few wallets (probing for the end costs about 2·log2(n) requests, however many exist).
    const start = Math.max(0, (await listLength(ctx, op, params)) - 6);
    const before = await ctx.call("listWallets", { params, query: query(p, start, 6) });
    const baseline = pageItems(op, before, "listWallets").map((w) => String(w.id));
    const size = 2;
    const seen: string[] = [];
    const created: string[] = [];
    let offset = start;
    let last = before;
    for (let pages = 0; pages < 20; pages++) {
      last = await ctx.call("listWallets", { params, query: query(p, offset, size) });
      const items = pageItems(op, last, `listWallets at offset ${offset} limit ${size}`).map((w) => String(w.id));
      if (items.length > size)
        failWith(last, `limit ${size} answered ${items.length} items: the limit is not honoured`);
      const again = items.find((id) => seen.includes(id));
      if (again)
        failWith(
          last,
          `wallet ${again} is on two pages (again at offset ${offset}): pages read while records were created repeat an item`,
          { seen, created },
        );
      seen.push(...items);
      offset += items.length;
      if (items.length < size) break;
      if (created.length < CREATED_WHILE_PAGING) {
        const made = await ctx.call("createWallet", {
          body: { name: ctx.suite.marker.name(`paging-${created.length}`), wallet_type: "mpc" },
        });
        created.push(
          String(
            firstString(expectSuccess(made, ctx.operation("createWallet"), "createWallet") as Item, "wallet_id", "id"),
          ),
        );
      }
    }
    const skipped = baseline.filter((id) => !seen.includes(id));
    if (skipped.length > 0)
      failWith(
        last,
        `${skipped.length} wallet(s) listed before paging began were on no page (${skipped.join(", ")}): pages read while records were created skip items`,
        { baseline, seen, created },
      );
    const positions = baseline.map((id) => seen.indexOf(id));
    if (positions.some((at, i) => i > 0 && at < positions[i - 1]))
      failWith(last, "the pages list the wallets in another order than one read did", { baseline, seen });
    const lastOld = Math.max(...positions, -1);
    const early = created.filter((id) => seen.includes(id) && seen.indexOf(id) < lastOld);
    if (early.length > 0)
      failWith(
        last,
        `wallet(s) created while paging (${early.join(", ")}) were listed before older ones: the order is not creation order, oldest first`,
        { baseline, seen, created },
      );
  },
};
