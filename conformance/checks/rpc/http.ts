// Node access over HTTP (seed 4.1, 5): the key by query and by header, refusal without it,
// standard EVM reads, and strict JSON-RPC 2.0 framing (brief "Node access").
import type { CheckContext } from "../../run/context.ts";
import type { HttpExchange } from "../../transport/probe.ts";
import {
  HEX_DATA_32,
  HEX_QUANTITY,
  type KeyPlacement,
  parseRpcBatch,
  parseRpcResponse,
  RPC_UNAUTHORIZED,
  type RpcResponse,
} from "../../transport/rpc.ts";
import type { Check } from "../check.ts";
import { failWith } from "../expect.ts";
import { fail } from "../outcome.ts";
import { knownIds } from "../request-plans.ts";

/** eth_blockNumber answers a hex quantity. */
async function blockNumberOver(ctx: CheckContext, placement: KeyPlacement): Promise<bigint> {
  const { ex, response } = await ctx.rpc.callHttp("eth_blockNumber", [], placement);
  if (ex.response.status !== 200)
    failWith(ex, `eth_blockNumber with the key in the ${placement}: HTTP ${ex.response.status}`);
  expectResult(ex, response);
  if (typeof response.result !== "string" || !HEX_QUANTITY.test(response.result)) {
    failWith(ex, `eth_blockNumber result ${JSON.stringify(response.result)} is not a hex quantity`);
  }
  return BigInt(response.result);
}

function expectResult(ex: HttpExchange, r: RpcResponse): void {
  if (r.jsonrpc !== "2.0") failWith(ex, `jsonrpc is ${JSON.stringify(r.jsonrpc)}, not "2.0"`);
  if (r.error) failWith(ex, `JSON-RPC error ${JSON.stringify(r.error)}`);
  if (!("result" in r)) failWith(ex, "response has no result");
}

function expectErrorCode(ex: HttpExchange, r: RpcResponse, code: number, what: string): void {
  if (r.jsonrpc !== "2.0") failWith(ex, `${what}: jsonrpc is ${JSON.stringify(r.jsonrpc)}`);
  if (!r.error || r.error.code !== code)
    failWith(ex, `${what}: expected error ${code}, got ${JSON.stringify(r.error ?? r.result)}`);
  if (typeof r.error.message !== "string") failWith(ex, `${what}: error without a message`);
  if ("result" in r) failWith(ex, `${what}: both result and error`);
}

export const httpBlockNumber: Check = {
  id: "rpc.http-block-number",
  statements: [
    "s1.node-access-http-ws",
    "s4.1.http-transport",
    "s4.1.request-shape",
    "s4.1.block-number",
    "s5.node-access-key",
  ],
  group: "rpc",
  title: "eth_blockNumber over HTTP (key in api_key) is a hex quantity",
  severity: "MUST",
  seedRef: "§4.1; §5 node access",
  level: "seed",
  sends: "eth_blockNumber over HTTP with the key in api_key",
  run: async (ctx) => {
    await blockNumberOver(ctx, "query");
  },
};

export const httpHeaderKey: Check = {
  id: "rpc.http-header-key",
  statements: ["s5.node-access-key"],
  group: "rpc",
  title: "The key in `authorization: APIKEY <key>` works over HTTP",
  severity: "MUST",
  seedRef: "§5 node access",
  level: "seed",
  sends: "eth_blockNumber over HTTP with `authorization: APIKEY <key>`",
  run: async (ctx) => {
    await blockNumberOver(ctx, "header");
  },
};

export const blockNumberAdvances: Check = {
  id: "rpc.block-number-advances",
  statements: ["s4.1.block-number"],
  group: "rpc",
  title: "eth_blockNumber advances as blocks are produced",
  severity: "MUST",
  seedRef: "§4.1 (current block number)",
  level: "seed",
  sends: "eth_blockNumber over HTTP until it advances",
  run: async (ctx) => {
    const first = await blockNumberOver(ctx, "query");
    const deadline = Date.now() + ctx.timeoutMs * 0.8;
    while (Date.now() < deadline && !ctx.signal.aborted) {
      await ctx.sleep(250);
      if ((await blockNumberOver(ctx, "query")) > first) return;
    }
    fail(`eth_blockNumber stayed at ${first} for ${Math.round(ctx.timeoutMs * 0.8)} ms`);
  },
};

