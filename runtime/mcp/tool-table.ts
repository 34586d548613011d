// The data an MCP server is built from: one entry per operation of an API, with its effect, the flat
// input schema an agent fills, where each argument goes in the request, and the schema of the answer.
// custody builds it from an OpenAPI document (generator/mcp/tools-from-spec.ts); generated servers carry it as
// data (mcp-tools.ts), so the rules below apply the same way to both.

/** What an operation does: reads, changes settings or records, or moves (or signs for) money. */
export type Effect = "read" | "write" | "funds";
export const EFFECTS: readonly Effect[] = ["read", "write", "funds"];

/** Where a tool argument goes in the request. */
export type ArgumentPlace = "path" | "query" | "header" | "body" | "whole-body";

export interface ToolArgument {
  /** The name in the tool's input schema. */
  name: string;
  place: ArgumentPlace;
  /** The parameter or body member name in the request (absent for the whole body). */
  key?: string;
}

export interface ToolOperation {
  /** The tool's name: at most 64 characters, [A-Za-z0-9_-], unique in the table. */
  tool: string;
  operationId: string;
  /** The generated client's method name. */
  method: string;
  httpMethod: string;
  /** The status a success answers with. */
  successStatus: number;
  /** The answer is the {success, message, code, data} envelope. */
  envelope: boolean;
  path: string;
  tag: string;
  title: string;
  /** From the spec, trimmed; plain text. */
  description: string;
  effect: Effect;
  /** false: never offered to an agent (x-custody-agent: never), whatever the flags. */
  agent: boolean;
  /** A flat JSON Schema object: no top-level combinator, no $ref, no $defs. */
  inputSchema: Record<string, unknown>;
  /** The success answer's data, loosened so real answers always pass (the server wraps it in {data, page}). */
  dataSchema: Record<string, unknown> | boolean;
  arguments: ToolArgument[];
  /** Scopes the API key needs (x-custody-scopes), named in permission errors. */
  scopes: string[];
  /** Safe to repeat (GET, PUT, DELETE, or an idempotency key). */
  idempotent: boolean;
  /** The header the operation takes an idempotency key in; the server fills it, never the model. */
  idempotencyHeader?: string;
  /** Offset/limit paging: parameter names and the path from the answer's data to its items. */
  pagination?: { offset: string; limit: string; itemsPath: string[]; maxLimit?: number };
}
