// One row of the authorization matrix: every operation tried with one key, each cell judged against the spec's roles and scopes.
import type { CheckContext } from "../../run/context.ts";
import type { OperationInfo } from "../../run/operations.ts";
import type { HttpExchange } from "../../transport/probe.ts";
import { envelopeProblem } from "../expect.ts";
import { CheckFailed } from "../outcome.ts";
import { mapLimit } from "../request-plans.ts";
import type { Evidence } from "../types.ts";
import { allows, type MatrixKey } from "./keys.ts";
import { cellRequest, type KnownIds } from "./requests.ts";

export interface WrongCell {
  operationId: string;
  message: string;
  evidence: Evidence;
}

export async function knownIds(ctx: CheckContext): Promise<KnownIds> {
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

/** Every cell of one key's row; the wrong ones, in the order of the operations. */
export async function row(ctx: CheckContext, key: MatrixKey, ids: KnownIds): Promise<WrongCell[]> {
  const cells = await mapLimit(
    ctx.operations,
    CELLS_AT_ONCE,
    async (op): Promise<WrongCell | undefined> => {
      const allowed = allows(key, op);
      if (allowed === undefined) return undefined;
      const { args } = cellRequest(op, ids, allowed);
      const ex = await ctx.call(op.operationId, { ...args, credentials: key.credentials });
      const problem = allowed ? allowedProblem(ex) : refusedProblem(ex);
      return problem
        ? {
            operationId: op.operationId,
            message: `${op.operationId} (${describeOp(op)}) ${problem}`,
            evidence: ex.evidence,
          }
        : undefined;
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

export function verdict(label: string, wrong: WrongCell[], cells: number): void {
  if (wrong.length === 0) return;
  const listed = wrong
    .slice(0, 6)
    .map((w) => w.message)
    .join("; ");
  const more = wrong.length > 6 ? `; and ${wrong.length - 6} more` : "";
  throw new CheckFailed(
    `${label}: ${wrong.length} of ${cells} operations answered against the spec: ${listed}${more}`,
    {
      ...wrong[0].evidence,
      details: { wrong: wrong.map((w) => w.message) },
    },
  );
}
