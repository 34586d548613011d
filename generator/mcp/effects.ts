// The effect of an operation for agents: declared (x-custody-effect read|write|funds), else from the
// HTTP method, and never `read` by guess for a method that may change something. x-custody-agent:
// never keeps an operation away from agents whatever the flags (spec/openapi.yaml decides which).
import { EFFECTS, type Effect } from "../../runtime/mcp/tool-table.ts";

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export class EffectError extends Error {}

export function effectOf(operationId: string, method: string, extensions: Readonly<Record<string, unknown>>): Effect {
  const declared = extensions["x-custody-effect"];
  if (declared === undefined) return READ_METHODS.has(method.toUpperCase()) ? "read" : "write";
  if (typeof declared === "string" && (EFFECTS as readonly string[]).includes(declared)) return declared as Effect;
  throw new EffectError(
    `${operationId}: x-custody-effect must be read, write or funds, not ${JSON.stringify(declared)}`,
  );
}

export function agentAllowed(extensions: Readonly<Record<string, unknown>>): boolean {
  return extensions["x-custody-agent"] !== "never";
}
