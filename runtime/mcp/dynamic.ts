// Three tools for clients that read only the first few tools (Cursor reads 40): list the operations,
// describe one (its input schema), call one. The same exposure rules, confirmation and idempotency
// apply: a call names an operation the policy exposes, or it is refused.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { errorAnswer, successAnswer, type ToolAnswer } from "./answer.ts";
import { argumentDigest } from "./arguments.ts";
import { type Outcome, startAudit } from "./audit.ts";
import { type CallContext, callTool } from "./call.ts";
import type { ToolPolicy } from "./policy.ts";
import { annotationsOf } from "./policy.ts";
import { toolOf } from "./tool-list.ts";
import type { ToolOperation } from "./tool-table.ts";

const READ_HINTS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export function dynamicTools(policy: ToolPolicy): Tool[] {
  const funds = policy.allowWrites === true && policy.allowFunds === true;
  return [
    {
      name: "list_operations",
      title: "List the API's operations",
      description:
        "The operations this server lets you call: name, title and effect (read, write, funds). Filter by " +
        "tag or effect.",
      inputSchema: {
        type: "object",
        properties: { tag: { type: "string" }, effect: { type: "string", enum: ["read", "write", "funds"] } },
      },
      annotations: { title: "List the API's operations", ...READ_HINTS },
    },
    {
      name: "describe_operation",
      title: "Describe one operation",
      description: "One operation's description, input schema (the arguments call_operation takes) and hints.",
      inputSchema: { type: "object", properties: { operation: { type: "string" } }, required: ["operation"] },
      annotations: { title: "Describe one operation", ...READ_HINTS },
    },
    {
      name: "call_operation",
      title: "Call one operation",
      description:
        "Calls an operation by name with its arguments (see describe_operation). Operations that move money " +
        "are confirmed by a person " +
        "first; their idempotency key is derived from the arguments, so the same call again never sends twice.",
      inputSchema: {
        type: "object",
        properties: { operation: { type: "string" }, arguments: { type: "object" } },
        required: ["operation"],
      },
      annotations: {
        title: "Call one operation",
        readOnlyHint: policy.allowWrites !== true,
        destructiveHint: policy.allowWrites === true,
        idempotentHint: policy.allowWrites !== true || funds,
        openWorldHint: funds,
      },
    },
  ];
}

export async function callDynamic(
  ctx: CallContext,
  exposed: readonly ToolOperation[],
  name: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<ToolAnswer> {
  const named = name === "list_operations" ? undefined : args.operation;
  const op = named === undefined ? undefined : exposed.find((o) => o.tool === named || o.operationId === named);
  const audited = auditor(ctx, name, args, op);
  if (name === "list_operations") {
    const rows = exposed.filter(
      (o) => (args.tag === undefined || o.tag === args.tag) && (args.effect === undefined || o.effect === args.effect),
    );
    return audited(
      "ok",
      successAnswer({ data: rows.map((o) => ({ name: o.tool, title: o.title, tag: o.tag, effect: o.effect })) }),
    );
  }
  if (name === "describe_operation" || name === "call_operation") {
    if (op === undefined)
      return audited(
        "refused",
        errorAnswer(`no operation ${JSON.stringify(args.operation)} is offered here: call list_operations`),
      );
    if (name === "describe_operation") {
      const tool = toolOf(op, ctx.defaults ?? {});
      return audited("ok", successAnswer({ data: { ...tool, annotations: annotationsOf(op), effect: op.effect } }));
    }
    const inner = args.arguments ?? {};
    if (inner === null || typeof inner !== "object" || Array.isArray(inner))
      return audited("refused", errorAnswer("arguments must be an object"));
    // Audited by callTool, as the operation's own tool.
    return callTool(ctx, op, inner as Record<string, unknown>, signal);
  }
  return errorAnswer(
    `unknown tool ${JSON.stringify(name)}: this server offers list_operations, describe_operation and call_operation`,
  );
}

/**
 * The audit line of a dynamic tool that calls no operation: listing and describing read only this
 * server's catalog (effect read); a refused call_operation carries the effect of what it named.
 */
function auditor(ctx: CallContext, tool: string, args: Record<string, unknown>, op: ToolOperation | undefined) {
  const effect = tool === "call_operation" ? op?.effect : "read";
  const audit = startAudit(ctx.audit, {
    tool,
    ...(op ? { operation: op.operationId } : {}),
    ...(effect ? { effect } : {}),
    args_sha256: argumentDigest(args),
  });
  return (outcome: Outcome, answer: ToolAnswer): ToolAnswer => {
    audit(outcome);
    return answer;
  };
}
