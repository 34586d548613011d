// The MCP server of a generated package: mcp-tools.ts (the tool table, built by mcp/ from the same
// model as the client) and mcp.ts (its bin: flags, credentials from the environment, the generated
// client doing the calls). Everything else (policy, confirmation, idempotency, audit, transports) is
// runtime/mcp, vendored like the rest of the runtime, so `custody mcp` and this server behave alike.
import { toolTable } from "../mcp/tools-from-spec.ts";
import type { EmitContext, EmittedFile } from "./context.ts";

/** The environment variables the server reads its credentials from: <PREFIX>_BASE_URL, … */
export const MCP_ENV_PREFIX = "CUSTODY";

function header(ctx: EmitContext): string {
  return ctx.headerLines.map((l) => `// ${l}`.trimEnd()).join("\n");
}

function toolsFile(ctx: EmitContext): EmittedFile {
  const table = toolTable(ctx.model);
  const content = `${header(ctx)}

import type { ToolOperation } from "${ctx.runtime("mcp/tool-table")}";

/** Every operation of the spec as an MCP tool: effect, flat input schema, where each argument goes. */
export const mcpTools: readonly ToolOperation[] = ${JSON.stringify(table, null, 2)};
`;
  return { path: "mcp-tools.ts", content };
}

function serverFile(ctx: EmitContext, bin: string, version: string): EmittedFile {
  const content = `#!/usr/bin/env node
${header(ctx)}

import { ${ctx.model.clientName} } from "./client.js";
import { mcpTools } from "./mcp-tools.js";
import { clientInvoke, MCP_USAGE, parseMcpArgs, startMcp, type McpRunOptions } from "${ctx.runtime("mcp/index")}";

const BIN = ${JSON.stringify(bin)};
const ENV = ${JSON.stringify(MCP_ENV_PREFIX)};

/** Serves until the client goes away (stdio) or SIGINT/SIGTERM; 2 for bad usage. */
async function main(argv: string[]): Promise<number> {
  let run: McpRunOptions & { help: boolean };
  try {
    run = parseMcpArgs(argv);
  } catch (error) {
    console.error(\`\${BIN}: \${(error as Error).message}\\n\${MCP_USAGE(BIN, ENV)}\`);
    return 2;
  }
  if (run.help) {
    console.log(MCP_USAGE(BIN, ENV));
    return 0;
  }
  const env = process.env;
  const baseUrl = env[\`\${ENV}_BASE_URL\`];
  const apiKey = env[\`\${ENV}_API_KEY\`] ?? "";
  const apiSecret = env[\`\${ENV}_API_SECRET\`] ?? "";
  const workspaceId = env[\`\${ENV}_WORKSPACE_ID\`];
  if (!baseUrl) {
    console.error(\`\${BIN}: set \${ENV}_BASE_URL (and \${ENV}_API_KEY, \${ENV}_API_SECRET)\`);
    return 2;
  }
  // On stdio, standard output is the protocol: nothing else may be printed there.
  console.log = console.error;
  const client = new ${ctx.model.clientName}({ baseUrl, apiKey, apiSecret, logLevel: "off" });
  try {
    const serving = await startMcp(
      { name: BIN, version: ${JSON.stringify(version)}, table: mcpTools, invoke: clientInvoke(client), secrets: [apiKey, apiSecret], defaults: workspaceId ? { workspace_id: workspaceId } : {} },
      run,
      (line) => console.error(\`\${BIN}: \${line}\`),
    );
    await Promise.race([serving.ended, new Promise((resolve) => process.once("SIGINT", resolve).once("SIGTERM", resolve))]);
    await serving.close();
    return 0;
  } catch (error) {
    console.error(\`\${BIN}: \${(error as Error).message}\`);
    return 2;
  }
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
`;
  return { path: "mcp.ts", content };
}

/** mcp-tools.ts and mcp.ts; the bin is named after the package (NAME-mcp) or the API. */
export function emitMcp(ctx: EmitContext, packageName?: string): EmittedFile[] {
  const bin = `${(packageName ?? ctx.model.clientName).split("/").pop()}-mcp`;
  return [toolsFile(ctx), serverFile(ctx, bin, ctx.model.apiVersion)];
}
