// Paged lists (x-custody-pagination, x-custody-limits.pagination): the default and maximum page sizes,
// pages that stay disjoint and complete while records are created between the reads, an empty page
// past the end of every list, and the documented 400 for a bad limit. All at --level full: the seed
// shows no paging (4, 8), so a seed deployment answering whole lists stays valid at --level seed.
//
// What the certifier creates: a page and one more of webhooks of its own to its receiver (subscribed to
// withdrawal.failed only, to stay quiet), so listWebhooks is longer than a page whatever else comes and
// goes, deleted at the end of the run; and three
// wallets while it pages listWallets (wallets have no delete: they stay, like the run's other wallets).
import type { Check } from "../../check.ts";
import type { CheckContext, Suite } from "../../context.ts";
import { expectError, expectSuccess, failWith } from "../../expect.ts";
import { firstString } from "../../fixtures/util.ts";
import { itemsOf, readList, type Item } from "../../list-reader.ts";
import type { OperationInfo, Paging } from "../../operations.ts";
import { skip } from "../../outcome.ts";
import type { HttpExchange } from "../../probe.ts";

const SEED_REF = "§8 (page sizes not shown); assumed: x-custody-pagination (offset and limit as https://docs.fystack.io/pagination)";
/** An offset no list reaches: the page there must be empty, not an error. */
const FAR_OFFSET = 1_000_000;
/** Wallets created between page reads by paging.disjoint-complete. */
const CREATED_WHILE_PAGING = 3;

const COMMON = { group: "paging" as const, severity: "MUST" as const, seedRef: SEED_REF, level: "full" as const };

function pagingOf(op: OperationInfo): Paging {
  if (!op.pagination) skip(`${op.operationId} declares no x-custody-pagination`);
  return op.pagination;
}

function query(p: Paging, offset: number | string | undefined, limit: number | string | undefined, base: Record<string, string> = {}): Record<string, string> {
  return { ...base, ...(offset !== undefined ? { [p.offset]: String(offset) } : {}), ...(limit !== undefined ? { [p.limit]: String(limit) } : {}) };
}

/** The items of a successful page (the operation's schema checked), failing with the exchange otherwise. */
function pageItems(op: OperationInfo, ex: HttpExchange, what: string): Item[] {
  return itemsOf(expectSuccess(ex, op, what), op.pagination);
}

const longLists = new WeakMap<Suite, Promise<void>>();

/**
 * listWebhooks holding at least `min` webhooks of the run's own, registered to the receiver (deleted
 * when the run ends). Once per run, shared by the checks that need it.
 */
function ensureLongWebhookList(ctx: CheckContext, min: number): Promise<void> {
  let made = longLists.get(ctx.suite);
  if (!made) {
    made = (async () => {
      const workspaceId = await ctx.need("workspace");
      const receiver = await ctx.need("receiver");
      // All `min` are the run's own, whatever the list holds already: other checks (and other clients)
      // register and delete webhooks concurrently, so webhooks the run does not own may vanish mid-check.
      for (let i = 0; i < min; i++) {
        const ex = await ctx.call("createWebhook", { params: { workspace_id: workspaceId }, body: { url: receiver.url("paging"), event_types: ["withdrawal.failed"], description: ctx.suite.marker.description("paging webhook") } });
        // A deployment may cap webhooks per workspace: then this list cannot be made long here (a skip, never a pass).
        if (ex.response.status >= 400 && ex.response.status < 500) skip(`listWebhooks holds ${i} webhooks and createWebhook refused another (HTTP ${ex.response.status}), so no list longer than a page could be made`);
        const id = firstString(expectSuccess(ex, ctx.operation("createWebhook"), "createWebhook") as Item, "id", "webhook_id");
        if (!id) failWith(ex, "createWebhook answered without an id");
        ctx.suite.removeAtEnd(`paging webhook ${id}`, "deleteWebhook", { params: { workspace_id: workspaceId, webhook_id: id } });
      }
    })();
    longLists.set(ctx.suite, made);
  }
  return made;
}

