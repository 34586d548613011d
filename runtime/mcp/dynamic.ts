// Three tools for clients that read only the first few tools (Cursor reads 40): list the operations,
// describe one (its input schema), call one. The same exposure rules, confirmation and idempotency
// apply: a call names an operation the policy exposes, or it is refused.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { errorAnswer, successAnswer, type ToolAnswer } from "./answer.ts";
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
  const find = (id: unknown) => exposed.find((op) => op.tool === id || op.operationId === id);
  if (name === "list_operations") {
    const rows = exposed.filter(
      (op) =>
        (args.tag === undefined || op.tag === args.tag) && (args.effect === undefined || op.effect === args.effect),
    );
    return successAnswer({
      data: rows.map((op) => ({ name: op.tool, title: op.title, tag: op.tag, effect: op.effect })),
    });
  }
  const op = find(args.operation);
  if (name === "describe_operation" || name === "call_operation") {
    if (op === undefined)
      return errorAnswer(`no operation ${JSON.stringify(args.operation)} is offered here: call list_operations`);
    if (name === "describe_operation") {
      const tool = toolOf(op, ctx.defaults ?? {});
      return successAnswer({ data: { ...tool, annotations: annotationsOf(op), effect: op.effect } });
    }
    const inner = args.arguments ?? {};
    if (inner === null || typeof inner !== "object" || Array.isArray(inner))
      return errorAnswer("arguments must be an object");
    return callTool(ctx, op, inner as Record<string, unknown>, signal);
  }
  return errorAnswer(
    `unknown tool ${JSON.stringify(name)}: this server offers list_operations, describe_operation and call_operation`,
  );
}
