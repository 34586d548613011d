// The matrix row of a key per scope the spec names.
import type { Check } from "../check.ts";
import { mapLimit } from "../request-plans.ts";
import { createMatrixKey, specScopes } from "./keys.ts";
import { knownIds, row, verdict, type WrongCell } from "./matrix-cells.ts";

const SCOPE_KEYS_AT_ONCE = 3;

export const scopeByScopeMatrix: Check = {
  id: "authz.scope-matrix",
  statements: ["s5.rule2-scopes"],
  group: "authz",
  title: "For each scope of the spec, a key holding only it gets exactly the operations that scope covers",
  severity: "MUST",
  seedRef: "§5 rule 2; x-custody-scopes of every operation",
  level: "full",
  requires: ["workspace"],
  awaits: ["wallet", "asset"],
  timeoutScale: 6,
  sends: "every operation with one key per scope of the spec (created with createApiKey, revoked at the end)",
  async run(ctx) {
    const ids = await knownIds(ctx);
    const wrong: WrongCell[] = [];
    const scopes = specScopes(ctx.operations);
    const rows = await mapLimit(
      scopes,
      SCOPE_KEYS_AT_ONCE,
      async (scope) => row(ctx, await createMatrixKey(ctx, ids.workspace_id!, "admin", [scope]), ids),
      ctx.signal,
    );
    for (const [index, cells] of rows.entries())
      for (const cell of cells ?? []) wrong.push({ ...cell, message: `[${scopes[index]}] ${cell.message}` });
    ctx.fact("authz", `${scopes.length} single-scope keys × ${ctx.operations.length} operations`);
    verdict("single-scope keys", wrong, scopes.length * ctx.operations.length);
  },
};
