// Reading a list operation the way its contract says: when the operation pages (x-custody-pagination
// in the operation table), page after page of the maximum size until a short page; otherwise one call.
// Checks that look for the record they just made use findInList, so a deployment holding more than
// one page of data (the default page is 20) is certified on what it does, not on where a record sits.
// A deployment that ignores the paging parameters is read once: a page longer than asked for, or the
// same page again, ends the reading instead of looping.
import type { CallArgs } from "../run/context.ts";
import type { OperationInfo, Paging } from "../run/operations.ts";
import type { HttpExchange } from "../transport/probe.ts";
import { expectSuccess } from "./expect.ts";

/** What both a check (CheckContext) and a fixture provider (Suite) offer. */
export interface ListCaller {
  call(operationId: string, args?: CallArgs): Promise<HttpExchange>;
  operation(operationId: string): OperationInfo;
}

export type Item = Record<string, unknown>;

/** Pages read at most (the maximum page size times this is the most a reading returns). */
const MAX_PAGES = 200;
/** Page size when the operation declares no maximum. */
const FALLBACK_PAGE = 100;

export interface ListReading {
  items: Item[];
  /** The first item `until` accepted, when one did. */
  found?: Item;
  /** The last exchange (evidence for a failure). */
  last: HttpExchange;
}

/** The items of a list answer: at the operation's items path, or the data itself (or its `items`) when it declares none. */
export function itemsOf(data: unknown, paging: Paging | undefined): Item[] {
  let node = data;
  for (const key of paging?.items ?? [])
    node = node !== null && typeof node === "object" ? (node as Item)[key] : undefined;
  if (Array.isArray(node)) return node as Item[];
  const nested = (node as { items?: unknown } | null)?.items;
  return Array.isArray(nested) ? (nested as Item[]) : [];
}

/** Reads the whole list, or up to the first item `until` accepts. Each page is checked against the operation's schema. */
export async function readList(
  caller: ListCaller,
  operationId: string,
  args: CallArgs = {},
  until?: (item: Item) => boolean,
): Promise<ListReading> {
  const op = caller.operation(operationId);
  const paging = op.pagination;
  const size = paging?.maxLimit ?? FALLBACK_PAGE;
  const items: Item[] = [];
  let offset = 0;
  let previous: string | undefined;
  let last: HttpExchange | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = paging
      ? { ...(args.query ?? {}), [paging.offset]: String(offset), [paging.limit]: String(size) }
      : args.query;
    last = await caller.call(operationId, { ...args, query });
    const got = itemsOf(expectSuccess(last, op, operationId), paging);
    items.push(...got);
    const found = until ? got.find(until) : undefined;
    if (found) return { items, found, last };
    const signature = JSON.stringify(got.map((i) => i.id ?? i));
    if (!paging || got.length !== size || signature === previous) return { items, last };
    previous = signature;
    offset += got.length;
  }
  return { items, last: last as HttpExchange };
}

/** The first item of the list that `match` accepts, reading page by page. */
export async function findInList(
  caller: ListCaller,
  operationId: string,
  args: CallArgs,
  match: (item: Item) => boolean,
): Promise<{ item?: Item; ex: HttpExchange }> {
  const { found, last } = await readList(caller, operationId, args, match);
  return { item: found, ex: last };
}