export const pageSizes: Check = {
  ...COMMON,
  id: "paging.page-sizes",
  title: "Without a limit a list answers the default page size; with the maximum, more than that",
  requires: ["workspace", "receiver"],
  timeoutScale: 3,
  sends: "listWebhooks without a limit, then with the maximum limit",
  async run(ctx) {
    const op = ctx.operation("listWebhooks");
    const p = pagingOf(op);
    if (p.defaultLimit === undefined || p.maxLimit === undefined) skip("listWebhooks declares no default or maximum page size");
    await ensureLongWebhookList(ctx, p.defaultLimit + 1);
    const params = { workspace_id: await ctx.need("workspace") };
    const plain = await ctx.call("listWebhooks", { params });
    const first = pageItems(op, plain, "listWebhooks without offset and limit");
    if (first.length !== p.defaultLimit) failWith(plain, `without a limit, a list holding more than ${p.defaultLimit} items answered ${first.length}, not the default page size ${p.defaultLimit}`);
    const widest = await ctx.call("listWebhooks", { params, query: query(p, 0, p.maxLimit) });
    const most = pageItems(op, widest, `listWebhooks with limit ${p.maxLimit}`);
    if (most.length <= p.defaultLimit || most.length > p.maxLimit) {
      failWith(widest, `limit ${p.maxLimit} (the maximum) answered ${most.length} items of a list holding more than ${p.defaultLimit}: expected more than ${p.defaultLimit} and at most ${p.maxLimit}`);
    }
  },
};

/** How many items the list holds: probes of one item at doubling offsets, then a binary search. */
async function listLength(ctx: CheckContext, op: OperationInfo, params: Record<string, string>): Promise<number> {
  const p = pagingOf(op);
  const has = async (offset: number) => pageItems(op, await ctx.call(op.operationId, { params, query: query(p, offset, 1) }), `${op.operationId} at offset ${offset}`).length > 0;
  if (!(await has(0))) return 0;
  let [lo, hi] = [0, 1];
  while (hi < 2 ** 31 && (await has(hi))) [lo, hi] = [hi, hi * 2];
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (await has(mid)) lo = mid;
    else hi = mid;
  }
  return hi;
}

export const disjointComplete: Check = {
  ...COMMON,
  id: "paging.disjoint-complete",
  title: "Pages read while records are created are disjoint and together complete, oldest first",
  requires: ["workspace"],
  timeoutScale: 3,
  sends: "listWallets page by page from the end of the list, createWallet between the reads (three wallets)",
  async run(ctx) {
    const op = ctx.operation("listWallets");
    const p = pagingOf(op);
    const params = { workspace_id: await ctx.need("workspace") };
    // The last few wallets (probing for the end costs about 2·log2(n) requests, however many exist).
    const start = Math.max(0, (await listLength(ctx, op, params)) - 6);
    const before = await ctx.call("listWallets", { params, query: query(p, start, 6) });
    const baseline = pageItems(op, before, "listWallets").map((w) => String(w.id));
    const size = 2;
    const seen: string[] = [];
    const created: string[] = [];
    let offset = start;
    let last = before;
    for (let pages = 0; pages < 20; pages++) {
      last = await ctx.call("listWallets", { params, query: query(p, offset, size) });
      const items = pageItems(op, last, `listWallets at offset ${offset} limit ${size}`).map((w) => String(w.id));
      if (items.length > size) failWith(last, `limit ${size} answered ${items.length} items: the limit is not honoured`);
      const again = items.find((id) => seen.includes(id));
      if (again) failWith(last, `wallet ${again} is on two pages (again at offset ${offset}): pages read while records were created repeat an item`, { seen, created });
      seen.push(...items);
      offset += items.length;
      if (items.length < size) break;
      if (created.length < CREATED_WHILE_PAGING) {
        const made = await ctx.call("createWallet", { body: { name: ctx.suite.marker.name(`paging-${created.length}`), wallet_type: "mpc" } });
        created.push(String(firstString(expectSuccess(made, ctx.operation("createWallet"), "createWallet") as Item, "wallet_id", "id")));
      }
    }
    const skipped = baseline.filter((id) => !seen.includes(id));
    if (skipped.length > 0) failWith(last, `${skipped.length} wallet(s) listed before paging began were on no page (${skipped.join(", ")}): pages read while records were created skip items`, { baseline, seen, created });
    const positions = baseline.map((id) => seen.indexOf(id));
    if (positions.some((at, i) => i > 0 && at < positions[i - 1])) failWith(last, "the pages list the wallets in another order than one read did", { baseline, seen });
    const lastOld = Math.max(...positions, -1);
    const early = created.filter((id) => seen.includes(id) && seen.indexOf(id) < lastOld);
    if (early.length > 0) failWith(last, `wallet(s) created while paging (${early.join(", ")}) were listed before older ones: the order is not creation order, oldest first`, { baseline, seen, created });
  },
};

