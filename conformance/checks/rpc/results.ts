// JSON-RPC results against the OpenRPC document (full level): every method the suite can call
// safely is called and its result validated against the method's result schema (generated from
// spec/openrpc.json); eth_subscribe newHeads notifies once per new block and eth_unsubscribe stops it.
// eth_sendRawTransaction is not called: a valid call would broadcast a transaction.
import type { ZodType } from "zod";
import * as R from "../../../generated/rpc.ts";
import type { CheckContext } from "../../run/context.ts";
import type { Check } from "../check.ts";
import { fail } from "../outcome.ts";
import type { Evidence } from "../types.ts";

const PROBE_ADDRESS = "0x000000000000000000000000000000000000dEaD";

interface Call {
  method: string;
  params: unknown[];
  schema: ZodType;
}

/** The calls to make; transaction lookups use a transaction of the latest blocks when there is one. */
async function calls(ctx: CheckContext): Promise<Call[]> {
  const list: Call[] = [
    { method: "eth_blockNumber", params: [], schema: R.EthBlockNumberResultSchema },
    { method: "eth_chainId", params: [], schema: R.EthChainIdResultSchema },
    { method: "net_version", params: [], schema: R.NetVersionResultSchema },
    { method: "eth_gasPrice", params: [], schema: R.EthGasPriceResultSchema },
    { method: "eth_getBlockByNumber", params: ["latest", false], schema: R.EthGetBlockByNumberResultSchema },
    { method: "eth_getBlockByNumber", params: ["latest", true], schema: R.EthGetBlockByNumberResultSchema },
    { method: "eth_getBalance", params: [PROBE_ADDRESS, "latest"], schema: R.EthGetBalanceResultSchema },
    {
      method: "eth_getTransactionCount",
      params: [PROBE_ADDRESS, "latest"],
      schema: R.EthGetTransactionCountResultSchema,
    },
    { method: "eth_call", params: [{ to: PROBE_ADDRESS, data: "0x" }, "latest"], schema: R.EthCallResultSchema },
    {
      method: "eth_estimateGas",
      params: [{ from: PROBE_ADDRESS, to: PROBE_ADDRESS, value: "0x0" }],
      schema: R.EthEstimateGasResultSchema,
    },
  ];
  const hash = (await recentTransaction(ctx)) ?? `0x${"0".repeat(64)}`;
  list.push(
    { method: "eth_getTransactionByHash", params: [hash], schema: R.EthGetTransactionByHashResultSchema },
    { method: "eth_getTransactionReceipt", params: [hash], schema: R.EthGetTransactionReceiptResultSchema },
  );
  return list;
}

async function recentTransaction(ctx: CheckContext): Promise<string | undefined> {
  const head = await ctx.rpc.resultHttp("eth_blockNumber").catch(() => undefined);
  if (typeof head !== "string") return undefined;
  for (let n = BigInt(head), seen = 0; n >= 0n && seen < 20; n--, seen++) {
    const block = (await ctx.rpc
      .resultHttp("eth_getBlockByNumber", [`0x${n.toString(16)}`, false])
      .catch(() => undefined)) as { transactions?: unknown[] } | undefined;
    const tx = block?.transactions?.[0];
    if (typeof tx === "string") return tx;
  }
  return undefined;
}

function issueOf(schema: ZodType, value: unknown): string | undefined {
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  const issue = result.error.issues[0];
  return `${issue?.path.map(String).join(".") || "(result)"}: ${issue?.message}`;
}

export const resultsMatchSchemas: Check = {
  id: "rpc.results-match-schemas",
  group: "rpc",
  title:
    "Every JSON-RPC method the suite can call safely answers a result its OpenRPC schema accepts (hex quantities, hashes, blocks, receipts)",
  severity: "MUST",
  seedRef: "§4.1 (standard Ethereum JSON-RPC); assumed: the result schemas of spec/openrpc.json",
  level: "full",
  timeoutScale: 2,
  sends: "every method of spec/openrpc.json but eth_sendRawTransaction, on the latest blocks and their transactions",
  async run(ctx) {
    const wrong: string[] = [];
    let evidence: Evidence | undefined;
    for (const call of await calls(ctx)) {
      const { ex, response } = await ctx.rpc.callHttp(call.method, call.params);
      const problem = response.error
        ? `error ${JSON.stringify(response.error).slice(0, 120)}`
        : !("result" in response)
          ? "no result"
          : issueOf(call.schema, response.result);
      if (problem) {
        wrong.push(
          `${call.method}(${JSON.stringify(call.params).slice(1, -1).slice(0, 60)}) answered ${JSON.stringify(response.result ?? null).slice(0, 80)}: ${problem}`,
        );
        evidence ??= ex.evidence;
      }
    }
    if (wrong.length > 0)
      fail(`${wrong.length} JSON-RPC results break their OpenRPC schema: ${wrong.join("; ")}`, evidence);
  },
};

