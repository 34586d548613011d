// One fuzz check per operation (`certify --fuzz N`).

import { drawCase } from "../../fuzz/cases.ts";
import { Prng } from "../../fuzz/prng.ts";
import type { CheckContext } from "../../run/context.ts";
import type { OperationInfo } from "../../run/operations.ts";
import type { Check } from "../check.ts";
import { CheckFailed } from "../outcome.ts";
import type { Level } from "../types.ts";
import { isGuarded } from "./guarded.ts";
import { attempt, describe } from "./one-case.ts";
import { shrink } from "./shrink.ts";

export interface FuzzOptions {
  /** Cases per operation. */
  cases: number;
  seed: string;
  /** Send valid cases to guarded operations too. */
  allowWrites: boolean;
  /** Wall-clock budget of the whole fuzz run, in seconds (cases stop being drawn after it). */
  timeSeconds?: number;
}

/** Id parameters the fuzzer fills with existing records when the run has them. */
const ID_FIXTURES = ["workspace", "wallet", "asset"] as const;

/**
 * One check per operation. At --level full every operation, MUST. At --level seed only the seed's
 * operations, as SHOULD: the seed states the envelope of answers, not how invalid input is refused.
 */
export function fuzzChecks(
  operations: OperationInfo[],
  options: FuzzOptions,
  level: Level = "full",
  after: string[] = [],
): Check[] {
  const deadline = options.timeSeconds !== undefined ? Date.now() + options.timeSeconds * 1000 : undefined;
  const inScope = level === "full" ? operations : operations.filter((op) => op.source === "seed");
  return inScope.map((op) => ({
    id: `fuzz.${op.operationId}`,
    group: "fuzz" as const,
    title: `${op.operationId}: ${options.cases} schema-driven cases; valid ones never 5xx, invalid ones get a 4xx envelope`,
    severity: level === "full" ? ("MUST" as const) : ("SHOULD" as const),
    seedRef: "§2.1 (every answer is the envelope); assumed: requests that break the schema are refused with 400",
    level,
    awaits: [...ID_FIXTURES],
    // After the rest of the suite: the records valid cases create (webhooks to unreachable URLs, wallets)
    // would otherwise slow the deliveries and chain watching other checks time.
    after,
    // N requests, each bounded by --timeout-ms; the check's own limit grows with N.
    timeoutScale: Math.max(1, options.cases / 20),
    sends: `${op.operationId}, ${options.cases} times, signed, with inputs drawn from its schemas (valid and invalid)`,
    run: (ctx) => fuzzOperation(ctx, op.operationId, options, deadline),
  }));
}

async function fuzzOperation(
  ctx: CheckContext,
  operationId: string,
  options: FuzzOptions,
  deadline?: number,
): Promise<void> {
  const op = ctx.operation(operationId);
  const guarded = isGuarded(op) && !options.allowWrites;
  const prng = new Prng(options.seed, op.operationId);
  const ids = await knownIds(ctx);
  let sent = 0;
  let valid = 0;
  for (let index = 0; index < options.cases; index++) {
    if ((deadline !== undefined && Date.now() > deadline) || ctx.signal.aborted) break;
    const c = drawCase({ op, prng, ids, placeholderIds: guarded, validAllowed: !guarded }, index);
    if (!c) continue;
    sent++;
    if (c.valid) valid++;
    const failure = await attempt(ctx, op, c);
    if (!failure) continue;
    const smallest = await shrink(ctx, op, c, failure);
    throw new CheckFailed(
      `${smallest.failure.message} — ${describe(smallest.case)}; seed ${options.seed}, case ${index} (reproduce: --fuzz ${options.cases} --seed ${options.seed} --only fuzz)`,
      {
        ...smallest.failure.evidence,
        details: {
          seed: options.seed,
          case: index,
          valid: smallest.case.valid,
          reason: smallest.case.reason,
          mutation: smallest.case.mutation,
          shrinkSteps: smallest.steps,
        },
      },
    );
  }
  ctx.fact(
    "fuzz",
    `${sent} cases (${valid} valid, ${sent - valid} invalid), seed ${options.seed}${guarded ? ", invalid only (guarded; --allow-writes)" : ""}`,
  );
}

async function knownIds(ctx: CheckContext): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  const workspace = await ctx.settle("workspace");
  if (workspace.ok) ids.workspace_id = workspace.value;
  const wallet = await ctx.settle("wallet");
  if (wallet.ok) ids.wallet_id = wallet.value.walletId;
  const asset = await ctx.settle("asset");
  if (asset.ok) ids.asset_id = asset.value.assetId;
  return ids;
}
