// Reads of the first workspace's records with another workspace's key: every read operation whose
// path names only records the run holds (at --level seed the seed's operations 1-5 and 8), each
// refused, while the same request with the workspace's own key succeeds (the control that shows the
// record is there and the request is well-formed, so the refusal is about the tenant).
import type { Check } from "../check.ts";
import type { CheckContext } from "../../run/context.ts";
import { skip } from "../outcome.ts";
import { isRead, type OperationInfo } from "../../run/operations.ts";
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
  title: "Another workspace's key reads none of this workspace's records: each read by id or by this workspace's path is refused (4xx, not 401)",
  severity: "MUST",
  seedRef: "§1 (wallets, balances, withdrawals, webhooks and deliveries are a workspace's); §5 (the API key identifies who calls); OWASP API1:2023",
  level: "seed",
  requires: ["other-tenant", "workspace"],
  awaits: ["wallet", "asset", "withdrawal", "webhook", "delivery"],
  timeoutScale: 3,
  sends: "every read of this workspace's records (by id, or by its workspace path) with the other workspace's key, each beside the same request with this workspace's key",
  async run(ctx) {
    const other = await ctx.need("other-tenant");
    const records = await recordsOf(ctx);
    const wrong: WrongCell[] = [];
    const inconclusive: string[] = [];
    const judged: string[] = [];
    for (const op of readOperations(ctx, records)) {
      const args = requestFor(op, records);
      const foreign = await ctx.call(op.operationId, { ...args, credentials: other.credentials });
      const problem = refusalProblem(foreign);
      if (problem) {
        judged.push(op.operationId);
        wrong.push(fromExchange(foreign, `${op.operationId} ${problem}`));
        continue;
      }
      const own = await ctx.call(op.operationId, args);
      if (own.response.status < 200 || own.response.status > 299) {
        inconclusive.push(`${op.operationId} (the workspace's own key got HTTP ${own.response.status})`);
        continue;
      }
      judged.push(op.operationId);
    }
    ctx.fact("isolation", `${judged.length} reads tried with the other workspace's key: ${judged.join(", ")}${inconclusive.length ? `; not judged: ${inconclusive.join(", ")}` : ""}`);
    if (judged.length === 0) skip(`no read of the workspace's records could be judged${inconclusive.length ? `: ${inconclusive.join(", ")}` : ""}`);
    verdict("reads of this workspace's records with another workspace's key", wrong, judged.length);
  },
};
