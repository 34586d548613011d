// Paged lists (x-custody-pagination): what a caller of the list notices when its paging changes. The
// default and maximum page size are the limit parameter's schema `default` and `maximum` (the one
// source the extension points at), so they are read there; the parameter-level findings for that same
// default and maximum are left out (parameters.ts asks pagedLimitParameter), so one change is one line.
//
// Classes, for a client of the list:
//   added       breaking: a caller that omitted offset and limit got every record; now only the first page.
//   removed     breaking: the list answers whole again; a generated client loses .all()/.pages(), and a
//               caller stepping offset by its page size reads the same records again and again.
//   parameters or items changed  breaking: callers send the old names or read the old place.
//   default page size changed    breaking either way: a caller without limit gets another number of
//               records, and one stepping offset by the old default skips (smaller) or repeats (larger).
//   maximum lowered, or set      breaking: a caller asking for the old maximum now gets 400.
//   maximum raised, or removed   info: every request that worked still works.
import type { DiffContext } from "../context.ts";
import { type At, child, isObj, type Obj, type SpecDoc } from "../document.ts";
import type { OperationPair } from "./operation-pair.ts";

const EXTENSION = "x-custody-pagination";

interface Paging {
  at: At;
  style: unknown;
  offset: string;
  limit: string;
  items: unknown;
  defaultLimit?: number;
  maxLimit?: number;
  /** The limit parameter's schema, for pointers. */
  limitSchema?: At;
}

/** The query parameter named `name` of the operation (operation-level wins over path-level). */
function queryParameter(doc: SpecDoc, item: At, op: At, name: string): At | undefined {
  for (const list of [child(op, "parameters"), child(item, "parameters")]) {
    if (!Array.isArray(list.node)) continue;
    for (let i = 0; i < list.node.length; i++) {
      const at = doc.deref(child(list, i));
      if (isObj(at.node) && at.node.in === "query" && at.node.name === name) return at;
    }
  }
  return undefined;
}

function pagingOf(doc: SpecDoc, item: At, op: At): Paging | undefined {
  const at = doc.deref(child(op, EXTENSION));
  if (!isObj(at.node)) return undefined;
  const ext = at.node as Obj;
  const paging: Paging = {
    at,
    style: ext.style,
    offset: String(ext.offset),
    limit: String(ext.limit),
    items: ext.items,
  };
  const param = queryParameter(doc, item, op, paging.limit);
  if (param && isObj((param.node as Obj).schema)) {
    const schema = doc.deref(child(param, "schema"));
    const s = schema.node as Obj;
    paging.limitSchema = schema;
    if (typeof s.default === "number") paging.defaultLimit = s.default;
    if (typeof s.maximum === "number") paging.maxLimit = s.maximum;
  }
  return paging;
}

/** The limit parameter of an operation paged on both sides under the same name (its default and maximum are reported here). */
export function pagedLimitParameter(ctx: DiffContext, pair: OperationPair): string | undefined {
  const old = pagingOf(ctx.old, pair.oldItem, pair.old);
  const next = pagingOf(ctx.next, pair.nextItem, pair.next);
  return old && next && old.limit === next.limit ? old.limit : undefined;
}

const size = (n: number | undefined) => (n === undefined ? "none" : String(n));

export function checkPagination(ctx: DiffContext, pair: OperationPair): void {
  const old = pagingOf(ctx.old, pair.oldItem, pair.old);
  const next = pagingOf(ctx.next, pair.nextItem, pair.next);
  const { sink } = ctx;
  const w = pair.where;
  if (!old && !next) return;
  if (!old && next) {
    sink.check(
      "pagination-added",
      w,
      pair.old.ptr,
      next.at.ptr,
      `${w} is now paged (${next.offset}, ${next.limit}): a caller that sends neither gets the first ${next.defaultLimit ?? "page"} records instead of the whole list`,
    );
    return;
  }
  if (old && !next) {
    sink.check(
      "pagination-removed",
      w,
      old.at.ptr,
      pair.next.ptr,
      `${w} is no longer paged: it answers the whole list, and ${old.offset}/${old.limit} no longer select a page`,
    );
    return;
  }
  if (!old || !next) return;
  if (old.style !== next.style || old.offset !== next.offset || old.limit !== next.limit) {
    sink.check(
      "pagination-parameters-changed",
      w,
      old.at.ptr,
      next.at.ptr,
      `${w} pages by ${String(next.style)} ${next.offset}/${next.limit}, was ${String(old.style)} ${old.offset}/${old.limit}`,
    );
  }
  if (JSON.stringify(old.items) !== JSON.stringify(next.items)) {
    sink.check(
      "pagination-items-changed",
      w,
      child(old.at, "items").ptr,
      child(next.at, "items").ptr,
      `${w}: the page's items moved from ${String(old.items)} to ${String(next.items)}`,
    );
  }
  const oldSchema = old.limitSchema ?? old.at;
  const nextSchema = next.limitSchema ?? next.at;
  if (old.defaultLimit !== next.defaultLimit) {
    sink.check(
      "pagination-default-page-size-changed",
      w,
      child(oldSchema, "default").ptr,
      child(nextSchema, "default").ptr,
      `${w}: the default page size changed from ${size(old.defaultLimit)} to ${size(next.defaultLimit)}; a caller without ${next.limit} gets another number of records`,
    );
  }
  if (old.maxLimit !== next.maxLimit) {
    const lowered = next.maxLimit !== undefined && (old.maxLimit === undefined || next.maxLimit < old.maxLimit);
    const id = lowered
      ? old.maxLimit === undefined
        ? "pagination-max-page-size-set"
        : "pagination-max-page-size-decreased"
      : next.maxLimit === undefined
        ? "pagination-max-page-size-removed"
        : "pagination-max-page-size-increased";
    sink.check(
      id,
      w,
      child(oldSchema, "maximum").ptr,
      child(nextSchema, "maximum").ptr,
      `${w}: the maximum page size changed from ${size(old.maxLimit)} to ${size(next.maxLimit)}${lowered ? `; a caller asking for more gets 400` : ""}`,
    );
  }
}
