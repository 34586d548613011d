// The MCP server runtime: what `custody mcp` and a generated package's MCP server share.

export * from "./answer.ts";
export * from "./arguments.ts";
export * from "./audit.ts";
export * from "./call.ts";
export * from "./confirm.ts";
export * from "./http.ts";
export * from "./invoke.ts";
export * from "./main.ts";
export * from "./policy.ts";
export * from "./server.ts";
export * from "./tool-list.ts";
export * from "./tool-table.ts";