interface Notification {
  subscription?: unknown;
  result?: unknown;
}

function notificationOf(text: string): Notification | undefined {
  try {
    const m = JSON.parse(text) as { method?: unknown; params?: Notification };
    return m.method === "eth_subscription" && m.params && typeof m.params === "object" ? m.params : undefined;
  } catch {
    return undefined;
  }
}

function blockNumberOf(header: unknown): bigint | undefined {
  const n = (header as { number?: unknown } | null)?.number;
  return typeof n === "string" && /^0x[0-9a-f]+$/i.test(n) ? BigInt(n) : undefined;
}

export const newHeadsSubscription: Check = {
  id: "rpc.ws-new-heads",
  group: "rpc",
  title:
    "eth_subscribe newHeads notifies once per new block (headers valid, numbers consecutive) and eth_unsubscribe stops it",
  severity: "MUST",
  seedRef: "§4.1 (WebSocket node access); assumed: eth_subscribe/eth_unsubscribe of spec/openrpc.json",
  level: "full",
  timeoutScale: 4,
  sends: 'eth_subscribe("newHeads") over the WebSocket, then eth_unsubscribe',
  async run(ctx) {
    const conn = await ctx.rpc.openWs("query");
    try {
      const sub = await ctx.rpc.callWs(conn, "eth_subscribe", ["newHeads"]);
      if (sub.error || issueOf(R.EthSubscribeResultSchema, sub.result))
        fail(`eth_subscribe newHeads answered ${JSON.stringify(sub.error ?? sub.result)}`, conn.evidence());
      const id = sub.result as string;
      const wait = ctx.timeoutMs * 1.5;
      const heads: Array<{ number: bigint; at: number }> = [];
      while (heads.length < 2) {
        const text = await conn
          .next(wait)
          .catch(() =>
            fail(
              `eth_subscribe answered ${id} but no newHeads notification came within ${wait} ms (${heads.length} so far)`,
              conn.evidence(),
            ),
          );
        const n = notificationOf(text);
        if (!n || n.subscription !== id) continue;
        const problem = issueOf(R.RpcBlockHeaderSchema, n.result);
        if (problem) fail(`a newHeads notification is not a block header: ${problem}`, conn.evidence());
        heads.push({ number: BigInt((n.result as { number: string }).number), at: Date.now() });
      }
      if (heads[1].number !== heads[0].number + 1n)
        fail(
          `consecutive newHeads notifications named blocks ${heads[0].number} and ${heads[1].number} (one per block expected)`,
          conn.evidence(),
        );
      const off = await ctx.rpc.callWs(conn, "eth_unsubscribe", [id]);
      if (off.result !== true)
        fail(`eth_unsubscribe answered ${JSON.stringify(off.error ?? off.result)}`, conn.evidence());
      // A notification of a block made before the unsubscribe may still be on its way; one of a block
      // newer than the head read after it is a subscription that did not stop.
      const head = await ctx.rpc.resultHttp("eth_blockNumber");
      const headAfter = blockNumberOf({ number: head });
      if (headAfter === undefined) fail(`eth_blockNumber answered ${JSON.stringify(head)}, not a hex quantity`);
      // Two block intervals without such a notification show it stopped.
      const quiet = Math.min(Math.max(2 * (heads[1].at - heads[0].at), 1_000), ctx.timeoutMs);
      const until = Date.now() + quiet;
      while (Date.now() < until) {
        const text = await conn.next(until - Date.now()).catch(() => undefined);
        if (text === undefined) break;
        const n = notificationOf(text);
        const number = n && n.subscription === id ? blockNumberOf(n.result) : undefined;
        if (number !== undefined && number > headAfter)
          fail(
            `a newHeads notification of block ${number} arrived after eth_unsubscribe answered true (the head was ${headAfter} then)`,
            conn.evidence(),
          );
      }
    } finally {
      conn.close();
    }
  },
};

export const rpcResultChecks: Check[] = [resultsMatchSchemas, newHeadsSubscription];
