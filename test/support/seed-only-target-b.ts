// Deployment B: a second implementation written from the seed document alone (not from reference/,
// the spec, or test/support/seed-only-target.ts), choosing differently from both wherever the seed
// is silent, to prove that `custody certify --level seed` judges only what the seed states:
//   - ids are prefixed Crockford base32 (`wlt_01J…`), neither UUIDs nor decimal strings;
//   - the success code is the string "0" (seed 2.1: code is "integer or string"); error codes are
//     strings ("not_found", "forbidden"); another workspace is 403, a missing record 404;
//   - bodies are tab-indented with every object's fields in reverse seed order;
//   - nested Asset and Network records in every balance; operation 4 lists thousands of withdrawals
//     (its answer is over 1 MiB: the seed does not page it);
//   - deliveries are signed Ed25519 over the canonical JSON of the body (the real service's way),
//     hex, with the event id only in the body, as the seed names it: `event_id`; its own status
//     values ("queued"); a Viewer may requeue (neither moving funds nor changing a setting);
//   - the timestamp window is ±120 s and accepts decimal fractions; the hex of ACCESS-SIGN may be
//     in either case (the seed fixes neither);
//   - the node accepts eth_blockNumber without params and eth_getBlockByNumber without its boolean;
//     a missing key is HTTP 401 with a plain JSON body; blocks every 200 ms;
//   - the string to sign includes the query string (`path=/…?asset_id=…`: seed 5 rule 4 leaves it open);
//   - the deposit address is read with or without ?asset_id; POST /api/v1/wallets needs a name (`{}` is
//     400) and is announced as {event_id, event_type: "wallet.created", data};
//   - its own events ("deposit.detected") reach the webhook every 3 s.
// The only input from beyond the seed is what a certifier cannot do without: the string to sign
// (seed 5 rule 4 leaves it open; certify signs as the real service's SDK does), implemented here
// with node:crypto. Each fault of SEED_ONLY_B_FAULTS breaks one seed statement.
import {
  createHash,
  createHmac,
  generateKeyPairSync,
  randomBytes,
  sign as signBytes,
  timingSafeEqual,
} from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import type { SeedOnlyDeployment } from "./seed-only-flags.ts";

/** Each fault, the check that must catch it, and the seed statement (spec/trace.yaml) it breaks. */
export const SEED_ONLY_B_FAULT_CHECKS = [
  ["asset-without-id", "envelope.seed-balance-fields", "s2.3.asset"],
  ["network-without-id", "envelope.seed-balance-fields", "s2.4.network"],
  ["chain-id-string", "envelope.seed-balance-fields", "s2.4.network"],
  ["asset-decimals-string", "envelope.seed-balance-fields", "s2.3.asset"],
  ["withdrawals-object", "envelope.seed-withdrawal-list", "s4.op4-list-wallet-withdrawals"],
  ["withdrawals-of-other-wallet", "envelope.seed-withdrawal-list", "s4.op4-list-wallet-withdrawals"],
  ["approvals-not-objects", "envelope.seed-withdrawal-list", "s2.5.withdrawal"],
  ["creation-date-not-iso", "envelope.seed-record-fields", "s2.6.wallet-creation-status"],
  ["attempt-count-string", "webhooks.resend-same-event", "s2.7.webhook-delivery"],
  ["resend-new-event", "webhooks.resend-same-event", "s4.op6-resend-delivery"],
  ["resend-other-delivery", "webhooks.resend-same-event", "s4.op6-resend-delivery"],
  ["delete-result-not-2.8", "webhooks.delete-stops-delivery", "s2.8.webhook-delete-result"],
  ["latest-behind", "rpc.latest-is-head", "s4.1.get-block-by-number-params"],
  ["hex-number-refused", "rpc.get-block-by-hex-number", "s4.1.get-block-by-number-params"],
  ["params-required", "rpc.params-optional", "s4.1.request-shape"],
  ["signature-cache", "auth.signed-other-route", "s5.rule1-401-envelope"],
  ["timestamp-unchecked", "auth.timestamp-a-day-off", "s5.access-timestamp"],
  ["timestamp-not-parsed", "auth.timestamp-not-numeric", "s5.access-timestamp"],
  ["viewer-refused-transactions", "role.viewer-can-read", "s5.rule3-viewer-reads"],
  ["success-code-one", "envelope.success-shape", "s2.1.envelope-code"],
  ["key-as-bare-string", "envelope.success-shape", "s2.1.envelope-data"],
  ["withdrawal-read-other", "envelope.seed-withdrawal-list", "s4.op3-get-withdrawal"],
  ["tenant-ignored", "isolation.reads-refused", "s1.mpc-wallets-in-workspace"],
  ["wallet-created-renamed", "webhooks.wallet-created-name", "s6.wallet-created"],
  ["scope-writes-ignored", "scope.balances-read-only", "s5.rule2-scopes"],
] as const;

