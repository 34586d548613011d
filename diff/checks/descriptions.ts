// Text a client reads in the SDK: an operation's summary and description and its parameters'
// descriptions. Changing them breaks nothing, but the regenerated doc comments and README change, so
// each change is info naming its pointer. Schema and property descriptions are compared with the
// schemas (schema-diff.ts, `description-changed`).
import type { DiffContext } from "../context.ts";
import { type At, child, isObj } from "../document.ts";
import type { OperationPair } from "./operation-pair.ts";
import { paramsOf } from "./parameters.ts";

export function checkDescriptions(ctx: DiffContext, pair: OperationPair): void {
  for (const field of ["summary", "description"] as const) {
    const id = field === "summary" ? "api-summary-changed" : "api-description-changed";
    compareText(ctx, id, pair.where, pair.old, pair.next, field, `the operation's ${field}`);
  }
  const olds = paramsOf(ctx.old, pair.oldItem, pair.old, pair.oldPath);
  const news = paramsOf(ctx.next, pair.nextItem, pair.next, pair.nextPath);
  for (const [key, o] of olds) {
    const n = news.get(key);
    if (n)
      compareText(
        ctx,
        "request-parameter-description-changed",
        pair.where,
        o.at,
        n.at,
        "description",
        `the ${o.in} parameter \`${o.name}\`'s description`,
      );
  }
}

function compareText(
  ctx: DiffContext,
  id: string,
  where: string,
  old: At,
  next: At,
  field: string,
  what: string,
): void {
  const a = textOf(old, field);
  const b = textOf(next, field);
  if (a === b) return;
  const change = a === undefined ? "was added" : b === undefined ? "was removed" : "changed";
  const at = (side: At, text: string | undefined) => (text === undefined ? side.ptr : child(side, field).ptr);
  ctx.sink.check(id, where, at(old, a), at(next, b), `${what} ${change}`);
}

function textOf(at: At, field: string): string | undefined {
  const value = isObj(at.node) ? at.node[field] : undefined;
  return typeof value === "string" ? value : undefined;
}
