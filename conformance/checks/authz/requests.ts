// The request each cell of the authorization matrix sends: schema-valid (so a deployment that
// validates before it authorizes still reaches its authorization), with ids of this workspace's
// records for reads and, wherever a wrong answer could move or change anything, ids nobody has.
import { randomUUID } from "node:crypto";
import { Prng } from "../../fuzz/prng.ts";
import { inputSchema } from "../../fuzz/schema.ts";
import { validValue } from "../../fuzz/values.ts";
import type { CallArgs } from "../../run/context.ts";
import { isRead, type OperationInfo, pathParams } from "../../run/operations.ts";

/** Operations that create a record without an id to point elsewhere: the allowed cell sends `{}` (400, not 403). */
const CREATES = new Set(["createWallet", "createWebhook", "createApiKey"]);

export interface KnownIds {
  workspace_id?: string;
  wallet_id?: string;
  asset_id?: string;
}

export interface CellRequest {
  args: CallArgs;
  /** True when every id in the path names a record of this workspace (a read must then succeed). */
  realIds: boolean;
}

/**
 * The request for one operation. `allowed`: the key may call it, so creation bodies are left empty
 * to create nothing; otherwise the body is valid so only the refusal can stop it.
 */
export function cellRequest(op: OperationInfo, ids: KnownIds, allowed: boolean): CellRequest {
  const params: Record<string, string> = {};
  let realIds = true;
  for (const name of pathParams(op)) {
    const known = ids[name as keyof KnownIds];
    // Writes never name a real record other than the workspace: a wrongly allowed call finds nothing.
    if (known !== undefined && (isRead(op) || name === "workspace_id")) params[name] = known;
    else {
      params[name] = randomUUID();
      realIds = false;
    }
  }
  const prng = new Prng("authz", op.operationId);
  const query = textual(validValue(inputSchema(op, "query") ?? {}, prng));
  const headers = textual(validValue(inputSchema(op, "headers") ?? {}, prng));
  const args: CallArgs = { params, query, headers };
  if (op.bodySchema) {
    const body = allowed && CREATES.has(op.operationId) ? {} : validValue(inputSchema(op, "body") ?? {}, prng);
    // Ids inside bodies point nowhere either (asset ids of attachAsset and withdrawals).
    args.body =
      body && typeof body === "object" && !Array.isArray(body)
        ? withPlaceholderIds(body as Record<string, unknown>)
        : body;
  }
  return { args, realIds };
}

function withPlaceholderIds(body: Record<string, unknown>): Record<string, unknown> {
  const out = { ...body };
  for (const key of Object.keys(out)) if (/_id$/.test(key) && typeof out[key] === "string") out[key] = randomUUID();
  if (typeof out.recipient_address === "string") out.recipient_address = "0x000000000000000000000000000000000000dEaD";
  if (typeof out.amount === "string") out.amount = "0.000001";
  return out;
}

function textual(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value))
      if (v !== undefined) out[k] = typeof v === "string" ? v : JSON.stringify(v);
  return out;
}
