// The matrix rows of the viewer key and the scoped key.
import type { Check } from "../check.ts";
import type { MatrixKey } from "./keys.ts";
import { knownIds, row, verdict } from "./matrix-cells.ts";

export const viewerMatrix: Check = {
  id: "authz.viewer-matrix",
  statements: ["s5.rule3-viewer-reads", "s5.rule3-viewer-no-writes", "s5.rule3-higher-roles"],
  group: "authz",
  title: "A viewer key gets every operation whose min role is viewer, and 403 on every other",
  severity: "MUST",
  seedRef: "§5 rule 3; x-custody-min-role of every operation",
  level: "full",
  requires: ["viewer-key", "workspace"],
  awaits: ["wallet", "asset"],
  timeoutScale: 3,
  sends: "every operation with the viewer key",
  async run(ctx) {
    const key: MatrixKey = {
      label: "viewer key",
      credentials: await ctx.need("viewer-key"),
      role: "viewer",
      scopes: ["*"],
    };
    verdict("viewer key", await row(ctx, key, await knownIds(ctx)), ctx.operations.length);
  },
};

export const scopedMatrix: Check = {
  id: "authz.scoped-matrix",
  statements: ["s5.rule2-scopes"],
  group: "authz",
  title: "A balances:read key gets the balance reads, and 403 on every operation needing another scope",
  severity: "MUST",
  seedRef: "§5 rule 2; x-custody-scopes of every operation",
  level: "full",
  requires: ["scoped-key", "workspace"],
  awaits: ["wallet", "asset"],
  timeoutScale: 3,
  sends: "every operation with the balances:read key",
  async run(ctx) {
    const key: MatrixKey = {
      label: "balances:read key",
      credentials: await ctx.need("scoped-key"),
      scopes: ["balances:read"],
    };
    verdict("balances:read key", await row(ctx, key, await knownIds(ctx)), ctx.operations.length);
  },
};
