// Reads of the first workspace's records with another workspace's key: every read operation whose
// path names only records the run holds (at --level seed the seed's operations 1-5 and 8), each
// refused, where the same request with the workspace's own key succeeds (ctx.sendJudged: the control
// that shows the record is there and the request is well-formed, so the refusal is about the tenant).

import type { CheckContext } from "../../run/context.ts";
import { isRead, type OperationInfo } from "../../run/operations.ts";
import type { Check } from "../check.ts";
import { skip } from "../outcome.ts";
import { operationsInScope } from "../request-plans.ts";
import { addressable, recordsOf, requestFor } from "./records.ts";
import { fromExchange, refusalProblem, verdict, type WrongCell } from "./verdict.ts";

/** The read operations of the level that address the workspace's records. */
export function readOperations(ctx: CheckContext, records: Awaited<ReturnType<typeof recordsOf>>): OperationInfo[] {
  return operationsInScope(ctx).filter((op) => isRead(op) && addressable(op, records));
}

export const readsRefused: Check = {
  id: "isolation.reads-refused",
  statements: ["s1.mpc-wallets-in-workspace", "s5.access-api-key"],
  group: "isolation",
  title:
    "Another workspace's key reads none of this workspace's records: each read by id or by this workspace's path is refused (4xx, not 401)",
  severity: "MUST",
  seedRef:
    "§1 (wallets, balances, withdrawals, webhooks and deliveries are a workspace's); §5 (the API key identifies who calls); OWASP API1:2023",
  level: "seed",
  requires: ["other-tenant", "workspace"],
  awaits: ["wallet", "asset", "withdrawal", "webhook", "delivery"],
  timeoutScale: 3,
  sends:
    "every read of this workspace's records (by id, or by its workspace path) with the other workspace's key, each after the same request with this workspace's key (at seed level the path alone where this workspace's key is refused a query string)",
  async run(ctx) {
    const other = await ctx.need("other-tenant");
    const records = await recordsOf(ctx);
    const wrong: WrongCell[] = [];
    const judged: string[] = [];
    for (const op of readOperations(ctx, records)) {
      // The owner's key on the same request first (ctx.sendJudged): the record is there and the
      // request well-formed, so a refusal of the other key is about the tenant.
      const sent = await ctx.sendJudged(op.operationId, requestFor(op, records), other.credentials);
      if (!sent) continue;
      judged.push(op.operationId);
      const problem = refusalProblem(sent.ex);
      if (problem) wrong.push(fromExchange(sent.ex, `${op.operationId} ${problem}`));
    }
    const notJudged = ctx.skippedCells.map((c) => c.cell);
    ctx.fact(
      "isolation",
      `${judged.length} reads tried with the other workspace's key: ${judged.join(", ")}${notJudged.length ? `; not judged: ${notJudged.join(", ")}` : ""}`,
    );
    if (judged.length === 0)
      skip(`no read of the workspace's records could be judged${notJudged.length ? `: ${ctx.notJudged()}` : ""}`);
    verdict("reads of this workspace's records with another workspace's key", wrong, judged.length);
  },
};
