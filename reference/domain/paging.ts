// A page of a list: which records, by offset and limit in creation order. The router has validated
// both against the spec (x-custody-pagination: 400 outside the bounds) and filled in the defaults.

export interface PageQuery {
  offset: number;
  limit: number;
}

/** The page a list handler was asked for; the spec's defaults are applied by the router before this. */
export function pageQuery(query: { offset?: number; limit?: number }): PageQuery {
  if (query.offset === undefined || query.limit === undefined)
    throw new Error("offset and limit reach list handlers with the spec's defaults applied");
  return { offset: query.offset, limit: query.limit };
}

/** A page of an in-memory array (the catalog), by the same rule as the store's pages. */
export function slicePage<T>(all: readonly T[], page: PageQuery): T[] {
  return all.slice(Math.min(page.offset, all.length), Math.min(page.offset, all.length) + page.limit);
}
