// What the chains checks share: the wallet's address of a family (getDepositAddress with address_type,
// the operation the real service's examples read it from), and polling a /web3 request to its end the
// way the real service's SolanaSigner does (getTransactionStatus until confirmed|completed with a hash).

import type { FixtureValues } from "../../provision/registry.ts";
import type { CheckContext } from "../../run/context.ts";
import { pollUntil } from "../../run/context.ts";
import { expectSuccess } from "../expect.ts";
import { fail, skip } from "../outcome.ts";
import type { Evidence, Prerequisite } from "../types.ts";

export interface FamilyAddress {
  address: string;
  addressType: unknown;
  evidence: Evidence;
}

export async function addressOf(
  ctx: CheckContext,
  walletId: string,
  family: "evm" | "sol" | "tron",
): Promise<FamilyAddress> {
  const ex = await ctx.call("getDepositAddress", { params: { wallet_id: walletId }, query: { address_type: family } });
  const data = expectSuccess(ex, ctx.operation("getDepositAddress")) as Record<string, unknown> | null;
  if (typeof data?.address !== "string")
    fail(`getDepositAddress?address_type=${family} answered no address`, ex.evidence);
  return { address: data.address, addressType: data.address_type, evidence: ex.evidence };
}

/** Polls getTransactionStatus until confirmed|completed with a hash (the SolanaSigner's success), or fails with the last answer. */
export async function web3Result(
  ctx: CheckContext,
  walletId: string,
  transactionId: string,
): Promise<{ hash: string; data: Record<string, unknown>; evidence: Evidence }> {
  let last: { data?: Record<string, unknown>; evidence?: Evidence } = {};
  const done = await pollUntil(
    async () => {
      const ex = await ctx.call("getTransactionStatus", {
        params: { wallet_id: walletId, transaction_id: transactionId },
      });
      const data = expectSuccess(ex, ctx.operation("getTransactionStatus")) as Record<string, unknown>;
      last = { data, evidence: ex.evidence };
      if (data.status === "failed" || data.status === "rejected")
        fail(`the request ended ${String(data.status)}: ${String(data.failed_reason ?? "")}`, ex.evidence);
      return (data.status === "confirmed" || data.status === "completed") && typeof data.hash === "string"
        ? data
        : undefined;
    },
    ctx.timeoutMs * 2,
    250,
    ctx.signal,
  );
  if (!done)
    fail(
      `getTransactionStatus never answered confirmed or completed with a hash (last: ${JSON.stringify(last.data)})`,
      last.evidence,
    );
  return { hash: done.hash as string, data: done, evidence: last.evidence! };
}

/** The transaction_id of an accepted /web3 request. */
export function acceptedId(ctx: CheckContext, operationId: string, ex: Parameters<typeof expectSuccess>[0]): string {
  const data = expectSuccess(ex, ctx.operation(operationId)) as Record<string, unknown> | null;
  if (typeof data?.transaction_id !== "string") fail(`${operationId} answered no transaction_id`, ex.evidence);
  return data.transaction_id;
}

/** A prerequisite this check owns: its setup failure is this check's failure. */
export async function owned<K extends Prerequisite>(ctx: CheckContext, name: K): Promise<FixtureValues[K]> {
  const result = await ctx.settle(name);
  if (result.ok) return result.value;
  if (result.failure) throw result.failure;
  skip(result.reason, result.needs);
}
