// The MCP server over a tool table, on the official SDK's low-level Server (tool schemas are the
// table's JSON Schemas as they are, not rebuilt through zod). One tool per exposed operation, or with
// `dynamic` three (list, describe, call) over the same operations and the same rules.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { errorAnswer } from "./answer.ts";
import { type CallContext, callTool } from "./call.ts";
import { callDynamic, dynamicTools } from "./dynamic.ts";
import { exposedOperations } from "./policy.ts";
import { toolOf } from "./tool-list.ts";
import type { ToolOperation } from "./tool-table.ts";

export interface McpServerOptions extends Omit<CallContext, "server"> {
  name: string;
  version: string;
  table: readonly ToolOperation[];
  /** Three tools (list, describe, call) instead of one per operation, for clients that list few tools. */
  dynamic?: boolean;
}

export function createMcpServer(options: McpServerOptions): Server {
  const server = new Server({ name: options.name, version: options.version }, { capabilities: { tools: {} } });
  const exposed = exposedOperations(options.table, options.policy);
  const context: CallContext = { ...options, server };
  const byName = new Map(exposed.map((op) => [op.tool, op]));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: options.dynamic ? dynamicTools(options.policy) : exposed.map((op) => toolOf(op, options.defaults ?? {})),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    if (options.dynamic) return callDynamic(context, exposed, request.params.name, args, extra.signal);
    const op = byName.get(request.params.name);
    if (op === undefined)
      return errorAnswer(
        `unknown tool ${JSON.stringify(request.params.name)}: list the tools to see what this server offers`,
      );
    return callTool(context, op, args, extra.signal);
  });
  return server;
}
