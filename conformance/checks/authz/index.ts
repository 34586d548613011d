// The authorization matrix, derived from the spec: every operation is called with each kind of key
// the run holds, and the answer must follow the operation's x-custody-min-role and
// x-custody-scopes. Allowed: never 401/403 (nor 5xx). Not allowed: 403 with the error envelope.
// Another workspace: 403 or 404, never data. Writes carry ids nobody has (requests.ts).
import { randomUUID } from "node:crypto";
import type { CheckContext } from "../../context.ts";
import { envelopeProblem } from "../../expect.ts";
import { CheckFailed } from "../../outcome.ts";
import type { OperationInfo } from "../../operations.ts";
import { pathParams } from "../../operations.ts";
import type { HttpExchange } from "../../probe.ts";
import type { Check } from "../../check.ts";
import type { Evidence } from "../../types.ts";
import { allows, createMatrixKey, specScopes, type MatrixKey } from "./keys.ts";
import { cellRequest, type KnownIds } from "./requests.ts";
import { mapLimit } from "../../targets.ts";

interface WrongCell {
  operationId: string;
  message: string;
  evidence: Evidence;
}

async function knownIds(ctx: CheckContext): Promise<KnownIds> {
  const ids: KnownIds = { workspace_id: await ctx.need("workspace") };
  const wallet = await ctx.settle("wallet");
  if (wallet.ok) ids.wallet_id = wallet.value.walletId;
  const asset = await ctx.settle("asset");
  if (asset.ok) ids.asset_id = asset.value.assetId;
  return ids;
}

function describeOp(op: OperationInfo): string {
  return `min role ${op.minRole}, scopes ${op.scopes.join(", ") || "none"}`;
}

/**
 * A row's cells at a time, and single-scope keys at a time: the cells are independent (writes name
 * no real record), and one after another they cost a distant deployment's round trip each (about 600
 * requests in the scope matrix: 90 s at 150 ms).
 */
const CELLS_AT_ONCE = 4;
const SCOPE_KEYS_AT_ONCE = 3;

/** Every cell of one key's row; the wrong ones, in the order of the operations. */
async function row(ctx: CheckContext, key: MatrixKey, ids: KnownIds): Promise<WrongCell[]> {
  const cells = await mapLimit(
    ctx.operations,
    CELLS_AT_ONCE,
    async (op): Promise<WrongCell | undefined> => {
      const allowed = allows(key, op);
      if (allowed === undefined) return undefined;
      const { args } = cellRequest(op, ids, allowed);
      const ex = await ctx.call(op.operationId, { ...args, credentials: key.credentials });
      const problem = allowed ? allowedProblem(ex) : refusedProblem(ex);
      return problem ? { operationId: op.operationId, message: `${op.operationId} (${describeOp(op)}) ${problem}`, evidence: ex.evidence } : undefined;
    },
    ctx.signal,
  );
  return cells.filter((c): c is WrongCell => c !== undefined);
}

function allowedProblem(ex: HttpExchange): string | undefined {
  const status = ex.response.status;
  if (status === 401 || status === 403) return `was refused with HTTP ${status} though the key may call it`;
  if (status >= 500) return `answered HTTP ${status}`;
  return undefined;
}

function refusedProblem(ex: HttpExchange): string | undefined {
  const status = ex.response.status;
  if (status !== 403) return `answered HTTP ${status} where the key must be refused with 403`;
  let body: unknown;
  try {
    body = JSON.parse(ex.response.text);
  } catch {
    return "refused with a 403 whose body is not JSON";
  }
  const problem = envelopeProblem(body);
  if (problem) return `refused with a 403 that is not the error envelope: ${problem}`;
  if ((body as { success?: unknown }).success !== false) return "refused with a 403 whose success is not false";
  return undefined;
}

function verdict(label: string, wrong: WrongCell[], cells: number): void {
  if (wrong.length === 0) return;
  const listed = wrong.slice(0, 6).map((w) => w.message).join("; ");
  const more = wrong.length > 6 ? `; and ${wrong.length - 6} more` : "";
  throw new CheckFailed(`${label}: ${wrong.length} of ${cells} operations answered against the spec: ${listed}${more}`, {
    ...wrong[0].evidence,
    details: { wrong: wrong.map((w) => w.message) },
  });
}

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
    const key: MatrixKey = { label: "viewer key", credentials: await ctx.need("viewer-key"), role: "viewer", scopes: ["*"] };
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
    const key: MatrixKey = { label: "balances:read key", credentials: await ctx.need("scoped-key"), scopes: ["balances:read"] };
    verdict("balances:read key", await row(ctx, key, await knownIds(ctx)), ctx.operations.length);
  },
};

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
    const rows = await mapLimit(scopes, SCOPE_KEYS_AT_ONCE, async (scope) => row(ctx, await createMatrixKey(ctx, ids.workspace_id!, "admin", [scope]), ids), ctx.signal);
    for (const [index, cells] of rows.entries()) for (const cell of cells ?? []) wrong.push({ ...cell, message: `[${scopes[index]}] ${cell.message}` });
    ctx.fact("authz", `${scopes.length} single-scope keys × ${ctx.operations.length} operations`);
    verdict("single-scope keys", wrong, scopes.length * ctx.operations.length);
  },
};

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
      if (status !== 403 && status !== 404) wrong.push({ operationId: op.operationId, message: `${op.operationId} answered HTTP ${status} for another workspace`, evidence: ex.evidence });
    }
    verdict("another workspace", wrong, cells);
  },
};

export const authzChecks: Check[] = [viewerMatrix, scopedMatrix, scopeByScopeMatrix, adminMatrix, otherWorkspaceMatrix];
