// One fuzz case: sent, judged (a valid case never 5xx, an invalid one a 4xx error envelope), and what it created undone.

import { bodyText, type FuzzCase } from "../../fuzz/cases.ts";
import type { CheckContext } from "../../run/context.ts";
import type { OperationInfo } from "../../run/operations.ts";
import type { HttpExchange } from "../../transport/probe.ts";
import { responseProblems } from "../expect.ts";
import { CheckFailed } from "../outcome.ts";
import type { Evidence } from "../types.ts";

export interface Failure {
  /** 5xx | accepted | conformance | transport: a shrunk case must fail the same way. */
  kind: string;
  message: string;
  evidence?: Evidence;
}

export function describe(c: FuzzCase): string {
  const what = c.mutation
    ? `${c.mutation.part}${c.mutation.path.length ? `.${c.mutation.path.join(".")}` : ""}: ${c.mutation.what}`
    : "an unmutated draw";
  return c.valid ? `valid case (${what})` : `invalid case (${what}; ${c.reason})`;
}

export async function attempt(ctx: CheckContext, op: OperationInfo, c: FuzzCase): Promise<Failure | undefined> {
  let ex: HttpExchange;
  try {
    ex = await ctx.call(op.operationId, {
      params: c.params,
      query: c.query,
      headers: c.headers,
      body: bodyText(op, c),
    });
  } catch (err) {
    if (err instanceof CheckFailed && !ctx.signal.aborted)
      return { kind: "transport", message: `no answer: ${err.message}`, evidence: err.evidence };
    throw err;
  }
  if (ex.response.status >= 200 && ex.response.status < 300) tidyCreated(ctx, op, c, ex);
  return judgeAnswer(op, c, ex);
}

/** Operations whose records a valid case creates, and how to remove them after the run. */
const UNDO: Record<string, { operationId: string; idParam: string }> = {
  createWebhook: { operationId: "deleteWebhook", idParam: "webhook_id" },
  createApiKey: { operationId: "revokeApiKey", idParam: "key_id" },
};

/** A secret in an answer joins the redaction list at once; created webhooks and keys are removed at the end. */
function tidyCreated(ctx: CheckContext, op: OperationInfo, c: FuzzCase, ex: HttpExchange): void {
  let data: Record<string, unknown> | undefined;
  try {
    data = (JSON.parse(ex.response.text) as { data?: Record<string, unknown> }).data;
  } catch {
    return;
  }
  if (!data || typeof data !== "object") return;
  for (const field of ["secret", "api_secret"])
    if (typeof data[field] === "string") ctx.redactor.addSecret(data[field] as string);
  const undo = UNDO[op.operationId];
  if (undo && typeof data.id === "string") {
    const params = { workspace_id: c.params.workspace_id, [undo.idParam]: data.id };
    ctx.suite.removeAtEnd(`${op.operationId} record ${data.id} (fuzz)`, undo.operationId, { params });
  }
}

/** What is wrong with the answer to this case, or undefined. */
export function judgeAnswer(op: OperationInfo, c: FuzzCase, ex: HttpExchange): Failure | undefined {
  const status = ex.response.status;
  const kind = c.valid ? "valid" : "invalid";
  if (status >= 500)
    return { kind: "5xx", message: `HTTP ${status} to a ${kind} request of ${op.operationId}`, evidence: ex.evidence };
  if (!c.valid && status < 400)
    return {
      kind: "accepted",
      message: `HTTP ${status} to an invalid request of ${op.operationId}: it must be refused with a 4xx`,
      evidence: ex.evidence,
    };
  const problems = responseProblems(op, ex);
  if (problems.length > 0)
    return {
      kind: "conformance",
      message: `${op.operationId} answered a ${kind} request wrongly: ${problems.join("; ")}`,
      evidence: ex.evidence,
    };
  return undefined;
}
