// Node access over WebSocket (seed 4.1, 5): the key by query and by header, refusal of the upgrade
// without it, a request sent the instant the socket opens, and a Substrate-style client.
import type { CheckContext } from "../../run/context.ts";
import { HEX_QUANTITY, type KeyPlacement, RPC_UNAUTHORIZED, type RpcResponse } from "../../transport/rpc.ts";
import type { WsConnection } from "../../transport/ws-probe.ts";
import type { Check } from "../check.ts";
import { CheckFailed, fail } from "../outcome.ts";

/** Opens, runs `body`, and always closes. */
async function withSocket<T>(
  ctx: CheckContext,
  placement: KeyPlacement,
  body: (conn: WsConnection) => Promise<T>,
): Promise<T> {
  const conn = await ctx.rpc.openWs(placement);
  try {
    return await body(conn);
  } finally {
    conn.close();
  }
}

async function blockNumberOverWs(ctx: CheckContext, conn: WsConnection): Promise<void> {
  const r = await ctx.rpc.callWs(conn, "eth_blockNumber");
  if (r.jsonrpc !== "2.0") fail(`jsonrpc is ${JSON.stringify(r.jsonrpc)}`, conn.evidence());
  if (typeof r.result !== "string" || !HEX_QUANTITY.test(r.result))
    fail(`eth_blockNumber over WebSocket answered ${JSON.stringify(r.result ?? r.error)}`, conn.evidence());
}

export const wsQueryKey: Check = {
  id: "rpc.ws-query-key",
  statements: ["s1.node-access-http-ws", "s4.1.ws-transport", "s5.node-access-key"],
  group: "rpc",
  title: "WebSocket with the key in api_key answers eth_blockNumber",
  severity: "MUST",
  seedRef: "§4.1; §5 node access",
  level: "seed",
  sends: "eth_blockNumber over a WebSocket opened with the key in api_key",
  run: (ctx) => withSocket(ctx, "query", (conn) => blockNumberOverWs(ctx, conn)),
};

export const wsHeaderKey: Check = {
  id: "rpc.ws-header-key",
  statements: ["s5.node-access-key"],
  group: "rpc",
  title: "WebSocket with `authorization: APIKEY <key>` answers eth_blockNumber",
  severity: "MUST",
  seedRef: "§5 node access",
  level: "seed",
  sends: "eth_blockNumber over a WebSocket opened with `authorization: APIKEY <key>`",
  run: (ctx) => withSocket(ctx, "header", (conn) => blockNumberOverWs(ctx, conn)),
};

export const wsUnauthorized: Check = {
  id: "rpc.ws-unauthorized",
  statements: ["s5.node-access-key"],
  group: "rpc",
  title: "A WebSocket without a key (or with a wrong one) is refused or gets no result",
  severity: "MUST",
  seedRef: "§5 node access (how a refusal looks is not shown)",
  level: "seed",
  sends: "a WebSocket upgrade without a key and with a wrong key in api_key; eth_blockNumber if it opens",
  run: async (ctx) => {
    for (const [placement, key, what] of [
      ["none", undefined, "no key"],
      ["query", `${ctx.config.rpcApiKey}-wrong`, "a wrong key"],
    ] as const) {
      const attempt = await ctx.rpc.tryOpenWs(placement, key);
      if (!attempt.ok) continue; // refused at the upgrade: any status will do
      try {
        const r = await ctx.rpc.callWs(attempt.connection, "eth_blockNumber", []).catch(() => undefined);
        if (r && !r.error && r.result !== undefined)
          fail(`the WebSocket opened with ${what} and answered eth_blockNumber`);
      } finally {
        attempt.connection.close();
      }
    }
  },
};

/** Our choice of how to refuse: the upgrade answered 401 with the unauthorized JSON-RPC error. */
export const wsUnauthorized401: Check = {
  id: "rpc.ws-unauthorized-401",
  statements: [],
  group: "rpc",
  title: "The WebSocket upgrade without a key is refused with HTTP 401",
  severity: "SHOULD",
  seedRef: "assumed: upgrade refused with 401 (how a refusal looks is not shown, so a full-level SHOULD)",
  level: "full",
  sends: "a WebSocket upgrade without a key and with a wrong key in api_key",
  run: async (ctx) => {
    for (const [placement, key, what] of [
      ["none", undefined, "no key"],
      ["query", `${ctx.config.rpcApiKey}-wrong`, "a wrong key"],
    ] as const) {
      const attempt = await ctx.rpc.tryOpenWs(placement, key);
      if (attempt.ok) {
        attempt.connection.close();
        fail(`the WebSocket opened with ${what}`);
      }
      if (attempt.status !== 401)
        throw new CheckFailed(
          `with ${what}: ${attempt.reason}, expected the upgrade refused with HTTP 401`,
          attempt.evidence,
        );
      if (
        attempt.body !== undefined &&
        attempt.body.trim() !== "" &&
        attempt.body.trim() !== JSON.stringify(RPC_UNAUTHORIZED)
      ) {
        throw new CheckFailed(
          `with ${what}: the 401 body is not ${JSON.stringify(RPC_UNAUTHORIZED)}`,
          attempt.evidence,
        );
      }
    }
  },
};

