// Deployment C: a small deployment written from the seed alone (not from reference/, the spec, or the
// other seed-only deployments), with a balance that comes from a chain (seed §1: "Balances come from
// chain state"), to prove the seed-level deposit checks. Its choices where the seed is silent:
//   - it watches its node block by block for transfers to its deposit address and credits operation 1
//     after 5 confirmations (the sandbox waits 3), shown as network.confirmation_blocks (§2.4);
//   - balances are integer strings of wei (§2.10: the unit of balance strings is not shown);
//   - getDepositAddress answers {wallet, addresses: [{chain, value}]} with a Tron and an EVM address
//     (its payload is not shown), to the path alone;
//   - its node access ({rpc_url}/rpc, api_key) passes every JSON-RPC call on to the chain.
// Only operations 1 and 2, getDepositAddress and the node access exist. Each fault of
// SEED_CHAIN_FAULTS breaks one statement of seed §3, for the check that enforces it to catch.
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isWithinWindow, parseTimestamp, unixSeconds, verifySignature } from "../../runtime/http/hmac.ts";

/** Each fault, the seed-level check that must catch it, and the seed statement it breaks. */
export const SEED_CHAIN_FAULT_CHECKS = [
  ["credits-before-confirmations", "lifecycle.seed-deposit-confirmation", "s3.deposit-balance-when-confirmed"],
  ["never-credits", "lifecycle.seed-deposit-confirmation", "s3.deposit-balance-when-confirmed"],
  ["credits-twice", "lifecycle.seed-deposit-confirmation", "s3.deposit-balance-when-confirmed"],
  ["holds-for-approval", "lifecycle.seed-deposit-no-approval", "s3.deposit-no-approval"],
] as const;
export type SeedChainFault = (typeof SEED_CHAIN_FAULT_CHECKS)[number][0];

/** Its own confirmation count (the sandbox's is 3). */
export const CONFIRMATIONS = 5;
const WATCH_EVERY_MS = 50;

