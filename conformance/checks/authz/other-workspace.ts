// Every operation naming a workspace is refused another workspace's id.
import { randomUUID } from "node:crypto";
import { pathParams } from "../../run/operations.ts";
import type { Check } from "../check.ts";
import { verdict, type WrongCell } from "./matrix-cells.ts";
import { cellRequest } from "./requests.ts";

export const otherWorkspaceMatrix: Check = {
  id: "authz.other-workspace",
  statements: ["s1.mpc-wallets-in-workspace"],
  group: "authz",
  title: "Every workspace operation, called for another workspace, answers 403 or 404 and never data",
  severity: "MUST",
  seedRef: "§1 (wallets live inside a workspace); assumed: workspace isolation",
  level: "full",
  timeoutScale: 3,
  sends: "every operation that takes a workspace_id, for a workspace id nobody has",
  async run(ctx) {
    const other = randomUUID();
    const wrong: WrongCell[] = [];
    let cells = 0;
    for (const op of ctx.operations) {
      if (!pathParams(op).includes("workspace_id")) continue;
      cells++;
      const { args } = cellRequest(op, { workspace_id: other }, false);
      const ex = await ctx.call(op.operationId, args);
      const status = ex.response.status;
      if (status !== 403 && status !== 404)
        wrong.push({
          operationId: op.operationId,
          message: `${op.operationId} answered HTTP ${status} for another workspace`,
          evidence: ex.evidence,
        });
    }
    verdict("another workspace", wrong, cells);
  },
};
