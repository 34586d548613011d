// Agents: what an operation does for an MCP server's exposure rules (x-custody-effect, else read for
// GET/HEAD/OPTIONS and write otherwise) and whether agents may call it at all (x-custody-agent:
// never). A change of either moves a tool between read-only, --allow-writes and --allow-funds, or in
// or out of every agent's reach, so agents' configurations break.
import { effectOf } from "../../generator/mcp/effects.ts";
import type { DiffContext } from "../context.ts";
import { child, isObj } from "../document.ts";
import type { OperationPair } from "./operation-pair.ts";

function effect(method: string, node: unknown): string {
  const extensions = isObj(node) ? node : {};
  try {
    return effectOf("", method, extensions);
  } catch {
    return String(extensions["x-custody-effect"]);
  }
}

export function checkAgentEffect(ctx: DiffContext, pair: OperationPair): void {
  const method = pair.where.split(" ")[0] ?? "";
  const before = effect(method, pair.old.node);
  const after = effect(method, pair.next.node);
  const o = child(pair.old, "x-custody-effect");
  const n = child(pair.next, "x-custody-effect");
  const oPtr = o.node === undefined ? pair.old.ptr : o.ptr;
  const nPtr = n.node === undefined ? pair.next.ptr : n.ptr;
  if (before !== after)
    ctx.sink.check(
      "api-agent-effect-changed",
      pair.where,
      oPtr,
      nPtr,
      `the effect for agents changed from ${before} to ${after} (x-custody-effect)`,
    );
  const hiddenBefore = child(pair.old, "x-custody-agent").node === "never";
  const hiddenAfter = child(pair.next, "x-custody-agent").node === "never";
  if (hiddenAfter && !hiddenBefore)
    ctx.sink.check(
      "api-agent-hidden",
      pair.where,
      pair.old.ptr,
      child(pair.next, "x-custody-agent").ptr,
      "agents may no longer call it (x-custody-agent: never)",
    );
  if (hiddenBefore && !hiddenAfter)
    ctx.sink.check(
      "api-agent-exposed",
      pair.where,
      child(pair.old, "x-custody-agent").ptr,
      pair.next.ptr,
      "agents may now call it (x-custody-agent: never was removed)",
    );
}