export interface SeedChainTarget {
  baseUrl: string;
  rpcUrl: string;
  owner: { apiKey: string; apiSecret: string };
  rpcApiKey: string;
  walletId: string;
  assetId: string;
  depositAddress: string;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

/** Starts C on a chain reached at `nodeUrl` (its own node: any EVM JSON-RPC endpoint). */
export async function startSeedChainTarget(nodeUrl: string, faults: SeedChainFault[] = []): Promise<SeedChainTarget> {
  const broken = (f: SeedChainFault) => faults.includes(f);
  const apiKey = `k${randomBytes(6).toString("hex")}`;
  const apiSecret = randomBytes(24).toString("hex");
  const rpcApiKey = randomBytes(16).toString("hex");
  const walletId = `w-${randomBytes(4).toString("hex")}`;
  const assetId = "eth";
  const depositAddress = `0x${randomBytes(20).toString("hex")}`;
  const tronAddress = `T${createHash("sha256").update(depositAddress).digest("hex").slice(0, 33)}`;

  const node = async (method: string, params: unknown[] = []): Promise<unknown> => {
    const res = await fetch(nodeUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    return ((await res.json()) as { result?: unknown }).result;
  };
  const chainId = Number(BigInt((await node("eth_chainId")) as string));

  // ------------------------------------------------------------- the watcher (seed §1, §3)
  const seen: Array<{ block: number; value: bigint }> = [];
  let head = Number(BigInt((await node("eth_blockNumber")) as string));
  let scanned = head;
  let watching = true;
  const watch = async () => {
    while (watching) {
      try {
        head = Number(BigInt((await node("eth_blockNumber")) as string));
        for (; scanned < head; scanned++) {
          const block = (await node("eth_getBlockByNumber", [`0x${(scanned + 1).toString(16)}`, true])) as {
            transactions: Array<{ to?: string; value: string }>;
          };
          for (const tx of block.transactions)
            if (tx.to?.toLowerCase() === depositAddress) seen.push({ block: scanned + 1, value: BigInt(tx.value) });
        }
      } catch {
        // The node is gone (the test closed it): stop quietly.
        if (!watching) return;
      }
      await new Promise((r) => setTimeout(r, WATCH_EVERY_MS));
    }
  };
  const watcher = watch();

  /** Deposits with their confirmations, credited; with holds-for-approval they wait on hold instead. */
  function balances(): { balance: bigint; onHold: bigint } {
    const needed = broken("credits-before-confirmations") ? 1 : CONFIRMATIONS;
    const confirmed = seen.filter((d) => head - d.block + 1 >= needed && !broken("never-credits"));
    const sum = confirmed.reduce((n, d) => n + d.value * (broken("credits-twice") ? 2n : 1n), 0n);
    return broken("holds-for-approval") ? { balance: 0n, onHold: sum } : { balance: sum, onHold: 0n };
  }
  const entry = (): Json => {
    const { balance, onHold } = balances();
    return {
      wallet_id: walletId,
      asset_id: assetId,
      symbol: "ETH",
      balance: balance.toString(),
      available_balance: balance.toString(),
      on_hold: onHold.toString(),
      decimals: 18,
      network: { id: "local-evm", is_evm: true, chain_id: chainId, confirmation_blocks: CONFIRMATIONS },
    };
  };

  // ------------------------------------------------------------- the wallet API (seed 4, 5, 7)
  const ok = (data: unknown) => [200, { success: true, message: "success", code: 0, data }] as const;
  const notFound = [404, { success: false, message: "not found", code: 404, data: null }] as const;
  function route(method: string, path: string): readonly [number, Json] {
    if (method !== "GET") return notFound;
    if (path === `/api/v1/wallets/${walletId}/overview`) return ok([entry()]);
    if (path === `/api/v1/wallets/${walletId}/balance/${assetId}`) return ok(entry());
    if (path === `/api/v1/wallets/${walletId}/deposit-address`)
      return ok({
        wallet: walletId,
        addresses: [
          { chain: "tron", value: tronAddress },
          { chain: "ethereum", value: depositAddress },
        ],
      });
    return notFound;
  }
  const authentic = (req: IncomingMessage, path: string, body: string) => {
    const [id, ts, sign] = ["access-api-key", "access-timestamp", "access-sign"].map((h) => req.headers[h]);
    if (id !== apiKey || typeof ts !== "string" || typeof sign !== "string") return false;
    const when = parseTimestamp(ts);
    if (when === undefined || !isWithinWindow(when, unixSeconds())) return false;
    return verifySignature(apiSecret, { method: req.method ?? "GET", path, timestamp: ts, body }, sign);
  };
  const reply = (res: ServerResponse, [status, body]: readonly [number, Json]) =>
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  const api = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://x");
    if (!authentic(req, url.pathname, Buffer.concat(chunks).toString("utf8")))
      return reply(res, [401, { success: false, message: "invalid api signature", code: "unauthorized", data: null }]);
    reply(res, route(req.method ?? "GET", url.pathname));
  });

  // ------------------------------------------------------------- node access (seed 4.1)
  const rpc = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://x");
    const keyed = url.searchParams.get("api_key") === rpcApiKey || req.headers.authorization === `APIKEY ${rpcApiKey}`;
    if (!keyed) return void res.writeHead(401, { "content-type": "application/json" }).end('{"error":"no key"}');
    if (req.method !== "POST" || url.pathname !== "/rpc") return void res.writeHead(404).end();
    const upstream = await fetch(nodeUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: Buffer.concat(chunks),
    });
    res.writeHead(upstream.status, { "content-type": "application/json" }).end(await upstream.text());
  });

  const listen = (server: Server) =>
    new Promise<number>((resolve) =>
      server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
    );
  const [apiPort, rpcPort] = [await listen(api), await listen(rpc)];
  return {
    baseUrl: `http://127.0.0.1:${apiPort}`,
    rpcUrl: `http://127.0.0.1:${rpcPort}`,
    owner: { apiKey, apiSecret },
    rpcApiKey,
    walletId,
    assetId,
    depositAddress,
    async close() {
      watching = false;
      await watcher;
      api.closeAllConnections();
      rpc.closeAllConnections();
      await Promise.all([new Promise((r) => api.close(r)), new Promise((r) => rpc.close(r))]);
    },
  };
}
