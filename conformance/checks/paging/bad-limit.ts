// A limit out of range is refused.
import type { Check } from "../check.ts";
import { expectError } from "../expect.ts";
import { COMMON, pagingOf, query } from "./pages.ts";

export const badLimit: Check = {
  ...COMMON,
  id: "paging.bad-limit",
  title:
    "A limit above the maximum, zero or negative, a negative offset and a non-number are refused with 400 and the error envelope",
  requires: ["workspace"],
  sends: "listWebhooks with a limit above the maximum, zero, negative, a negative offset and a non-number",
  async run(ctx) {
    const op = ctx.operation("listWebhooks");
    const p = pagingOf(op);
    const params = { workspace_id: await ctx.need("workspace") };
    const bad: Array<[string, Record<string, string>]> = [
      ...(p.maxLimit !== undefined
        ? [
            [`limit ${p.maxLimit + 1} (above the maximum)`, query(p, undefined, p.maxLimit + 1)] as [
              string,
              Record<string, string>,
            ],
          ]
        : []),
      ["limit 0", query(p, undefined, 0)],
      ["limit -1", query(p, undefined, -1)],
      ["limit abc", query(p, undefined, "abc")],
      ["offset -1", query(p, -1, undefined)],
    ];
    for (const [what, q] of bad)
      expectError(await ctx.call("listWebhooks", { params, query: q }), 400, 400, `listWebhooks with ${what}`);
  },
};
