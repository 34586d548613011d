// Judging every answer of the shared sample (samples.ts) by one rule.
import type { CheckContext } from "../../run/context.ts";
import type { Check } from "../check.ts";
import { failWith } from "../expect.ts";
import { skip } from "../outcome.ts";
import { SAMPLE_PREREQUISITES, type Sample, samples } from "./samples.ts";

/** Sampling takes a round of requests; the checks that share it get twice the time. */
export const SAMPLING: Pick<Check, "awaits" | "timeoutScale"> = { awaits: [...SAMPLE_PREREQUISITES], timeoutScale: 2 };

export function parsed(s: Sample): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(s.ex.response.text) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export const is2xx = (s: Sample) => s.ex.response.status >= 200 && s.ex.response.status < 300;

/** Applies `problem` to each sample; fails on the first sample with a problem, counting the rest. */
export async function everySample(
  ctx: CheckContext,
  filter: (s: Sample) => boolean,
  none: string,
  problem: (s: Sample) => string | undefined,
): Promise<void> {
  const chosen = (await samples(ctx)).filter(filter);
  // The one way to a successful read at seed level is a record the run is given.
  if (chosen.length === 0) skip(none, none === NO_SUCCESS ? "--wallet-id or --workspace-id" : undefined);
  const bad = chosen.map((s) => ({ s, p: problem(s) })).filter((x) => x.p !== undefined);
  if (bad.length > 0) {
    const { s, p } = bad[0];
    const more =
      bad.length > 1
        ? ` (${bad.length} of ${chosen.length} responses; also ${bad
            .slice(1, 4)
            .map((b) => b.s.op.operationId)
            .join(", ")})`
        : "";
    failWith(s.ex, `${s.label}: ${p}${more}`);
  }
}

export const NO_SUCCESS = "no successful read to examine (pass --wallet-id or --workspace-id at seed level)";
