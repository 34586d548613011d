// One tool call, in order: the arguments checked and completed, a person's confirmation for funds,
// the idempotency key minted from the confirmed arguments, the call through the SDK, the answer
// redacted and paged, one audit line whatever happened.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { errorAnswer, failureText, pagedData, successAnswer, type ToolAnswer } from "./answer.ts";
import {
  ArgumentError,
  type Arguments,
  argumentDigest,
  completeArguments,
  idempotencyKeyOf,
  type RequestParts,
  requestParts,
} from "./arguments.ts";
import { type AuditEntry, type AuditSink, type Outcome, redactValue, startAudit } from "./audit.ts";
import { type Confirmation, confirmFunds } from "./confirm.ts";
import type { ToolPolicy } from "./policy.ts";
import type { ToolOperation } from "./tool-table.ts";

export interface InvokeResult {
  data: unknown;
  status: number;
  requestId?: string;
}

/** The call through the SDK: the generated client's method, or custody's runtime client. */
export type Invoke = (
  op: ToolOperation,
  input: RequestParts,
  options: { idempotencyKey?: string; signal?: AbortSignal },
) => Promise<InvokeResult>;

export interface CallContext {
  server: Server;
  invoke: Invoke;
  policy: ToolPolicy;
  /** Path parameters the server fills (workspace_id of the key), left out of the tools' schemas. */
  defaults?: Readonly<Record<string, string>>;
  /** Replaces the API key and secret wherever they would appear. */
  redact: (text: string) => string;
  audit?: AuditSink;
}

const REFUSALS: Record<Exclude<Confirmation, "accepted">, [Outcome, string]> = {
  declined: ["declined", "The person declined: nothing was sent."],
  cancelled: ["cancelled", "The person cancelled the confirmation: nothing was sent."],
  unsupported: [
    "no-elicitation",
    "Nothing was sent: this client cannot show a confirmation form (MCP elicitation), and money moves only " +
      "when a person confirms it. Use a client that supports elicitation.",
  ],
};

/** "Withdrawal 1b2c… is pending_approval": the record the funds call made or found, by its id and status. */
function recordSentence(data: unknown): string | undefined {
  const nodes = [data, ...(data !== null && typeof data === "object" ? Object.values(data) : [])];
  const record = nodes.find(
    (n): n is Record<string, unknown> =>
      n !== null && typeof n === "object" && typeof (n as Record<string, unknown>).id === "string",
  );
  const id = record?.id ?? (data as Record<string, unknown> | null)?.transaction_id;
  if (typeof id !== "string") return undefined;
  const status = typeof record?.status === "string" ? ` is ${record.status}` : " was accepted";
  return `${id}${status}.`;
}

export async function callTool(
  ctx: CallContext,
  op: ToolOperation,
  given: Arguments,
  signal?: AbortSignal,
): Promise<ToolAnswer> {
  const entry: Omit<AuditEntry, "outcome" | "duration_ms"> = {
    tool: op.tool,
    operation: op.operationId,
    effect: op.effect,
    args_sha256: argumentDigest(given),
  };
  const audit = startAudit(ctx.audit, entry);
  const finish = (outcome: Outcome, answer: ToolAnswer): ToolAnswer => {
    audit(outcome);
    return redactValue(answer, ctx.redact) as ToolAnswer;
  };
  let args: Arguments;
  try {
    args = completeArguments(op, given, ctx.defaults ?? {});
  } catch (error) {
    if (error instanceof ArgumentError) return finish("refused", errorAnswer(`${op.tool}: ${error.message}`));
    throw error;
  }
  entry.args_sha256 = argumentDigest(args);
  if (op.effect === "funds") {
    const confirmation = await confirmFunds(ctx.server, op, args, signal);
    if (confirmation !== "accepted") return finish(REFUSALS[confirmation][0], errorAnswer(REFUSALS[confirmation][1]));
  }
  // The model never supplies a key: for funds (and any operation that takes one) the server derives it.
  const idempotencyKey =
    op.idempotencyHeader !== undefined || op.effect === "funds" ? idempotencyKeyOf(op, args) : undefined;
  if (idempotencyKey) entry.idempotency_key = idempotencyKey;
  try {
    const result = await ctx.invoke(op, requestParts(op, args), { idempotencyKey, signal });
    entry.status = result.status;
    if (result.requestId) entry.request_id = result.requestId;
    const { data, page } = pagedData(op, args, result.data);
    const record = op.effect === "funds" ? recordSentence(data) : undefined;
    const note =
      op.effect === "funds"
        ? `${op.title}: ${record ?? "accepted."} Idempotency key ${idempotencyKey}: the same call again returns this same result.`
        : undefined;
    return finish("ok", successAnswer({ data, ...(page ? { page } : {}) }, note));
  } catch (error) {
    const api = error as { status?: number; requestId?: string };
    if (typeof api.status === "number") entry.status = api.status;
    if (typeof api.requestId === "string") entry.request_id = api.requestId;
    return finish("error", errorAnswer(failureText(op, error)));
  }
}