export const latestBlock: Check = {
  id: "rpc.get-block-latest",
  statements: ["s4.1.get-block-by-number-params", "s4.1.get-block-by-number-result"],
  group: "rpc",
  title:
    'eth_getBlockByNumber("latest", false) has hash, number and timestamp as hex; a block with transactions gives their hashes for false and the transactions for true',
  severity: "MUST",
  seedRef: "§4.1 ([block tag or hex number, boolean for full transactions])",
  level: "seed",
  sends:
    'eth_getBlockByNumber("latest", false) over HTTP; then a block with transactions (getWithdrawal of --withdrawal-id for its block_number, else up to 32 blocks back from the head) with false and with true',
  run: async (ctx) => {
    const { ex, response } = await ctx.rpc.callHttp("eth_getBlockByNumber", ["latest", false]);
    expectResult(ex, response);
    const block = response.result as Record<string, unknown> | null;
    if (!block || typeof block !== "object") failWith(ex, "result is not a block object");
    const bad: string[] = [];
    if (typeof block.hash !== "string" || !HEX_DATA_32.test(block.hash)) bad.push(`hash ${JSON.stringify(block.hash)}`);
    if (typeof block.number !== "string" || !HEX_QUANTITY.test(block.number))
      bad.push(`number ${JSON.stringify(block.number)}`);
    if (typeof block.timestamp !== "string" || !HEX_QUANTITY.test(block.timestamp))
      bad.push(`timestamp ${JSON.stringify(block.timestamp)}`);
    if (bad.length > 0) failWith(ex, `block fields are not hex: ${bad.join(", ")}`);
    expectTransactionsAs(ex, block, false, "latest");
    // The latest block is often empty: the flag is judged on a block that has transactions.
    const found = await blockWithTransactions(ctx, BigInt(block.number as string));
    if (!found)
      return ctx.fact(
        "full-transactions",
        "no block with transactions at --withdrawal-id's block_number or among the 32 before the head: the flag was judged on empty blocks only",
      );
    const full = await ctx.rpc.callHttp("eth_getBlockByNumber", [found.tag, true]);
    expectResult(full.ex, full.response);
    expectTransactionsAs(full.ex, full.response.result as Record<string, unknown>, true, found.tag);
    ctx.fact(
      "full-transactions",
      `block ${found.tag} (${found.count} transactions): hashes for false, objects for true`,
    );
  },
};

/** Seed 4.1: the boolean asks for full transactions (true: objects) or their hashes (false: strings). */
function expectTransactionsAs(
  ex: HttpExchange,
  block: Record<string, unknown> | null,
  full: boolean,
  tag: string,
): void {
  const txs = block?.transactions;
  if (txs === undefined) return;
  if (!Array.isArray(txs))
    failWith(ex, `eth_getBlockByNumber(${JSON.stringify(tag)}, ${full}): transactions is not an array`);
  const wrong = full ? txs.some((t) => typeof t !== "object" || t === null) : txs.some((t) => typeof t !== "string");
  if (wrong)
    failWith(
      ex,
      `eth_getBlockByNumber(${JSON.stringify(tag)}, ${full}) returned ${full ? "hashes, not transaction objects" : "transaction objects, not hashes"}`,
    );
}

/** Looked for so that the flag is seen doing something. */
const BLOCKS_SCANNED = 32;

/**
 * A block that has transactions, read with `false` (its hashes checked on the way): the block of a known
 * withdrawal (operation 3's block_number, seed 2.5) first, else the newest of the 32 before the head.
 */
async function blockWithTransactions(
  ctx: CheckContext,
  head: bigint,
): Promise<{ tag: string; count: number } | undefined> {
  const withdrawalId = knownIds(ctx).withdrawal_id;
  const candidates: bigint[] = [];
  if (withdrawalId !== undefined) {
    const ex = await ctx.call("getWithdrawal", { params: { withdrawal_id: withdrawalId } }).catch(() => undefined);
    const number = ex
      ? (jsonOrUndefined(ex.response.text) as { data?: { block_number?: unknown } } | undefined)?.data?.block_number
      : undefined;
    if (typeof number === "number" && Number.isSafeInteger(number) && number >= 0) candidates.push(BigInt(number));
  }
  for (let n = head; n > head - BigInt(BLOCKS_SCANNED) && n >= 0n; n--) candidates.push(n);
  for (const n of candidates) {
    const tag = `0x${n.toString(16)}`;
    const { ex, response } = await ctx.rpc.callHttp("eth_getBlockByNumber", [tag, false]);
    expectResult(ex, response);
    const block = response.result as Record<string, unknown> | null;
    expectTransactionsAs(ex, block, false, tag);
    const txs = block?.transactions;
    if (Array.isArray(txs) && txs.length > 0) return { tag, count: txs.length };
  }
  return undefined;
}

