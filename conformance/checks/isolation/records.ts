// The first workspace's records the isolation checks address: the ones the run created or was
// given, never invented ids (a refusal of an id nobody has says nothing about isolation), and how a
// request to them is filled in.

import { Prng } from "../../fuzz/prng.ts";
import { inputSchema } from "../../fuzz/schema.ts";
import { validValue } from "../../fuzz/values.ts";
import type { CallArgs, CheckContext } from "../../run/context.ts";
import type { OperationInfo } from "../../run/operations.ts";
import { pathParams } from "../../run/operations.ts";

/** Path parameters that name a record of the first workspace, by the parameter's name. */
export type Records = Partial<
  Record<"workspace_id" | "wallet_id" | "asset_id" | "withdrawal_id" | "webhook_id" | "delivery_id" | "key_id", string>
>;

/** The records the run holds (created at --level full, given by flags at --level seed). */
export async function recordsOf(ctx: CheckContext): Promise<Records> {
  const records: Records = { workspace_id: await ctx.need("workspace") };
  const [wallet, asset, withdrawal, webhook, delivery] = await Promise.all([
    ctx.settle("wallet"),
    ctx.settle("asset"),
    ctx.settle("withdrawal"),
    ctx.settle("webhook"),
    ctx.settle("delivery"),
  ]);
  if (wallet.ok) records.wallet_id = wallet.value.walletId;
  if (asset.ok) records.asset_id = asset.value.assetId;
  if (withdrawal.ok) records.withdrawal_id = withdrawal.value;
  if (webhook.ok) records.webhook_id = webhook.value.id;
  if (delivery.ok) records.delivery_id = delivery.value.deliveryId;
  return records;
}

/** True when every path parameter of the operation names a record the run holds. */
export function addressable(op: OperationInfo, records: Records): boolean {
  const params = pathParams(op);
  return params.length > 0 && params.every((p) => records[p as keyof Records] !== undefined);
}

/**
 * The request to the operation for these records: the path filled with them, and the query's
 * required members (a record's id where the member is named after one, e.g. asset_id, else a valid
 * value of its schema), so that only tenancy can stop it.
 */
export function requestFor(op: OperationInfo, records: Records, body?: unknown): CallArgs {
  const params: Record<string, string> = {};
  for (const name of pathParams(op)) params[name] = records[name as keyof Records]!;
  const query: Record<string, string> = {};
  const schema = inputSchema(op, "query");
  const prng = new Prng("isolation", op.operationId);
  for (const [name, member] of Object.entries(schema?.properties ?? {})) {
    const known = records[name as keyof Records];
    if (known !== undefined) query[name] = known;
    else if (schema?.required?.includes(name)) query[name] = String(validValue(member, prng));
  }
  return { params, query, ...(body !== undefined ? { body } : {}) };
}
