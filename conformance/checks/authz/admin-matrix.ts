// The matrix row of the admin key.
import type { Check } from "../check.ts";
import { createMatrixKey } from "./keys.ts";
import { knownIds, row, verdict } from "./matrix-cells.ts";

export const adminMatrix: Check = {
  id: "authz.admin-matrix",
  statements: ["s5.rule3-higher-roles"],
  group: "authz",
  title: "An admin key with every scope gets all but the owner's operations, which answer 403",
  severity: "MUST",
  seedRef: "§5 rule 3 (higher roles); x-custody-min-role of every operation",
  level: "full",
  requires: ["workspace"],
  awaits: ["wallet", "asset"],
  timeoutScale: 3,
  sends: "every operation with an admin key holding every scope (created, revoked at the end)",
  async run(ctx) {
    const ids = await knownIds(ctx);
    const key = await createMatrixKey(ctx, ids.workspace_id!, "admin", ["*"]);
    verdict("admin key", await row(ctx, key, ids), ctx.operations.length);
  },
};