/** The body as JSON, or undefined: a withdrawal that cannot be read only leaves the scan to the head. */
function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The head as eth_blockNumber says it, read right before and right after something else. */
async function headAround<T>(
  ctx: CheckContext,
  between: () => Promise<T>,
): Promise<{ before: bigint; value: T; after: bigint }> {
  const before = await blockNumberOver(ctx, "query");
  const value = await between();
  const after = await blockNumberOver(ctx, "query");
  return { before, value, after };
}

/** One block object of eth_getBlockByNumber(tag, false), its hex fields checked. */
async function blockAt(ctx: CheckContext, tag: string): Promise<{ ex: HttpExchange; number: bigint; hash: string }> {
  const { ex, response } = await ctx.rpc.callHttp("eth_getBlockByNumber", [tag, false]);
  expectResult(ex, response);
  const block = response.result as Record<string, unknown> | null;
  if (!block || typeof block !== "object")
    failWith(
      ex,
      `eth_getBlockByNumber(${JSON.stringify(tag)}, false) answered ${JSON.stringify(block)}, not a block object`,
    );
  if (typeof block.number !== "string" || !HEX_QUANTITY.test(block.number))
    failWith(ex, `block number ${JSON.stringify(block.number)} is not hex`);
  if (typeof block.hash !== "string" || !HEX_DATA_32.test(block.hash))
    failWith(ex, `block hash ${JSON.stringify(block.hash)} is not hex`);
  return { ex, number: BigInt(block.number), hash: block.hash };
}

/**
 * Seed 4.1: latest is the current block. eth_blockNumber read before and after brackets the head;
 * a node may lag its own eth_blockNumber by one block interval either way (requests served by two
 * replicas a block apart), and no more.
 */
export const latestIsHead: Check = {
  id: "rpc.latest-is-head",
  statements: ["s4.1.get-block-by-number-params", "s4.1.block-number"],
  group: "rpc",
  title: 'eth_getBlockByNumber("latest") is the head: within one block of eth_blockNumber read before and after',
  severity: "MUST",
  seedRef: "§4.1 (the tag latest; eth_blockNumber is the current block number)",
  level: "seed",
  sends: 'eth_blockNumber, eth_getBlockByNumber("latest", false), eth_blockNumber again, over HTTP',
  run: async (ctx) => {
    const { before, value: latest, after } = await headAround(ctx, () => blockAt(ctx, "latest"));
    if (latest.number + 1n < before || latest.number > after + 1n) {
      failWith(
        latest.ex,
        `latest is block ${latest.number}, but eth_blockNumber answered ${before} before and ${after} after (more than one block apart)`,
        { before: String(before), latest: String(latest.number), after: String(after) },
      );
    }
  },
};

/**
 * Seed 4.1: a block is asked for by "block tag or hex number". The latest block, asked for again by its
 * hex number, is the same block. A re-organisation can replace the head between the two reads, so a
 * mismatch is tried once more before it counts.
 */
export const blockByHexNumber: Check = {
  id: "rpc.get-block-by-hex-number",
  statements: ["s4.1.get-block-by-number-params", "s4.1.get-block-by-number-result"],
  group: "rpc",
  title:
    "eth_getBlockByNumber with a hex number answers that block: the latest block asked for by its number has the same hash",
  severity: "MUST",
  seedRef: "§4.1 ([block tag or hex number, boolean])",
  level: "seed",
  sends: 'eth_getBlockByNumber("latest"), then the same block by its hex number, over HTTP',
  run: async (ctx) => {
    let mismatch: { ex: HttpExchange; message: string } | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      const latest = await blockAt(ctx, "latest");
      const hex = `0x${latest.number.toString(16)}`;
      const again = await blockAt(ctx, hex);
      if (again.number === latest.number && again.hash === latest.hash) return;
      mismatch = {
        ex: again.ex,
        message: `block ${hex} asked for by number is ${again.number} with hash ${again.hash}; as latest it was ${latest.hash}`,
      };
    }
    failWith(mismatch!.ex, mismatch!.message);
  },
};