export const wsImmediateRequest: Check = {
  id: "rpc.ws-immediate-request",
  statements: ["s4.1.ws-send-immediately"],
  group: "rpc",
  title: "A request sent the instant the socket opens is answered",
  severity: "MUST",
  seedRef: "§4.1 (the client may send requests immediately)",
  level: "seed",
  sends: "eth_blockNumber in the same tick the socket opens",
  run: async (ctx) => {
    const id = 4242; // the seed's ids are numbers
    const conn = await ctx.rpc.openWs("query", (socket) => {
      socket.send(JSON.stringify({ jsonrpc: "2.0", id, method: "eth_blockNumber", params: [] }));
    });
    try {
      const r = await ctx.rpc.awaitId(conn, id);
      if (typeof r.result !== "string")
        fail(`the immediate request was answered ${JSON.stringify(r.error ?? r)}`, conn.evidence());
    } finally {
      conn.close();
    }
  },
};

export const wsFraming: Check = {
  id: "rpc.ws-framing",
  statements: ["s4.1.ws-transport", "s4.1.response-shape"],
  group: "rpc",
  title: "Over WebSocket the same JSON-RPC messages: a numeric id is echoed with the result",
  severity: "MUST",
  seedRef: "§4.1 (same JSON-RPC messages over the socket)",
  level: "seed",
  sends: "eth_blockNumber over the WebSocket with a numeric id",
  run: (ctx) =>
    withSocket(ctx, "query", async (conn) => {
      for (const id of [42, 0]) {
        conn.send({ jsonrpc: "2.0", id, method: "eth_blockNumber", params: [] });
        const r = await ctx.rpc.awaitId(conn, id);
        if (typeof r.result !== "string")
          fail(`id ${JSON.stringify(id)} was answered without a result`, conn.evidence());
      }
    }),
};

/** Beyond the seed: the rest of JSON-RPC 2.0 over the socket. */
export const wsStrictJsonRpc: Check = {
  id: "rpc.ws-strict-json-rpc",
  statements: [],
  group: "rpc",
  title: "Over WebSocket: string and null ids, -32700 on bad JSON, batches, and no answer to a notification",
  severity: "SHOULD",
  seedRef: "assumed: strict JSON-RPC 2.0 (beyond the seed's messages, so a full-level SHOULD)",
  level: "full",
  sends: "over the WebSocket: string and null ids, text that is not JSON, a batch, a notification",
  run: (ctx) =>
    withSocket(ctx, "query", async (conn) => {
      for (const id of ["ws-string-id", null]) {
        conn.send({ jsonrpc: "2.0", id, method: "eth_blockNumber", params: [] });
        const r = await ctx.rpc.awaitId(conn, id);
        if (typeof r.result !== "string")
          fail(`id ${JSON.stringify(id)} was answered without a result`, conn.evidence());
      }
      // A notification first, then a request: the first message must answer the request.
      conn.send({ jsonrpc: "2.0", method: "eth_blockNumber", params: [] });
      conn.send({ jsonrpc: "2.0", id: "after-notification", method: "eth_blockNumber", params: [] });
      const first = JSON.parse(await conn.next(ctx.timeoutMs)) as { id?: unknown };
      if (first.id !== "after-notification")
        fail(`a notification was answered over WebSocket (${JSON.stringify(first).slice(0, 120)})`, conn.evidence());
      conn.send("{not json");
      const parse = JSON.parse(await conn.next(ctx.timeoutMs)) as { error?: { code?: unknown } };
      if (parse.error?.code !== -32700)
        fail(`invalid JSON over WebSocket answered ${JSON.stringify(parse).slice(0, 120)}`, conn.evidence());
      conn.send([
        { jsonrpc: "2.0", id: "b1", method: "eth_blockNumber", params: [] },
        { jsonrpc: "2.0", id: "b2", method: "eth_blockNumber", params: [] },
      ]);
      const batch = JSON.parse(await conn.next(ctx.timeoutMs)) as unknown;
      if (!Array.isArray(batch) || batch.length !== 2)
        fail(`a batch over WebSocket answered ${JSON.stringify(batch).slice(0, 120)}`, conn.evidence());
    }),
};

