// The responses the envelope checks examine, gathered once per run (like Schemathesis applying its
// checks to each response): every read operation signed, plus an unauthorized and a not-found
// answer, so successes and errors are both covered.
import { CheckContext, type Suite } from "../../run/context.ts";
import type { OperationInfo } from "../../run/operations.ts";
import { findOperation, isRead } from "../../run/operations.ts";
import type { HttpExchange } from "../../transport/probe.ts";
import { sendCase, signed } from "../auth/matrix.ts";
import { knownIds, mapLimit, operationsInScope, planRequest } from "../request-plans.ts";

export interface Sample {
  op: OperationInfo;
  /** What was sent, in words, for failure messages. */
  label: string;
  ex: HttpExchange;
}

const memo = new WeakMap<Suite, Promise<Sample[]>>();

/** Real records make for real successes: the envelope checks let these settle first. */
export const SAMPLE_PREREQUISITES = ["workspace", "wallet", "asset"] as const;

export function samples(ctx: CheckContext): Promise<Sample[]> {
  let pending = memo.get(ctx.suite);
  if (!pending) {
    // Gathered under the run's signal, not the first caller's: one check's time limit must not
    // cancel what the others share.
    pending = gather(new CheckContext(ctx.suite, ctx.suite.signal));
    memo.set(ctx.suite, pending);
  }
  return pending;
}

async function gather(ctx: CheckContext): Promise<Sample[]> {
  const ids = knownIds(ctx);
  const reads = operationsInScope(ctx).filter(isRead);
  const out: Sample[] = [];
  // A transport failure (hang, reset, redirect) rejects the whole sample at once, with its reason.
  await mapLimit(reads, 6, async (op) => {
    const plan = planRequest(op, ids);
    const ex = await sendCase(ctx, plan, { label: "signed", headers: signed(plan, ctx.config.admin) });
    out.push({ op, label: `a signed ${op.operationId}`, ex });
  });
  const overview = findOperation(ctx.operations, "getWalletOverview") ?? reads[0];
  if (overview) {
    const unauth = planRequest(overview, ids);
    out.push({
      op: overview,
      label: `${overview.operationId} without credentials`,
      ex: await sendCase(ctx, unauth, { label: "none", headers: {} }),
    });
    const missing = planRequest(overview, { ...ids, wallet_id: unknownWalletId() });
    out.push({
      op: overview,
      label: `${overview.operationId} of an unknown wallet`,
      ex: await sendCase(ctx, missing, { label: "signed", headers: signed(missing, ctx.config.admin) }),
    });
  }
  return out;
}

export function unknownWalletId(): string {
  return `certify-unknown-wallet-${Date.now().toString(36)}`;
}
