// Which tools exist: read-only unless writes are allowed, money only when funds are allowed as well,
// `x-custody-agent: never` operations never, then the include and exclude filters. Safety lives here,
// in what is exposed; annotations are hints a client may ignore.
import type { Effect, ToolOperation } from "./tool-table.ts";

export interface ToolPolicy {
  /** Add `write` tools (settings and records). */
  allowWrites?: boolean;
  /** Add `funds` tools too (needs allowWrites as well). */
  allowFunds?: boolean;
  /** Selectors a tool must match one of (empty: all): a tool or operation name, tag:T, effect:E. */
  include?: readonly string[];
  /** Selectors that remove a tool. */
  exclude?: readonly string[];
}

export function effectAllowed(effect: Effect, policy: ToolPolicy): boolean {
  if (effect === "read") return true;
  if (effect === "write") return policy.allowWrites === true;
  return policy.allowWrites === true && policy.allowFunds === true;
}

function matches(op: ToolOperation, selector: string): boolean {
  const [kind, value] = selector.includes(":") ? (selector.split(":", 2) as [string, string]) : ["name", selector];
  if (kind === "tag") return op.tag === value;
  if (kind === "effect") return op.effect === value;
  if (kind === "name" || kind === "op") return op.tool === value || op.operationId === value;
  return false;
}

/** The selectors no operation of the table matches (a typo should be an error, not an empty server). */
export function unknownSelectors(table: readonly ToolOperation[], selectors: readonly string[]): string[] {
  return selectors.filter((s) => !table.some((op) => matches(op, s)));
}

/** The operations an agent may call under this policy, in table order. */
export function exposedOperations(table: readonly ToolOperation[], policy: ToolPolicy): ToolOperation[] {
  const include = policy.include ?? [];
  const exclude = policy.exclude ?? [];
  return table.filter(
    (op) =>
      op.agent &&
      effectAllowed(op.effect, policy) &&
      (include.length === 0 || include.some((s) => matches(op, s))) &&
      !exclude.some((s) => matches(op, s)),
  );
}

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/**
 * All four hints, from the effect: reads change nothing; writes change records of this service
 * (destructive when they delete); funds move money out to the world, and are idempotent because
 * the server keys each one by its confirmed arguments.
 */
export function annotationsOf(op: ToolOperation): ToolAnnotations {
  const deletes = op.httpMethod.toUpperCase() === "DELETE";
  return {
    title: op.title,
    readOnlyHint: op.effect === "read",
    destructiveHint: op.effect === "funds" || (op.effect === "write" && deletes),
    idempotentHint: op.effect === "read" || op.effect === "funds" || op.idempotent,
    openWorldHint: op.effect === "funds",
  };
}
