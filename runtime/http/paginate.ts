// Iterating a paged list operation (an operation that declares `x-custody-pagination`, style
// offset-limit): `client.listWallets.all(input)` yields every item and `.pages(input)` every page,
// one request per page, as the caller consumes them. The generated client builds one PagedOperation
// per such operation with paginate(); the operation stays callable as before.
//
// Where a page ends the list: a page with fewer items than were asked for is the last one (what the
// contract promises); an empty page ends it too. A page with MORE items than asked for comes from a
// deployment that does not page (it answered the whole list): it is taken as the rest of the list,
// so such a deployment is read once instead of forever.
import type { ApiPromise } from "./api-promise.ts";
import type { CallOptions } from "./client-call.ts";

/** How an operation pages, from its x-custody-pagination and its limit parameter's schema. */
export interface PageSpec {
  /** Query parameter names. */
  offset: string;
  limit: string;
  /** Property path from the call's result (the envelope's data, or the body) to the page's items; [] when the result is the array. */
  items: readonly string[];
  /** The limit parameter's default and maximum, when its schema declares them. */
  defaultLimit?: number;
  maxLimit?: number;
}

/** Per-iteration options: the page size, a cap on the items, where to start, and the per-call options. */
export interface PageOptions extends CallOptions {
  /** Items per request: 1 up to the operation's maximum page size (the default: the maximum, so the fewest requests). */
  pageSize?: number;
  /** Stop after this many items (default: all of them). */
  maxItems?: number;
  /** Skip this many items first (default 0). */
  startOffset?: number;
}

/** One page: its items, the offset it was read at, and the call's whole result. */
export interface Page<Item, Data> {
  items: Item[];
  offset: number;
  data: Data;
}

/** The input of an iteration: the operation's input without the paging parameters, which the iterator sets. */
export type PagedInput<Input, Managed extends string> = {
  [K in keyof Input]: K extends "query" ? Omit<NonNullable<Input[K]>, Managed> & { [M in Managed]?: never } : Input[K];
};

type Args<Input, Optional extends boolean, Options> = Optional extends true
  ? [input?: Input, options?: Options]
  : [input: Input, options?: Options];

/** A paged list operation: callable for one page, with `.all()` over every item and `.pages()` over every page. */
export interface PagedOperation<Input, Data, Item, Managed extends string, InputOptional extends boolean = false> {
  (...args: Args<Input, InputOptional, CallOptions>): ApiPromise<Data>;
  /** Every item, in the list's order, one request per page; stop early with `break`, maxItems or an abort signal. */
  all(...args: Args<PagedInput<Input, Managed>, InputOptional, PageOptions>): AsyncGenerator<Item, void, undefined>;
  /** Every page, in order; the same options as all(). */
  pages(
    ...args: Args<PagedInput<Input, Managed>, InputOptional, PageOptions>
  ): AsyncGenerator<Page<Item, Data>, void, undefined>;
}

type Call = (input: CallInputLike | undefined, options?: CallOptions) => ApiPromise<unknown>;
interface CallInputLike {
  query?: object;
  [part: string]: unknown;
}

/** Makes `call` a PagedOperation (the generated client annotates the result with its types). */
export function paginate<P>(call: Call, spec: PageSpec): P {
  const operation = ((input?: CallInputLike, options?: CallOptions) => call(input, options)) as Call &
    Record<"all" | "pages", unknown>;
  operation.pages = (input?: CallInputLike, options?: PageOptions) => readPages(call, spec, input ?? {}, options ?? {});
  operation.all = (input?: CallInputLike, options?: PageOptions) => readItems(call, spec, input ?? {}, options ?? {});
  return operation as P;
}

async function* readItems(
  call: Call,
  spec: PageSpec,
  input: CallInputLike,
  options: PageOptions,
): AsyncGenerator<unknown, void, undefined> {
  for await (const page of readPages(call, spec, input, options)) yield* page.items;
}

async function* readPages(
  call: Call,
  spec: PageSpec,
  input: CallInputLike,
  options: PageOptions,
): AsyncGenerator<Page<unknown, unknown>, void, undefined> {
  const { pageSize, maxItems, startOffset, ...callOptions } = options;
  const size = pageSizeOf(spec, pageSize);
  let remaining = count("maxItems", maxItems) ?? Number.POSITIVE_INFINITY;
  let offset = count("startOffset", startOffset) ?? 0;
  while (remaining > 0) {
    const asked = size === undefined ? undefined : Math.min(size, remaining);
    const query: Record<string, unknown> = { ...(input.query ?? {}), [spec.offset]: offset };
    if (asked !== undefined) query[spec.limit] = asked;
    const data = await call({ ...input, query }, callOptions);
    const items = itemsOf(data, spec.items);
    const kept = items.length > remaining ? items.slice(0, remaining) : items;
    yield { items: kept, offset, data };
    remaining -= kept.length;
    offset += items.length;
    const last = items.length === 0 || (asked !== undefined && items.length !== asked);
    if (last) return;
  }
}

/** The page size to ask for: the caller's (checked against the maximum), else the maximum, else the default. */
function pageSizeOf(spec: PageSpec, pageSize: number | undefined): number | undefined {
  if (pageSize === undefined) return spec.maxLimit ?? spec.defaultLimit;
  if (!Number.isInteger(pageSize) || pageSize < 1)
    throw new RangeError(`pageSize must be a whole number of at least 1, got ${String(pageSize)}`);
  if (spec.maxLimit !== undefined && pageSize > spec.maxLimit)
    throw new RangeError(
      `pageSize must be at most ${spec.maxLimit} (the operation's maximum page size), got ${pageSize}`,
    );
  return pageSize;
}

function count(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0)
    throw new RangeError(`${name} must be a whole number of at least 0, got ${String(value)}`);
  return value;
}

/** The items array at `path` inside the call's result; anything else is a contract breach worth a clear error. */
function itemsOf(data: unknown, path: readonly string[]): unknown[] {
  let node = data;
  for (const key of path)
    node = node !== null && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined;
  if (!Array.isArray(node))
    throw new TypeError(`the page's items (${path.length === 0 ? "the result" : path.join(".")}) are not an array`);
  return node;
}
