// A person confirms every funds call through MCP elicitation (a form the client shows), in words:
// amount, asset, destination and wallet first, then every other argument. Nothing is sent unless the
// answer is accept with the box ticked; a client that cannot elicit gets no money moved. A client can
// approve its own elicitation, so the service's approvals stay the real step-up: this is consent,
// not authorization.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Arguments } from "./arguments.ts";
import type { ToolOperation } from "./tool-table.ts";

export type Confirmation = "accepted" | "declined" | "cancelled" | "unsupported";

/** Argument names read as the four facts of a money movement, in the order a person reads them. */
const FACTS: ReadonlyArray<[string, RegExp]> = [
  ["Amount", /^(amount|value|quantity)$/i],
  ["Asset", /^(asset|asset_id|asset_symbol|currency|token|network)$/i],
  ["Destination", /^(recipient_address|to|to_address|destination|address|recipient)$/i],
  ["Wallet", /^(wallet_id|wallet|from)$/i],
];

function shown(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** The form's message: what will happen, in words, every argument shown. */
export function confirmationMessage(op: ToolOperation, args: Arguments): string {
  const lines = [`${op.title} (${op.operationId}): confirm to send this request. It cannot be undone here.`];
  const named = new Set<string>();
  for (const [label, pattern] of FACTS) {
    for (const name of Object.keys(args).filter((n) => pattern.test(n) && !named.has(n))) {
      lines.push(`${label}: ${shown(args[name])}${name.toLowerCase() === label.toLowerCase() ? "" : ` (${name})`}`);
      named.add(name);
    }
  }
  for (const [name, value] of Object.entries(args)) if (!named.has(name)) lines.push(`${name}: ${shown(value)}`);
  return lines.join("\n");
}

const FORM = {
  type: "object" as const,
  properties: {
    confirm: {
      type: "boolean" as const,
      title: "I confirm this request",
      description: "Tick to send it; anything else sends nothing.",
    },
  },
  required: ["confirm"],
};

/** Asks the person; only accept with confirm true is a yes. */
export async function confirmFunds(
  server: Server,
  op: ToolOperation,
  args: Arguments,
  signal?: AbortSignal,
): Promise<Confirmation> {
  if (server.getClientCapabilities()?.elicitation?.form === undefined) return "unsupported";
  const answer = await server.elicitInput(
    { mode: "form", message: confirmationMessage(op, args), requestedSchema: FORM },
    { signal },
  );
  if (answer.action === "accept") return answer.content?.confirm === true ? "accepted" : "declined";
  return answer.action === "decline" ? "declined" : "cancelled";
}