/** Seed 4.1: params is "optional for methods without parameters": eth_blockNumber without a params member. */
export const paramsOptional: Check = {
  id: "rpc.params-optional",
  statements: ["s4.1.request-shape", "s4.1.block-number"],
  group: "rpc",
  title: "eth_blockNumber sent without a params member answers the block number",
  severity: "MUST",
  seedRef: "§4.1 (params: array, optional for methods without parameters)",
  level: "seed",
  sends: "eth_blockNumber over HTTP with no params member",
  run: async (ctx) => {
    const ex = await ctx.rpc.post({ jsonrpc: "2.0", id: 12, method: "eth_blockNumber" });
    if (ex.response.status !== 200) failWith(ex, `eth_blockNumber without params: HTTP ${ex.response.status}`);
    const r = parseRpcResponse(ex);
    expectResult(ex, r);
    if (typeof r.result !== "string" || !HEX_QUANTITY.test(r.result))
      failWith(ex, `eth_blockNumber without params answered ${JSON.stringify(r.result)}, not a hex quantity`);
  },
};

/** Refusing eth_getBlockByNumber without its boolean is the spec's strictness: real nodes differ. */
export const blockParamsRequired: Check = {
  id: "rpc.get-block-params-required",
  statements: [],
  group: "rpc",
  title: "eth_getBlockByNumber without its params is an error, not a block",
  severity: "SHOULD",
  seedRef:
    "§4.1 (params optional only for methods without parameters); assumed: a missing boolean is refused (the seed does not oblige a node to refuse it, so a full-level SHOULD)",
  level: "full",
  sends: 'eth_getBlockByNumber without params, with [] and with ["latest"] alone',
  run: async (ctx) => {
    for (const params of [undefined, [], ["latest"]]) {
      const payload =
        params === undefined
          ? { jsonrpc: "2.0", id: 11, method: "eth_getBlockByNumber" }
          : { jsonrpc: "2.0", id: 11, method: "eth_getBlockByNumber", params };
      const ex = await ctx.rpc.post(payload);
      if (ex.response.status >= 400) continue;
      const r = parseRpcResponse(ex);
      if (!r.error && r.result !== undefined && r.result !== null) {
        failWith(
          ex,
          `eth_getBlockByNumber with params ${JSON.stringify(params ?? "(none)")} returned a block instead of an error`,
        );
      }
    }
  },
};

export const idEcho: Check = {
  id: "rpc.id-echo",
  statements: ["s4.1.response-shape"],
  group: "rpc",
  title: "The response echoes a numeric request id",
  severity: "MUST",
  seedRef: "§4.1 (id (number); id: echo of the request id)",
  level: "seed",
  sends: "eth_blockNumber with a numeric id",
  run: async (ctx) => {
    for (const id of [7, 0]) {
      const ex = await ctx.rpc.post({ jsonrpc: "2.0", id, method: "eth_blockNumber", params: [] });
      const r = parseRpcResponse(ex);
      if (JSON.stringify(r.id) !== JSON.stringify(id))
        failWith(ex, `request id ${JSON.stringify(id)} came back as ${JSON.stringify(r.id)}`);
      if (r.jsonrpc !== "2.0") failWith(ex, `jsonrpc is ${JSON.stringify(r.jsonrpc)}, not "2.0"`);
    }
  },
};

/** JSON-RPC 2.0 also allows string and null ids; the seed shows numbers only. */
export const idEchoAny: Check = {
  id: "rpc.id-echo-string-null",
  statements: [],
  group: "rpc",
  title: "The response echoes string and null request ids (JSON-RPC 2.0)",
  severity: "SHOULD",
  seedRef: "assumed: JSON-RPC 2.0 string and null ids (the seed shows numbers, so a full-level SHOULD)",
  level: "full",
  sends: "eth_blockNumber with a string id and with a null id",
  run: async (ctx) => {
    for (const id of ["certify-id", null]) {
      const ex = await ctx.rpc.post({ jsonrpc: "2.0", id, method: "eth_blockNumber", params: [] });
      const r = parseRpcResponse(ex);
      if (JSON.stringify(r.id) !== JSON.stringify(id))
        failWith(ex, `request id ${JSON.stringify(id)} came back as ${JSON.stringify(r.id)}`);
    }
  },
};

export const contentType: Check = {
  id: "rpc.json-content-type",
  statements: ["s4.1.http-transport"],
  group: "rpc",
  title: "HTTP answers are application/json",
  severity: "SHOULD",
  seedRef: "§4.1 (Content-Type application/json)",
  level: "seed",
  sends: "eth_blockNumber over HTTP",
  run: async (ctx) => {
    const { ex } = await ctx.rpc.callHttp("eth_blockNumber");
    if (!/^application\/json/i.test(ex.response.headers["content-type"] ?? ""))
      failWith(ex, `content-type is ${ex.response.headers["content-type"] ?? "missing"}`);
  },
};