export const substrateClient: Check = {
  id: "rpc.substrate-client",
  statements: ["s1.substrate-clients", "s4.1.substrate-api-key-query"],
  group: "rpc",
  title:
    "A Substrate-style client (@polkadot/rpc-provider WsProvider when installed, else the same exchange; key in api_key) connects and gets answers",
  severity: "MUST",
  seedRef: "§1; §4.1 (Substrate-style clients, api_key query)",
  level: "seed",
  sends: "a Substrate-style WebSocket session (key in api_key): requests with numeric ids sent once open",
  run: async (ctx) => {
    let WsProvider: typeof import("@polkadot/rpc-provider").WsProvider;
    try {
      ({ WsProvider } = await import("@polkadot/rpc-provider"));
    } catch {
      // An optional peer: without it the check still runs, as the same exchange on the wire.
      return substrateStyleExchange(ctx);
    }
    const url = ctx.rpc.wsUrl("query");
    // Inner deadlines stay inside the check's own limit, so a stall is reported with what stalled.
    const stepMs = Math.floor(ctx.timeoutMs * 0.8);
    const provider = new WsProvider(url, false, {}, stepMs);
    const errors: string[] = [];
    provider.on("error", (e: unknown) =>
      errors.push(e instanceof Error ? e.message : String((e as { message?: unknown })?.message ?? "error")),
    );
    const evidence = {
      request: { method: "GET (websocket upgrade, WsProvider)", url: ctx.redactor.url(url), headers: {} },
    };
    try {
      await withDeadline(provider.connect(), stepMs, "WsProvider.connect");
      await withDeadline(provider.isReady, stepMs, "WsProvider ready");
      const block = await withDeadline(
        provider.send<string>("eth_blockNumber", []),
        stepMs,
        "eth_blockNumber via WsProvider",
      );
      if (typeof block !== "string" || !HEX_QUANTITY.test(block))
        fail(`WsProvider got ${JSON.stringify(block)} for eth_blockNumber`, evidence);
      const latest = await withDeadline(
        provider.send<Record<string, unknown>>("eth_getBlockByNumber", ["latest", false]),
        stepMs,
        "eth_getBlockByNumber via WsProvider",
      );
      if (!latest || typeof latest.hash !== "string")
        fail("WsProvider got no block for eth_getBlockByNumber", evidence);
    } catch (err) {
      if (err instanceof CheckFailed) throw err.evidence ? err : new CheckFailed(err.message, evidence);
      if ((err as Error).name === "CheckSkipped") throw err;
      fail(
        `WsProvider: ${ctx.redactor.text((err as Error).message)}${errors.length ? ` (${ctx.redactor.text(errors[0])})` : ""}`,
        evidence,
      );
    } finally {
      await provider.disconnect().catch(() => undefined);
    }
  },
};

/**
 * What a Substrate-style client does on the wire (seed 1, 4.1), for runs without
 * @polkadot/rpc-provider: it opens the WebSocket address with the key in api_key and, once open,
 * sends its JSON-RPC requests at once, with numeric ids, each matched by id.
 */
async function substrateStyleExchange(ctx: CheckContext): Promise<void> {
  await withSocket(ctx, "query", async (conn) => {
    conn.send({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] });
    conn.send({ jsonrpc: "2.0", id: 2, method: "eth_getBlockByNumber", params: ["latest", false] });
    const what = "(a Substrate-style exchange; @polkadot/rpc-provider is not installed)";
    const [block, latest] = (await ctx.rpc.awaitIds(conn, [1, 2])) as [RpcResponse, RpcResponse];
    if (typeof block.result !== "string" || !HEX_QUANTITY.test(block.result))
      fail(`eth_blockNumber answered ${JSON.stringify(block.result ?? block.error)} ${what}`, conn.evidence());
    const hash = (latest.result as Record<string, unknown> | null | undefined)?.hash;
    if (typeof hash !== "string") fail(`eth_getBlockByNumber answered no block ${what}`, conn.evidence());
  });
}

function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new CheckFailed(`${what} did not complete within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export const wsRpcChecks: Check[] = [
  wsQueryKey,
  wsHeaderKey,
  wsUnauthorized,
  wsUnauthorized401,
  wsImmediateRequest,
  wsFraming,
  wsStrictJsonRpc,
  substrateClient,
];
