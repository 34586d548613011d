// A second, independent deployment written from the seed document alone (not from reference/ or
// the spec), to prove that `custody certify --level seed` certifies a deployment that follows the
// seed while choosing differently wherever the seed is silent:
//   - ids are decimal strings ("1001"), not UUIDs or prefixed ids;
//   - errors other than 401 use the seed's own example envelope (message "success", code 0) or an
//     integer code equal to the HTTP status; a role refusal is 403, a scope refusal and another
//     workspace are 404;
//   - bodies are pretty-printed with the envelope keys in another order, no x-request-id header;
//   - webhook deliveries are signed with the Standard Webhooks profile (Ed25519 over id.timestamp.body,
//     base64) by default, not the sandbox's canonical-JSON profile (selectable too, as the real
//     service signs), or with a scheme of its own ("own-scheme": `x-deployment-signature:
//     t=<unix s>,ed25519=<base64>` over `t.body`, the seed fixing neither header nor content); the
//     body is its own {id, type, data};
//   - the verification key is base64 of the raw 32 bytes, or of the key's SPKI DER form (`spki`);
//   - `deliveryOfSecondWebhook`: the delivery handed to certify belongs to a second webhook, not
//     to the one certify deletes (the seed does not tie the two);
//   - delivery status values are its own ("requeued", "sent");
//   - JSON-RPC refusals are HTTP 403 with a plain JSON body; batches are not supported;
//   - a second workspace's key is answered 404 for every record of the first, as if none existed;
//   - POST /api/v1/wallets takes `{}`; completion is announced 100 ms later as {id, type: "wallet.created", data};
//   - its own events ("balance.refreshed") reach every live webhook every 2.5 s, further apart than a
//     fixed 2 s wait after a delete.
// Only the eight operations of seed section 4 and the node access of 4.1 exist. Each fault of
// SEED_ONLY_FAULTS breaks one seed statement, for the check that enforces it to catch.
import { createHash, generateKeyPairSync, randomInt, sign as signBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { isWithinWindow, parseTimestamp, unixSeconds, verifySignature } from "../../runtime/http/hmac.ts";
import { signWebhook } from "../../runtime/webhooks/signature.ts";
import type { SeedOnlyDeployment } from "./seed-only-flags.ts";

export const SEED_ONLY_FAULTS = [
  "resend-new-event", // §6: a requeue re-delivers the same event
  "full-transactions", // §4.1: the boolean asks for hashes (false) or objects (true)
  "unknown-withdrawal-null", // §4: operation 3 answers one Withdrawal, or an error envelope
  "empty-overview", // §1, §2.2: the overview covers the wallet's assets
  "balance-number", // §2.2: balance is a string
  "scope-ignored", // §5 rule 2: a balances:read key reads balances only
  "error-data", // §7: every error has data null
  "block-number-string", // §2.5: Withdrawal.block_number is an integer
  "creation-status-other-wallet", // §4 operation 5: the creation status of the wallet asked for
  "tenant-ignored", // §1: records are a workspace's; another workspace's key reads them
  "tenant-writes-ignored", // §1: another workspace's key requeues and deletes them
  "signed-other-key", // §6: deliveries verify with the key of operation 8 (signed with another)
  "viewer-deletes-webhook", // §5 rule 3: a Viewer cannot change settings (deletes a webhook)
  "full-flag-ignored", // §4.1: the boolean asks for full transactions (true answers hashes too)
  "resend-names-new-event", // §4 op 6, §2.7: a requeue answers and delivers a new event id each time
  "delivers-after-delete", // §4 op 7: its paced events still reach a deleted webhook
  "scope-writes-ignored", // §5 rule 2: a balances:read key requeues and deletes
  "wallet-created-renamed", // §1, §4, §6: a new wallet is announced as "wallet.ready"
  "scope-withdrawals-ignored", // §5 rule 2 (SHOULD at seed level): a balances:read key reads withdrawals
] as const;
export type SeedOnlyFault = (typeof SEED_ONLY_FAULTS)[number];

/** Each fault, and the check for the seed statement it breaks. */
export const SEED_ONLY_FAULT_CHECKS: Array<[SeedOnlyFault, string]> = [
  ["resend-new-event", "webhooks.resend-same-event"],
  ["full-transactions", "rpc.get-block-latest"],
  ["unknown-withdrawal-null", "envelope.unknown-record"],
  ["empty-overview", "envelope.overview-lists-asset"],
  ["balance-number", "envelope.seed-balance-fields"],
  ["scope-ignored", "scope.balances-read-only"],
  ["error-data", "envelope.error-shape"],
  ["block-number-string", "envelope.seed-record-fields"],
  ["creation-status-other-wallet", "envelope.seed-record-fields"],
  ["tenant-ignored", "isolation.reads-refused"],
  ["tenant-writes-ignored", "isolation.writes-refused"],
  ["signed-other-key", "webhooks.delivery-signature"],
  ["viewer-deletes-webhook", "role.viewer-cannot-change-settings"],
  ["full-flag-ignored", "rpc.get-block-latest"],
  ["resend-names-new-event", "webhooks.resend-same-event"],
  ["delivers-after-delete", "webhooks.delete-stops-delivery"],
  ["scope-writes-ignored", "scope.balances-read-only"],
  ["wallet-created-renamed", "webhooks.wallet-created-name"],
];

/** Faults caught by a SHOULD check of --level seed (the seed leaves the rule open), with that check. */
export const SEED_ONLY_SHOULD_FAULT_CHECKS: Array<[SeedOnlyFault, string]> = [
  ["scope-withdrawals-ignored", "scope.balances-read-no-withdrawals"],
];

interface Key {
  secret: string;
  role: "owner" | "viewer";
  scopes: string[];
  workspace: string;
}

export interface SeedOnlyTarget extends SeedOnlyDeployment {
  wsUrl: string;
  close(): Promise<void>;
}

type Reply = [status: number, body: Record<string, unknown>];
/** An event as this deployment sends it. */
type Sent = { id: string; [k: string]: unknown };

const num = () => String(randomInt(1000, 999_999));
const secret = () => createHash("sha256").update(String(Math.random())).digest("hex");

export type SeedOnlyProfile = "standard-webhooks" | "canonical-json" | "own-scheme";

export interface SeedOnlyOptions {
  keyFormat?: "raw" | "spki";
  deliveryOfSecondWebhook?: boolean;
  /** Every delivery after the first requeue's waits this long first: a machine that got busy during the run. */
  slowDownAfterFirstRequeueMs?: number;
}

/** An Ed25519 key pair: the private key's 32-byte seed, and the public key raw and as SPKI DER. */
function ed25519Pair() {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const spki = publicKey.export({ type: "spki", format: "der" });
  return {
    privateKey,
    seed: new Uint8Array(privateKey.export({ type: "pkcs8", format: "der" }).subarray(-32)),
    spki,
    raw: spki.subarray(12),
  };
}

/** Starts the deployment; its webhook delivers to `receiverUrl`. */
export async function startSeedOnlyTarget(
  receiverUrl: string,
  faults: SeedOnlyFault[] = [],
  profile: SeedOnlyProfile = "standard-webhooks",
  options: SeedOnlyOptions = {},
): Promise<SeedOnlyTarget> {
  const broken = (f: SeedOnlyFault) => faults.includes(f);
  const workspace = num();
  const otherWorkspace = num();
  const keys = new Map<string, Key>([
    [num(), { secret: secret(), role: "owner", scopes: ["*"], workspace }],
    [num(), { secret: secret(), role: "viewer", scopes: ["*"], workspace }],
    [num(), { secret: secret(), role: "owner", scopes: ["balances:read"], workspace }],
    [num(), { secret: secret(), role: "owner", scopes: ["*"], workspace: otherWorkspace }],
  ]);
  const [ownerId, viewerId, scopedId, otherId] = [...keys.keys()];
  const wallet = num();
  const asset = "77";
  const signing = ed25519Pair();
  const signer = broken("signed-other-key") ? ed25519Pair() : signing;
  const publicKeyBase64 = (options.keyFormat === "spki" ? signing.spki : signing.raw).toString("base64");
  const withdrawal = {
    id: num(),
    wallet_id: wallet,
    asset_id: asset,
    amount: "0.5",
    status: "settled",
    block_number: broken("block-number-string") ? "12" : 12,
    confirmed_at: new Date().toISOString(),
  };
  const webhook = { id: num(), url: receiverUrl, live: true };
  const second = { id: num(), url: receiverUrl, live: true };
  const webhooks = [webhook, second];
  const event = { id: num(), type: "wallet.created", data: { wallet_id: wallet } };
  const delivery = {
    id: num(),
    webhook_id: options.deliveryOfSecondWebhook ? second.id : webhook.id,
    event_id: event.id,
    event_type: event.type,
    status: "sent",
    attempt_count: 1,
    workspace_id: workspace,
    payload: event,
  };

  const notFound: Reply = [
    404,
    { success: false, message: "success", code: 0, data: broken("error-data") ? {} : null },
  ];
  const refuse = (status: number, message: string): Reply => [
    status,
    { success: false, message, code: status, data: null },
  ];
  const ok = (data: unknown): Reply => [200, { success: true, message: "success", code: 0, data }];
  const balanceOf = () => ({
    asset_id: asset,
    wallet_id: wallet,
    symbol: "ETH",
    balance: broken("balance-number") ? 1.5 : "1.5",
    decimals: 18,
  });

  /** How long each delivery waits first: 0 until the first requeue was delivered (slowDownAfterFirstRequeueMs). */
  let slowMs = 0;
  async function redeliver(): Promise<void> {
    const sent = broken("resend-new-event")
      ? { ...event, id: num() }
      : broken("resend-names-new-event")
        ? { ...event, id: delivery.event_id }
        : event;
    const target = webhooks.find((w) => w.id === delivery.webhook_id)!;
    await post(target.url, sent);
    slowMs = options.slowDownAfterFirstRequeueMs ?? 0;
  }

  async function post(url: string, sent: Sent): Promise<void> {
    if (slowMs > 0) await new Promise((r) => setTimeout(r, slowMs));
    const body = JSON.stringify(sent);
    await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...signatureHeaders(sent.id, body) },
      body,
    }).catch(() => undefined);
  }

  /** A new event to every live webhook (every webhook, deleted ones too, with delivers-after-delete). */
  async function emit(sent: Sent): Promise<void> {
    await Promise.all(webhooks.filter((w) => w.live || broken("delivers-after-delete")).map((w) => post(w.url, sent)));
  }
  const pace = setInterval(
    () => void emit({ id: num(), type: "balance.refreshed", data: { wallet_id: wallet } }),
    2_500,
  );

  function signatureHeaders(id: string, body: string): Record<string, string> {
    if (profile !== "own-scheme") return signWebhook({ profile, privateKey: signer.seed, id, body });
    const t = String(Math.floor(Date.now() / 1000));
    return {
      "x-deployment-signature": `t=${t},ed25519=${signBytes(null, Buffer.from(`${t}.${body}`), signer.privateKey).toString("base64")}`,
      "x-deployment-event": id,
    };
  }

  /** The eight operations of seed section 4, matched on the path's segments. */
  function route(method: string, parts: string[], key: Key): Reply {
    const loose = (scope: string) =>
      broken("scope-ignored") ||
      (scope === "webhooks:write" && broken("scope-writes-ignored")) ||
      (scope === "withdrawals:read" && broken("scope-withdrawals-ignored"));
    const may = (scope: string) => key.scopes.includes("*") || key.scopes.includes(scope) || loose(scope);
    // Every record here is the first workspace's: the second one's key finds none of them.
    const served = broken("tenant-ignored") || (broken("tenant-writes-ignored") && method !== "GET");
    if (key.workspace !== workspace && !served) return notFound;
    const [a, b, c, d, e] = parts;
    if (method === "GET" && a === "wallets" && b === "creation-status" && c !== undefined && d === undefined) {
      if (!may("wallets:read")) return refuse(404, "not found");
      return c === wallet
        ? ok({
            wallet_id: broken("creation-status-other-wallet") ? num() : wallet,
            status: "ready",
            workspace_id: workspace,
            created_at: new Date(0).toISOString(),
          })
        : notFound;
    }
    if (method === "GET" && a === "wallets" && c === "overview" && d === undefined) {
      if (!may("balances:read")) return refuse(404, "not found");
      return b === wallet ? ok(broken("empty-overview") ? [] : [balanceOf()]) : notFound;
    }
    if (method === "GET" && a === "wallets" && c === "balance" && d !== undefined && e === undefined) {
      if (!may("balances:read")) return refuse(404, "not found");
      return b === wallet && d === asset ? ok(balanceOf()) : notFound;
    }
    if (method === "GET" && a === "wallets" && c === "withdrawals" && d === undefined) {
      if (!may("withdrawals:read")) return refuse(404, "not found");
      return b === wallet ? ok([withdrawal]) : notFound;
    }
    if (method === "GET" && a === "withdrawals" && b !== undefined && c === undefined) {
      if (!may("withdrawals:read")) return refuse(404, "not found");
      if (b === withdrawal.id) return ok(withdrawal);
      return broken("unknown-withdrawal-null") ? ok(null) : notFound;
    }
    if (method === "POST" && a === "wallets" && b === undefined) {
      if (key.role === "viewer" || !may("wallets:write")) return refuse(403, "may not create wallets");
      const created = num();
      setTimeout(
        () =>
          void emit({
            id: num(),
            type: broken("wallet-created-renamed") ? "wallet.ready" : "wallet.created",
            data: { wallet_id: created },
          }),
        100,
      );
      return ok({ wallet_id: created, status: "pending" });
    }
    if (a !== "workspaces" || b === undefined) return notFound;
    if (b !== workspace) return refuse(404, "workspace not found");
    if (method === "GET" && c === "webhook-verification-key" && d === undefined)
      return ok({ public_key: publicKeyBase64 });
    if (method === "POST" && c === "webhook-logs" && d !== undefined && e === "resend" && parts.length === 5) {
      if (key.role === "viewer") return refuse(403, "role may not requeue");
      if (!may("webhooks:write")) return refuse(404, "not found");
      if (d !== delivery.id) return notFound;
      delivery.attempt_count++;
      delivery.status = "requeued";
      if (broken("resend-names-new-event")) delivery.event_id = num();
      if (webhooks.find((w) => w.id === delivery.webhook_id)?.live) setTimeout(() => void redeliver(), 20);
      return ok({ ...delivery });
    }
    if (method === "DELETE" && c === "webhooks" && d !== undefined && e === undefined) {
      if (key.role === "viewer" && !broken("viewer-deletes-webhook"))
        return refuse(403, "role may not change settings");
      if (!may("webhooks:write")) return refuse(404, "not found");
      const doomed = webhooks.find((w) => w.id === d);
      if (!doomed) return notFound;
      doomed.live = false;
      return ok({ webhook_id: doomed.id, status: "deleted" });
    }
    return notFound;
  }

  function authenticate(req: IncomingMessage, path: string, body: string): Key | undefined {
    const id = req.headers["access-api-key"];
    const ts = req.headers["access-timestamp"];
    const sign = req.headers["access-sign"];
    if (typeof id !== "string" || typeof ts !== "string" || typeof sign !== "string") return undefined;
    const key = keys.get(id);
    const when = parseTimestamp(ts);
    if (!key || when === undefined || !isWithinWindow(when, unixSeconds())) return undefined;
    return verifySignature(key.secret, { method: req.method ?? "GET", path, timestamp: ts, body }, sign)
      ? key
      : undefined;
  }

  const send = (res: ServerResponse, [status, body]: Reply) => {
    // Another key order and pretty-printing: both are the deployment's to choose.
    const ordered = { data: body.data, code: body.code, message: body.message, success: body.success };
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(ordered, null, 2));
  };

  const api = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://x");
    const key = authenticate(req, url.pathname, Buffer.concat(chunks).toString("utf8"));
    if (!key)
      return send(res, [401, { success: false, message: "invalid api signature", code: "unauthorized", data: null }]);
    const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    if (parts[0] !== "api" || parts[1] !== "v1") return send(res, notFound);
    send(res, route(req.method ?? "GET", parts.slice(2), key));
  });

  // Node access (seed 4.1): blocks every 150 ms, each with one transaction.
  const started = Date.now();
  const rpcApiKey = secret();
  const head = () => Math.floor((Date.now() - started) / 150) + 100;
  const hex = (n: number) => `0x${n.toString(16)}`;
  const hash = (what: string) => `0x${createHash("sha256").update(what).digest("hex")}`;
  const block = (n: number, full: boolean) => ({
    number: hex(n),
    hash: hash(`block${n}`),
    timestamp: hex(1_700_000_000 + n),
    transactions:
      (full && !broken("full-flag-ignored")) || broken("full-transactions")
        ? [{ hash: hash(`tx${n}`), blockNumber: hex(n) }]
        : [hash(`tx${n}`)],
  });
  const rpcError = (id: unknown, code: number, message: string) => ({ jsonrpc: "2.0", id, error: { code, message } });

  function answer(text: string): object | undefined {
    let msg: { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
    try {
      msg = JSON.parse(text) as typeof msg;
    } catch {
      return rpcError(null, -32700, "parse error");
    }
    if (Array.isArray(msg) || typeof msg !== "object" || msg === null)
      return rpcError(null, -32600, "batches are not supported");
    if (msg.jsonrpc !== "2.0" || typeof msg.method !== "string")
      return rpcError(msg.id ?? null, -32600, "invalid request");
    if (!("id" in msg)) return undefined;
    const params = Array.isArray(msg.params) ? msg.params : [];
    if (msg.method === "eth_blockNumber") return { jsonrpc: "2.0", id: msg.id, result: hex(head()) };
    if (msg.method === "eth_getBlockByNumber") {
      const [tag, full] = params;
      const n =
        tag === "latest" ? head() : typeof tag === "string" && /^0x[0-9a-f]+$/.test(tag) ? parseInt(tag, 16) : NaN;
      if (Number.isNaN(n) || typeof full !== "boolean") return rpcError(msg.id, -32602, "expected [block, boolean]");
      return { jsonrpc: "2.0", id: msg.id, result: n > head() ? null : block(n, full) };
    }
    return rpcError(msg.id, -32601, "no such method");
  }

  const keyOk = (req: IncomingMessage) => {
    const url = new URL(req.url ?? "/", "http://x");
    return url.searchParams.get("api_key") === rpcApiKey || req.headers.authorization === `APIKEY ${rpcApiKey}`;
  };
  const rpc = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (!keyOk(req))
      return void res.writeHead(403, { "content-type": "application/json" }).end('{"message":"forbidden"}');
    if (req.method !== "POST" || new URL(req.url ?? "/", "http://x").pathname !== "/rpc")
      return void res.writeHead(404).end();
    const reply = answer(Buffer.concat(chunks).toString("utf8"));
    if (reply === undefined) return void res.writeHead(204).end();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply));
  });
  const sockets = new WebSocketServer({ noServer: true });
  rpc.on("upgrade", (req: IncomingMessage, socket: Duplex, headBytes: Buffer) => {
    if (new URL(req.url ?? "/", "http://x").pathname !== "/ws")
      return void socket.end("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n");
    if (!keyOk(req)) return void socket.end("HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
    sockets.handleUpgrade(req, socket, headBytes, (ws) => {
      ws.on("message", (data) => {
        const reply = answer(data.toString());
        if (reply !== undefined) ws.send(JSON.stringify(reply));
      });
    });
  });

  const listen = (server: Server) =>
    new Promise<number>((resolve) =>
      server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
    );
  const [apiPort, rpcPort] = [await listen(api), await listen(rpc)];
  const pair = (id: string) => ({ apiKey: id, apiSecret: keys.get(id)!.secret });
  return {
    baseUrl: `http://127.0.0.1:${apiPort}`,
    rpcUrl: `http://127.0.0.1:${rpcPort}`,
    wsUrl: `ws://127.0.0.1:${rpcPort}/ws`,
    owner: pair(ownerId),
    viewer: pair(viewerId),
    scoped: pair(scopedId),
    other: pair(otherId),
    otherWorkspaceId: otherWorkspace,
    rpcApiKey,
    workspaceId: workspace,
    walletId: wallet,
    assetId: asset,
    withdrawalId: withdrawal.id,
    webhookId: webhook.id,
    deliveryId: delivery.id,
    async close() {
      clearInterval(pace);
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      api.closeAllConnections();
      rpc.closeAllConnections();
      await Promise.all([new Promise((r) => api.close(r)), new Promise((r) => rpc.close(r))]);
    },
  };
}