const refusedCases = (ctx: CheckContext): Array<[string, () => Promise<HttpExchange>]> => [
  ["no key", () => ctx.rpc.post({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }, "none")],
  [
    "a wrong key in api_key",
    () =>
      ctx.rpc.post(
        { jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] },
        "query",
        `${ctx.config.rpcApiKey}-wrong`,
      ),
  ],
  [
    "a wrong key in authorization",
    () =>
      ctx.rpc.post(
        { jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] },
        "header",
        `${ctx.config.rpcApiKey}-wrong`,
      ),
  ],
];

/** Seed 5: the key is what grants node access; how a refusal looks is not shown, so any refusal will do. */
export const unauthorized: Check = {
  id: "rpc.unauthorized",
  statements: ["s5.node-access-key"],
  group: "rpc",
  title: "No key or a wrong key gets no result (an HTTP error or a JSON-RPC error)",
  severity: "MUST",
  seedRef: "§5 node access",
  level: "seed",
  sends: "eth_blockNumber with no key, a wrong key in api_key, a wrong key in authorization",
  run: async (ctx) => {
    for (const [what, send] of refusedCases(ctx)) {
      const ex = await send();
      if (ex.response.status >= 400) continue;
      let body: { result?: unknown; error?: unknown } | undefined;
      try {
        body = JSON.parse(ex.response.text) as typeof body;
      } catch {
        failWith(ex, `${what}: HTTP ${ex.response.status} with a body that is neither a refusal nor JSON-RPC`);
      }
      if (body && "result" in body && !body.error)
        failWith(ex, `${what}: answered with a result (HTTP ${ex.response.status})`);
    }
  },
};

export const unauthorizedBody: Check = {
  id: "rpc.unauthorized-body",
  statements: [],
  group: "rpc",
  title: "No key or a wrong key gets HTTP 401 with the unauthorized JSON-RPC error",
  severity: "SHOULD",
  seedRef: "assumed: 401 with error -32001 (how a refusal looks is not shown, so a full-level SHOULD)",
  level: "full",
  sends: "eth_blockNumber with no key, a wrong key in api_key, a wrong key in authorization",
  run: async (ctx) => {
    const cases = refusedCases(ctx);
    for (const [what, send] of cases) {
      const ex = await send();
      if (ex.response.status !== 401) failWith(ex, `${what}: expected HTTP 401, got ${ex.response.status}`);
      let body: unknown;
      try {
        body = JSON.parse(ex.response.text);
      } catch {
        failWith(ex, `${what}: the 401 body is not JSON`);
      }
      if (JSON.stringify(body) !== JSON.stringify(RPC_UNAUTHORIZED))
        failWith(ex, `${what}: the 401 body is not ${JSON.stringify(RPC_UNAUTHORIZED)}`);
    }
  },
};

export const parseError: Check = {
  id: "rpc.errors.parse",
  statements: [],
  group: "rpc",
  title: "Invalid JSON gets error -32700 with id null",
  severity: "MUST",
  seedRef: "assumed: strict JSON-RPC 2.0",
  level: "full",
  sends: "a body that is not JSON",
  run: async (ctx) => {
    const ex = await ctx.rpc.post('{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"');
    const r = parseRpcResponse(ex);
    expectErrorCode(ex, r, -32700, "invalid JSON");
    if (r.id !== null) failWith(ex, `a parse error must carry id null, got ${JSON.stringify(r.id)}`);
  },
};

export const invalidRequest: Check = {
  id: "rpc.errors.invalid-request",
  statements: [],
  group: "rpc",
  title: "A request object without method (or jsonrpc) gets error -32600",
  severity: "MUST",
  seedRef: "assumed: strict JSON-RPC 2.0",
  level: "full",
  sends: "a request without method, one with jsonrpc 1.0, one with a numeric method",
  run: async (ctx) => {
    for (const [payload, what] of [
      [{ jsonrpc: "2.0", id: 1 }, "a request without method"],
      [{ jsonrpc: "1.0", id: 2, method: "eth_blockNumber" }, "jsonrpc 1.0"],
      [{ jsonrpc: "2.0", id: 3, method: 42 }, "a numeric method"],
    ] as const) {
      const ex = await ctx.rpc.post(payload);
      expectErrorCode(ex, parseRpcResponse(ex), -32600, what);
    }
  },
};

