// A failing case shrunk to the smallest one that still fails the same way.

import { type FuzzCase, type FuzzInput, judgeInput } from "../../fuzz/cases.ts";
import { removeAt } from "../../fuzz/values.ts";
import type { CheckContext } from "../../run/context.ts";
import type { OperationInfo } from "../../run/operations.ts";
import { attempt, type Failure } from "./one-case.ts";

const SHRINK_BUDGET = 30;

/** Smaller variants of a case (one change each), largest first. */
function smaller(op: OperationInfo, c: FuzzCase): FuzzInput[] {
  const out: FuzzInput[] = [];
  const keep = c.mutation ? c.mutation.path.join(".") : "";
  const on = (part: string, path: string[]) =>
    c.mutation?.part === part && (keep.startsWith(path.join(".")) || path.join(".").startsWith(keep));
  if (c.rawBody === undefined && c.body && typeof c.body === "object" && !Array.isArray(c.body)) {
    for (const name of Object.keys(c.body)) {
      if (!on("body", [name])) out.push({ ...c, body: removeAt(c.body, [name]) });
    }
    for (const [name, value] of Object.entries(c.body as Record<string, unknown>)) {
      if (typeof value === "string" && value.length > 8 && !on("body", [name]))
        out.push({ ...c, body: { ...(c.body as object), [name]: value.slice(0, Math.ceil(value.length / 2)) } });
    }
  }
  for (const name of Object.keys(c.query)) {
    if (!on("query", [name])) {
      const query = { ...c.query };
      delete query[name];
      out.push({ ...c, query });
    }
  }
  void op;
  return out;
}

export async function shrink(
  ctx: CheckContext,
  op: OperationInfo,
  start: FuzzCase,
  failure: Failure,
): Promise<{ case: FuzzCase; failure: Failure; steps: number }> {
  let current = start;
  let currentFailure = failure;
  let budget = SHRINK_BUDGET;
  let steps = 0;
  let improved = true;
  while (improved && budget > 0 && !ctx.signal.aborted) {
    improved = false;
    for (const input of smaller(op, current)) {
      if (budget-- <= 0) break;
      const verdict = judgeInput(op, input);
      if ((verdict === undefined) !== current.valid) continue;
      const candidate: FuzzCase = {
        ...input,
        index: current.index,
        valid: current.valid,
        ...(verdict ? { reason: verdict } : {}),
        ...(current.mutation ? { mutation: current.mutation } : {}),
      };
      const again = await attempt(ctx, op, candidate).catch(() => undefined);
      if (again && again.kind === currentFailure.kind) {
        current = candidate;
        currentFailure = again;
        steps++;
        improved = true;
        break;
      }
    }
  }
  return { case: current, failure: currentFailure, steps };
}
