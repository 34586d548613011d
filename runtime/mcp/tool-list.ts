// A table entry as tools/list shows it: name, title, description ending with what the tool does to
// the world, the flat input schema (minus what the server fills), the output schema and all four hints.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { annotationsOf } from "./policy.ts";
import type { ToolOperation } from "./tool-table.ts";

const PAGE_SCHEMA = {
  type: "object",
  description: "Where this page of a list ends: more is true when another call (offset next_offset) has more items.",
  properties: {
    offset: { type: "integer" },
    limit: { type: "integer" },
    returned: { type: "integer" },
    more: { type: "boolean" },
    next_offset: { type: "integer" },
    note: { type: "string" },
  },
};

/** The sentence every description ends with: what the tool does to the world and what guards it. */
export function effectSentence(op: ToolOperation): string {
  if (op.effect === "read") return "Read-only: changes nothing.";
  if (op.effect === "write") return "Changes settings or records of the service (no money moves).";
  return (
    "Moves money or signs for it. A person confirms every call in a form (amount, asset, destination, wallet); " +
    "without that confirmation nothing is sent. The server derives the idempotency key from the confirmed arguments, " +
    "so calling again with the same arguments returns the same result (the same withdrawal) and never sends twice."
  );
}

/** The tool as tools/list shows it; arguments the server fills itself (workspace_id) are left out. */
export function toolOf(op: ToolOperation, defaults: Readonly<Record<string, string>>): Tool {
  const filled = new Set(
    op.arguments.filter((a) => a.place === "path" && defaults[a.name] !== undefined).map((a) => a.name),
  );
  const input = op.inputSchema as { properties?: Record<string, object>; required?: string[] };
  const properties = Object.fromEntries(Object.entries(input.properties ?? {}).filter(([name]) => !filled.has(name)));
  const required = (input.required ?? []).filter((name) => !filled.has(name));
  return {
    name: op.tool,
    title: op.title,
    description: [op.description, effectSentence(op)].filter(Boolean).join("\n\n"),
    inputSchema: {
      ...(op.inputSchema as Tool["inputSchema"]),
      type: "object",
      properties,
      ...(required.length ? { required } : { required: undefined }),
    },
    outputSchema: { type: "object", properties: { data: op.dataSchema, page: PAGE_SCHEMA } } as Tool["outputSchema"],
    annotations: annotationsOf(op),
  };
}