/** Path parameters of a list operation from the run's fixtures, or undefined when it needs another one. */
async function listParams(ctx: CheckContext, op: OperationInfo): Promise<Record<string, string> | undefined> {
  const params: Record<string, string> = {};
  for (const name of [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])) {
    if (name === "workspace_id") params[name] = await ctx.need("workspace");
    else if (name === "wallet_id") params[name] = (await ctx.need("wallet")).walletId;
    else return undefined;
  }
  return params;
}

export const everyList: Check = {
  ...COMMON,
  id: "paging.every-list",
  title: "Every paged list honours a limit of 1 and the maximum, and answers an empty page far past its end",
  requires: ["workspace", "wallet"],
  timeoutScale: 2,
  sends: "every paged list with limit 1, with the maximum, and with an offset far past its end",
  async run(ctx) {
    const lists = ctx.operations.filter((op) => op.pagination && op.method === "GET");
    if (lists.length === 0) skip("the operation table declares no paged list");
    let tried = 0;
    for (const listed of lists) {
      const op = ctx.operation(listed.operationId);
      const p = pagingOf(op);
      const params = await listParams(ctx, op);
      if (!params) continue;
      tried++;
      const one = await ctx.call(op.operationId, { params, query: query(p, 0, 1) });
      const got = pageItems(op, one, `${op.operationId} with limit 1`);
      if (got.length > 1) failWith(one, `${op.operationId} with limit 1 answered ${got.length} items: the limit is not honoured`);
      if (p.maxLimit !== undefined) pageItems(op, await ctx.call(op.operationId, { params, query: query(p, 0, p.maxLimit) }), `${op.operationId} with limit ${p.maxLimit} (the maximum)`);
      const far = await ctx.call(op.operationId, { params, query: query(p, FAR_OFFSET, undefined) });
      const beyond = pageItems(op, far, `${op.operationId} at offset ${FAR_OFFSET}`);
      if (beyond.length > 0) failWith(far, `${op.operationId} at offset ${FAR_OFFSET} answered ${beyond.length} items: past the end the page must be empty`);
    }
    if (tried === 0) skip("no paged list takes only workspace_id or wallet_id");
  },
};

export const badLimit: Check = {
  ...COMMON,
  id: "paging.bad-limit",
  title: "A limit above the maximum, zero or negative, a negative offset and a non-number are refused with 400 and the error envelope",
  requires: ["workspace"],
  sends: "listWebhooks with a limit above the maximum, zero, negative, a negative offset and a non-number",
  async run(ctx) {
    const op = ctx.operation("listWebhooks");
    const p = pagingOf(op);
    const params = { workspace_id: await ctx.need("workspace") };
    const bad: Array<[string, Record<string, string>]> = [
      ...(p.maxLimit !== undefined ? [[`limit ${p.maxLimit + 1} (above the maximum)`, query(p, undefined, p.maxLimit + 1)] as [string, Record<string, string>]] : []),
      ["limit 0", query(p, undefined, 0)],
      ["limit -1", query(p, undefined, -1)],
      ["limit abc", query(p, undefined, "abc")],
      ["offset -1", query(p, -1, undefined)],
    ];
    for (const [what, q] of bad) expectError(await ctx.call("listWebhooks", { params, query: q }), 400, 400, `listWebhooks with ${what}`);
  },
};

export const pagingChecks: Check[] = [pageSizes, disjointComplete, everyList, badLimit];