export type SeedOnlyBFault = (typeof SEED_ONLY_B_FAULT_CHECKS)[number][0];

export interface SeedOnlyTargetB extends SeedOnlyDeployment {
  wsUrl: string;
  /** Bytes of operation 4's answer for the wallet. */
  withdrawalListBytes: number;
  close(): Promise<void>;
}

interface Key {
  secret: string;
  role: "owner" | "viewer";
  /** undefined: every scope. */
  scopes?: string[];
  workspace: string;
}

type Json = Record<string, unknown>;
type Reply = [status: number, body: Json];

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const ulid = (prefix: string) => `${prefix}_01J${Array.from(randomBytes(23), (b) => CROCKFORD[b % 32]).join("")}`;
const WINDOW_S = 120;
const BLOCK_MS = 200;
/** Enough withdrawals that operation 4's answer is over 1 MiB. */
const WITHDRAWALS = 2_600;

/** Reverse seed order, recursively: the order of fields is the deployment's to choose. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value as Json)
      .reverse()
      .map(([k, v]) => [k, reversed(v)]),
  );
}

/** JSON with object keys sorted at every depth, no spaces: what the signature covers. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const entries = Object.keys(value as Json)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical((value as Json)[k])}`);
  return `{${entries.join(",")}}`;
}

export async function startSeedOnlyTargetB(
  receiverUrl: string,
  faults: SeedOnlyBFault[] = [],
): Promise<SeedOnlyTargetB> {
  const broken = (f: SeedOnlyBFault) => faults.includes(f);
  const workspace = ulid("wsp");
  const otherWorkspace = ulid("wsp");
  const keys = new Map<string, Key>([
    [ulid("key"), { secret: randomBytes(32).toString("base64url"), role: "owner", workspace }],
    [ulid("key"), { secret: randomBytes(32).toString("base64url"), role: "viewer", workspace }],
    [
      ulid("key"),
      { secret: randomBytes(32).toString("base64url"), role: "owner", scopes: ["balances:read"], workspace },
    ],
    [ulid("key"), { secret: randomBytes(32).toString("base64url"), role: "owner", workspace: otherWorkspace }],
  ]);
  const [ownerId, viewerId, scopedId, otherId] = [...keys.keys()];
  const wallet = ulid("wlt");
  const otherWallet = ulid("wlt");
  const network = ulid("net");
  const asset = ulid("ast");
  const iso = (ms: number) => new Date(ms).toISOString();
  const created = Date.now() - 3_600_000;

  // ---------------------------------------------------------------- records (seed 2.2-2.9)
  const networkRecord = () => ({
    ...(broken("network-without-id") ? {} : { id: network }),
    name: "Sepolia",
    is_evm: true,
    chain_id: broken("chain-id-string") ? "11155111" : 11155111,
    native_currency: "ETH",
    is_testnet: true,
    internal_code: "ETH_SEPOLIA",
    confirmation_blocks: 12,
    disabled: false,
    logo_url: "https://example.invalid/eth.svg",
  });
  const assetRecord = () => ({
    ...(broken("asset-without-id") ? {} : { id: asset }),
    name: "Ether",
    symbol: "ETH",
    decimals: broken("asset-decimals-string") ? "18" : 18,
    address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    contract_address: "",
    asset_type: "native",
    is_native: true,
    address_type: "evm",
    is_whitelisted: true,
    network_id: network,
    network: { id: network, name: "Sepolia", chain_id: 11155111 },
    price_usd: "3120.55",
    logo_url: "https://example.invalid/eth.svg",
  });
  const balanceRecord = () => ({
    wallet_id: wallet,
    asset_id: asset,
    symbol: "ETH",
    name: "Ether",
    balance: "1.25",
    available_balance: "1.25",
    total_balance: "1.25",
    on_hold: "0",
    balance_usd: "3900.69",
    usd_value: "3900.69",
    value_usd: "3900.69",
    price_usd: "3120.55",
    decimals: 18,
    asset: assetRecord(),
    network: networkRecord(),
    refreshed_at: iso(Date.now() - 5_000),
  });
  const withdrawalRecord = (n: number, of: string) => {
    const id = ulid("wdr");
    return {
      id,
      withdrawal_id: id,
      wallet_id: of,
      asset_id: asset,
      network_id: network,
      amount: `0.${String(n).padStart(4, "0")}`,
      recipient_address: `0x${createHash("sha256").update(`to${n}`).digest("hex").slice(0, 40)}`,
      status: "confirmed",
      tx_hash: `0x${createHash("sha256").update(`tx${n}`).digest("hex")}`,
      block_number: 7_000_000 + n,
      block_hash: `0x${createHash("sha256").update(`bh${n}`).digest("hex")}`,
      gas_used: "21000",
      effective_gas_price_wei: "1500000007",
      confirmed_at: iso(created + n * 1000),
      error: "",
      status_reason: "",
      transaction: { nonce: n, type: 2 },
      withdrawal_approvals: broken("approvals-not-objects") ? ["owner"] : [{ approver: "owner", decision: "approved" }],
    };
  };
  const withdrawals = Array.from({ length: WITHDRAWALS }, (_, n) => withdrawalRecord(n, wallet));
  const foreignWithdrawals = [withdrawalRecord(WITHDRAWALS, otherWallet)];
  const listed = broken("withdrawals-of-other-wallet") ? [...withdrawals, ...foreignWithdrawals] : withdrawals;
  const creationStatus = {
    id: ulid("wcs"),
    wallet_id: wallet,
    status: "completed",
    workspace_id: workspace,
    name: "treasury",
    wallet_type: "mpc",
    status_reason: "",
    mpc_correlation_id: ulid("mpc"),
    created_at: broken("creation-date-not-iso") ? String(Math.floor(created / 1000)) : iso(created),
    updated_at: iso(created + 4_000),
    completed_at: iso(created + 4_000),
  };

  // ---------------------------------------------------------------- webhooks (seed 2.7-2.9, 6)
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const publicKeyBase64 = Buffer.from(publicKey.export({ format: "jwk" }).x!, "base64url").toString("base64");
  const webhook = { id: ulid("whk"), url: receiverUrl, live: true };
  const event = {
    event_id: ulid("evt"),
    event_type: "wallet.created",
    workspace_id: workspace,
    occurred_at: iso(created + 4_000),
    data: { wallet_id: wallet, name: "treasury" },
  };
  const delivery = {
    id: ulid("dlv"),
    webhook_id: webhook.id,
    event_type: event.event_type,
    event_id: event.event_id,
    status: "delivered",
    attempt_count: 1,
    workspace_id: workspace,
    last_attempt_at: iso(created + 5_000),
    delivered_at: iso(created + 5_000),
    response_status: 200,
    response_body: "ok",
    error: "",
    payload: event,
    created_at: iso(created + 5_000),
    updated_at: iso(created + 5_000),
  };
  const otherDelivery = { ...delivery, id: ulid("dlv"), delivery_id: undefined };

  const pace = setInterval(() => {
    if (webhook.live)
      void deliver({
        event_id: ulid("evt"),
        event_type: "deposit.detected",
        workspace_id: workspace,
        occurred_at: iso(Date.now()),
        data: { wallet_id: wallet, asset_id: asset },
      });
  }, 3_000);

  async function deliver(body: Json): Promise<void> {
    const signature = signBytes(null, Buffer.from(canonical(body)), privateKey).toString("hex");
    await fetch(webhook.url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-webhook-signature": signature },
      body: JSON.stringify(body, null, 2),
    }).catch(() => undefined);
  }

  // ---------------------------------------------------------------- the wallet API (seed 4, 5, 7)
  const ok = (data: unknown): Reply => [
    200,
    { success: true, message: "success", code: broken("success-code-one") ? "1" : "0", data },
  ];
  const error = (status: number, code: string, message: string): Reply => [
    status,
    { success: false, message, code, data: null },
  ];
  const notFound = (what: string) => error(404, "not_found", `${what} not found`);
  const forbidden = (why: string) => error(403, "forbidden", why);
  const listBody = JSON.stringify(
    reversed({
      success: true,
      message: "success",
      code: broken("success-code-one") ? "1" : "0",
      data: broken("withdrawals-object") ? { items: listed } : listed,
    }),
    null,
    "\t",
  );

  type Route = (m: RegExpExecArray, key: Key, method: string, query: URLSearchParams, body: unknown) => Reply | string;
  const routes: Array<[string, RegExp, string | undefined, Route]> = [
    [
      "GET",
      /^\/api\/v1\/wallets\/creation-status\/([^/]+)$/,
      "wallets:read",
      (m) => (m[1] === wallet ? ok(creationStatus) : notFound("wallet")),
    ],
    [
      "GET",
      /^\/api\/v1\/wallets\/([^/]+)\/overview$/,
      "balances:read",
      (m) => (m[1] === wallet ? ok([balanceRecord()]) : notFound("wallet")),
    ],
    [
      "GET",
      /^\/api\/v1\/wallets\/([^/]+)\/balance\/([^/]+)$/,
      "balances:read",
      (m) => (m[1] === wallet && m[2] === asset ? ok(balanceRecord()) : notFound("balance")),
    ],
    [
      "GET",
      /^\/api\/v1\/wallets\/([^/]+)\/withdrawals$/,
      "withdrawals:read",
      (m) => (m[1] === wallet ? listBody : notFound("wallet")),
    ],
    [
      "GET",
      /^\/api\/v1\/withdrawals\/([^/]+)$/,
      "withdrawals:read",
      (m) => {
        const found = [...withdrawals, ...foreignWithdrawals].find((w) => w.id === m[1]);
        if (found && broken("withdrawal-read-other"))
          return ok(withdrawals[(withdrawals.indexOf(found) + 1) % withdrawals.length]);
        return found ? ok(found) : notFound("withdrawal");
      },
    ],
    [
      "GET",
      /^\/api\/v1\/wallets\/([^/]+)\/deposit-address$/,
      "wallets:read",
      (m, _key, _method, query) => {
        const wanted = query.get("asset_id") ?? asset;
        return m[1] === wallet && wanted === asset
          ? ok({ asset_id: asset, network_id: network, address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" })
          : notFound("deposit address");
      },
    ],
    [
      "POST",
      /^\/api\/v1\/wallets$/,
      "wallets:write",
      (_m, key, _method, _query, body) => {
        const name = (body as { name?: unknown } | undefined)?.name;
        if (key.role === "viewer") return forbidden("viewers may not create wallets");
        if (typeof name !== "string" || !name) return error(400, "bad_request", "name is required");
        const id = ulid("wlt");
        const type = broken("wallet-created-renamed") ? "WalletCreated" : "wallet.created";
        setTimeout(() => {
          if (webhook.live)
            void deliver({
              event_id: ulid("evt"),
              event_type: type,
              workspace_id: workspace,
              occurred_at: iso(Date.now()),
              data: { wallet_id: id, name },
            });
        }, 150);
        return ok({ id, name, status: "pending" });
      },
    ],
    [
      "GET",
      /^\/api\/v1\/workspaces\/([^/]+)\/webhook-verification-key$/,
      undefined,
      () => ok(broken("key-as-bare-string") ? publicKeyBase64 : { public_key: publicKeyBase64 }),
    ],
    [
      "GET",
      /^\/api\/v1\/workspaces\/([^/]+)\/transactions\/export$/,
      "transactions:read",
      (_m, key) =>
        key.role === "viewer" && broken("viewer-refused-transactions")
          ? forbidden("viewers may not export")
          : ok({ format: "json", items: listed.slice(0, 3) }),
    ],
    [
      "POST",
      /^\/api\/v1\/workspaces\/([^/]+)\/webhook-logs\/([^/]+)\/resend$/,
      "webhooks:write",
      (m) => {
        if (m[2] !== delivery.id) return notFound("delivery");
        delivery.attempt_count++;
        delivery.status = "queued";
        delivery.updated_at = iso(Date.now());
        const sent = broken("resend-new-event") ? { ...event, event_id: ulid("evt") } : event;
        if (webhook.live) setTimeout(() => void deliver(sent), 20);
        const record = broken("resend-other-delivery") ? otherDelivery : delivery;
        return ok({
          ...record,
          attempt_count: broken("attempt-count-string") ? String(record.attempt_count) : record.attempt_count,
        });
      },
    ],
    [
      "DELETE",
      /^\/api\/v1\/workspaces\/([^/]+)\/webhooks\/([^/]+)$/,
      "webhooks:write",
      (m, key) => {
        if (key.role === "viewer") return forbidden("viewers may not change settings");
        if (m[2] !== webhook.id) return notFound("webhook");
        webhook.live = false;
        return ok({ id: webhook.id, webhook_id: broken("delete-result-not-2.8") ? 7 : webhook.id, status: "deleted" });
      },
    ],
  ];

  function route(method: string, path: string, key: Key, query: URLSearchParams, body: unknown): Reply | string {
    for (const [m, re, scope, handle] of routes) {
      const match = re.exec(path);
      if (!match || m !== method) continue;
      if (path.startsWith("/api/v1/workspaces/") && match[1] !== workspace) return forbidden("another workspace");
      // Every record here is the first workspace's: another workspace's key is refused them all.
      if (key.workspace !== workspace && !broken("tenant-ignored")) return forbidden("another workspace");
      const lax = scope === "webhooks:write" && broken("scope-writes-ignored");
      if (key.scopes && !lax && (!scope || !key.scopes.includes(scope)))
        return forbidden(`the key lacks ${scope ?? "the scope"}`);
      return handle(match, key, method, query, body);
    }
    return notFound("route");
  }

  // ---------------------------------------------------------------- authentication (seed 5)
  const verified = new Set<string>();
  const DUMMY = randomBytes(32).toString("base64url");
  function authenticate(req: IncomingMessage, path: string, body: string): Key | undefined {
    const h = (name: string) => (typeof req.headers[name] === "string" ? (req.headers[name] as string) : "");
    const [id, ts, sig] = [h("access-api-key"), h("access-timestamp"), h("access-sign")];
    if (!id || !ts || !sig) return undefined;
    const key = keys.get(id);
    if (broken("signature-cache") && key && verified.has(`${id}|${ts}|${sig}`)) return key;
    if (!broken("timestamp-not-parsed")) {
      if (!/^\d+(\.\d+)?$/.test(ts)) return undefined;
      if (!broken("timestamp-unchecked") && Math.abs(Date.now() / 1000 - Number(ts)) > WINDOW_S) return undefined;
    }
    const expected = createHmac("sha256", key?.secret ?? DUMMY)
      .update(`method=${req.method}&path=${path}&timestamp=${ts}&body=${body}`)
      .digest("hex");
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(sig)) return undefined;
    const given = Buffer.from(Buffer.from(sig, "base64").toString("latin1").toLowerCase(), "latin1");
    const want = Buffer.from(expected, "latin1");
    const match = given.length === want.length && timingSafeEqual(given, want);
    if (!match || !key) return undefined;
    verified.add(`${id}|${ts}|${sig}`);
    return key;
  }

  const write = (res: ServerResponse, status: number, text: string) =>
    res.writeHead(status, { "content-type": "application/json;charset=UTF-8" }).end(text);
  const api = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://b");
    const text = Buffer.concat(chunks).toString("utf8");
    // This deployment signs the path with its query string.
    const key = authenticate(req, `${url.pathname}${url.search}`, text);
    if (!key)
      return write(
        res,
        401,
        JSON.stringify({ code: "unauthorized", data: null, message: "invalid api signature", success: false }),
      );
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      return write(
        res,
        400,
        JSON.stringify(
          reversed({ success: false, message: "body is not JSON", code: "bad_request", data: null }),
          null,
          "\t",
        ),
      );
    }
    const reply = route(req.method ?? "GET", url.pathname, key, url.searchParams, body);
    if (typeof reply === "string") return write(res, 200, reply);
    write(res, reply[0], JSON.stringify(reversed(reply[1]), null, "\t"));
  });

  // ---------------------------------------------------------------- node access (seed 4.1)
  const started = Date.now();
  const rpcApiKey = randomBytes(20).toString("hex");
  const head = () => 5_000 + Math.floor((Date.now() - started) / BLOCK_MS);
  const hex = (n: number) => `0x${n.toString(16)}`;
  const hashOf = (n: number) => `0x${createHash("sha256").update(`b-block-${n}`).digest("hex")}`;
  const block = (n: number, full: boolean) => ({
    number: hex(n),
    hash: hashOf(n),
    parentHash: hashOf(n - 1),
    timestamp: hex(1_710_000_000 + n),
    transactions: full ? [{ hash: hashOf(-n), blockNumber: hex(n) }] : [hashOf(-n)],
  });
  const rpcError = (id: unknown, code: number, message: string) => ({ jsonrpc: "2.0", id, error: { code, message } });

  function answerOne(msg: unknown): object | undefined {
    if (!msg || typeof msg !== "object" || Array.isArray(msg)) return rpcError(null, -32600, "invalid request");
    const {
      jsonrpc,
      id = null,
      method,
      params,
    } = msg as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
    if (jsonrpc !== "2.0" || typeof method !== "string") return rpcError(id, -32600, "invalid request");
    if (!("id" in msg)) return undefined;
    if (params !== undefined && !Array.isArray(params)) return rpcError(id, -32602, "params must be an array");
    const list = (params ?? []) as unknown[];
    if (method === "eth_blockNumber") {
      return params === undefined && broken("params-required")
        ? rpcError(id, -32602, "params required")
        : { jsonrpc: "2.0", id, result: hex(head()) };
    }
    if (method === "eth_getBlockByNumber") {
      const [tag = "latest", full = false] = list;
      const n =
        tag === "latest" || tag === "pending"
          ? head() - (broken("latest-behind") ? 30 : 0)
          : tag === "earliest"
            ? 0
            : typeof tag === "string" && /^0x[0-9a-fA-F]+$/.test(tag) && !broken("hex-number-refused")
              ? parseInt(tag, 16)
              : NaN;
      if (Number.isNaN(n) || typeof full !== "boolean") return rpcError(id, -32602, "invalid block");
      return { jsonrpc: "2.0", id, result: n > head() ? null : block(n, full) };
    }
    return rpcError(id, -32601, `${method} is not available`);
  }

  function answer(text: string): string | undefined {
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      return JSON.stringify(rpcError(null, -32700, "parse error"));
    }
    if (!Array.isArray(msg)) {
      const one = answerOne(msg);
      return one === undefined ? undefined : JSON.stringify(one);
    }
    if (msg.length === 0) return JSON.stringify(rpcError(null, -32600, "empty batch"));
    const all = msg.map(answerOne).filter((r) => r !== undefined);
    return all.length === 0 ? undefined : JSON.stringify(all);
  }

  const keyOf = (req: IncomingMessage) =>
    new URL(req.url ?? "/", "http://b").searchParams.get("api_key") ??
    /^APIKEY (.+)$/.exec(req.headers.authorization ?? "")?.[1];
  const rpc = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== "POST" || new URL(req.url ?? "/", "http://b").pathname !== "/rpc")
      return void res.writeHead(404).end();
    if (keyOf(req) !== rpcApiKey)
      return void res.writeHead(401, { "content-type": "application/json" }).end('{"message":"api key required"}');
    const reply = answer(Buffer.concat(chunks).toString("utf8"));
    if (reply === undefined) return void res.writeHead(204).end();
    res.writeHead(200, { "content-type": "application/json" }).end(reply);
  });
  const sockets = new WebSocketServer({ noServer: true });
  rpc.on("upgrade", (req: IncomingMessage, socket: Duplex, headBytes: Buffer) => {
    if (new URL(req.url ?? "/", "http://b").pathname !== "/ws")
      return void socket.end("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n");
    if (keyOf(req) !== rpcApiKey)
      return void socket.end("HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
    sockets.handleUpgrade(req, socket, headBytes, (ws) => {
      ws.on("message", (data) => {
        const reply = answer(data.toString());
        if (reply !== undefined) ws.send(reply);
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
    withdrawalId: withdrawals[0].id,
    webhookId: webhook.id,
    deliveryId: delivery.id,
    withdrawalListBytes: Buffer.byteLength(listBody),
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