export const methodNotFound: Check = {
  id: "rpc.errors.method-not-found",
  statements: [],
  group: "rpc",
  title: "An unknown method gets error -32601",
  severity: "MUST",
  seedRef: "assumed: strict JSON-RPC 2.0",
  level: "full",
  sends: "certify_noSuchMethod",
  run: async (ctx) => {
    const ex = await ctx.rpc.post({ jsonrpc: "2.0", id: 9, method: "certify_noSuchMethod", params: [] });
    const r = parseRpcResponse(ex);
    expectErrorCode(ex, r, -32601, "an unknown method");
    if (r.id !== 9) failWith(ex, `the error carries id ${JSON.stringify(r.id)}, not 9`);
  },
};

export const invalidParams: Check = {
  id: "rpc.errors.invalid-params",
  statements: [],
  group: "rpc",
  title: "Bad parameters get error -32602",
  severity: "MUST",
  seedRef: "assumed: strict JSON-RPC 2.0",
  level: "full",
  sends: 'eth_getBlockByNumber("not-a-block", "not-a-bool")',
  run: async (ctx) => {
    const ex = await ctx.rpc.post({
      jsonrpc: "2.0",
      id: 10,
      method: "eth_getBlockByNumber",
      params: ["not-a-block", "not-a-bool"],
    });
    expectErrorCode(ex, parseRpcResponse(ex), -32602, "eth_getBlockByNumber with bad params");
  },
};

export const batch: Check = {
  id: "rpc.batch",
  statements: [],
  group: "rpc",
  title: "A batch gets an array with one response per request, matched by id",
  severity: "SHOULD",
  seedRef: "assumed: strict JSON-RPC 2.0 (the seed shows single requests, so a full-level SHOULD)",
  level: "full",
  sends: "a batch of eth_blockNumber, an unknown method and a notification (string ids); an empty batch",
  run: async (ctx) => {
    const ex = await ctx.rpc.post([
      { jsonrpc: "2.0", id: "a", method: "eth_blockNumber", params: [] },
      { jsonrpc: "2.0", id: "b", method: "certify_noSuchMethod", params: [] },
      { jsonrpc: "2.0", method: "eth_blockNumber", params: [] },
    ]);
    const list = parseRpcBatch(ex);
    const ids = list.map((r) => r.id).sort();
    if (JSON.stringify(ids) !== JSON.stringify(["a", "b"]))
      failWith(ex, `batch answered ids ${JSON.stringify(ids)}, expected "a" and "b" (the notification gets none)`);
    const a = list.find((r) => r.id === "a")!;
    const b = list.find((r) => r.id === "b")!;
    if (typeof a.result !== "string") failWith(ex, "the eth_blockNumber member has no result");
    if (b.error?.code !== -32601) failWith(ex, "the unknown method member has no -32601 error");
    const empty = await ctx.rpc.post([]);
    expectErrorCode(empty, parseRpcResponse(empty), -32600, "an empty batch");
  },
};

export const notification: Check = {
  id: "rpc.notification",
  statements: [],
  group: "rpc",
  title: "A notification (no id) gets no response body",
  severity: "SHOULD",
  seedRef: "assumed: strict JSON-RPC 2.0 (the seed's requests all carry an id, so a full-level SHOULD)",
  level: "full",
  sends: "eth_blockNumber without an id, alone and in a batch",
  run: async (ctx) => {
    const ex = await ctx.rpc.post({ jsonrpc: "2.0", method: "eth_blockNumber", params: [] });
    if (ex.response.text.trim() !== "") failWith(ex, `a notification was answered: ${ex.response.text.slice(0, 120)}`);
    if (ex.response.status >= 300) failWith(ex, `a notification got HTTP ${ex.response.status}`);
    const batchEx = await ctx.rpc.post([{ jsonrpc: "2.0", method: "eth_blockNumber", params: [] }]);
    if (batchEx.response.text.trim() !== "")
      failWith(batchEx, `a batch of notifications was answered: ${batchEx.response.text.slice(0, 120)}`);
  },
};

export const httpRpcChecks: Check[] = [
  httpBlockNumber,
  httpHeaderKey,
  blockNumberAdvances,
  latestBlock,
  latestIsHead,
  blockByHexNumber,
  paramsOptional,
  blockParamsRequired,
  idEcho,
  idEchoAny,
  contentType,
  unauthorized,
  unauthorizedBody,
  parseError,
  invalidRequest,
  methodNotFound,
  invalidParams,
  batch,
  notification,
];
