// What MCP clients refuse or lose, checked over a tool table: a top-level combinator in an input
// schema (OpenAI and Anthropic clients), $ref and $defs (Gemini), names over 64 characters or taken
// twice, control characters in text. Used by the tests over this contract and public documents, and
// by scripts/mcp-schema-corpus.ts over a corpus.
import { toolOf } from "../../runtime/mcp/tool-list.ts";
import type { ToolOperation } from "../../runtime/mcp/tool-table.ts";
import { MAX_TOOL_NAME } from "./tools-from-spec.ts";

const TOP_COMBINATORS = ["anyOf", "oneOf", "allOf", "not", "if", "then", "else", "enum", "const"];
const NAME = /^[A-Za-z0-9_-]+$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

function hasKey(value: unknown, keys: ReadonlySet<string>): string | undefined {
  if (Array.isArray(value)) {
    for (const v of value) {
      const found = hasKey(v, keys);
      if (found) return found;
    }
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (keys.has(k)) return k;
      const found = hasKey(v, keys);
      if (found) return found;
    }
  }
  return undefined;
}

const REFS = new Set(["$ref", "$defs", "definitions", "$dynamicRef"]);

/** One line per problem ("tool: what"); empty when every client can take the table. */
export function lintTools(table: readonly ToolOperation[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const op of table) {
    const tool = toolOf(op, {});
    const at = (p: string) => problems.push(`${tool.name}: ${p}`);
    if (tool.name.length > MAX_TOOL_NAME) at(`name is ${tool.name.length} characters (at most ${MAX_TOOL_NAME})`);
    if (!NAME.test(tool.name)) at("name has characters other than A-Z a-z 0-9 _ -");
    if (seen.has(tool.name)) at("name is taken twice");
    seen.add(tool.name);
    if (tool.inputSchema.type !== "object") at("input schema is not type object");
    for (const k of TOP_COMBINATORS) if (k in tool.inputSchema) at(`input schema has a top-level ${k}`);
    const ref = hasKey(tool.inputSchema, REFS) ?? hasKey(tool.outputSchema, REFS);
    if (ref) at(`schema contains ${ref}`);
    if (tool.outputSchema?.type !== "object") at("output schema is not type object");
    if (CONTROL.test(`${tool.title}${tool.description}`)) at("title or description has control characters");
  }
  return problems;
}
