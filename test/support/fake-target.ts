// A tiny hand-written deployment for the conformance tests (NOT the reference deployment): an
// HMAC-verifying envelope API, signed webhooks, and JSON-RPC over HTTP and WebSocket, each with
// fault switches that break one rule so a test can show the check for that rule fails.
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { base58 } from "@scure/base";
import { type WebSocket, WebSocketServer } from "ws";
import type { OperationInfo } from "../../conformance/run/operations.ts";
import { keypairFromSeed, signBytes } from "../../lib/solana/keys.ts";
import { decodeTransaction } from "../../lib/solana/transaction.ts";
import { tronAddressOfEvm } from "../../lib/tron/address.ts";
import { UNAUTHORIZED_BODY } from "../../runtime/envelope.ts";
import { computeSignature, constantTimeEqual, HMAC_WINDOW_SECONDS } from "../../runtime/http/hmac.ts";
import { generateWebhookKeyPair, signWebhook, type WebhookProfile } from "../../runtime/webhooks/signature.ts";
import { fakeOperations } from "./fake-operations.ts";

export const FAKE_FAULTS = [
  // request authentication
  "accept-stale-timestamp",
  "accept-future-timestamp",
  "accept-milliseconds",
  "lenient-timestamp-parse",
  "case-insensitive-signature",
  "accept-missing-sign",
  "sign-with-query",
  "leaky-401",
  "ignore-body-in-signature",
  "parsed-body-signature",
  "narrow-window",
  "accept-raw-hex-signature",
  "accept-unknown-key",
  "accept-empty-key",
  "ignore-method-in-signature",
  "ignore-path-in-signature",
  "cached-signature",
  "signature-over-other-timestamp",
  "uppercase-only-signature",
  "accept-no-credentials",
  "default-key-when-missing",
  "timestamp-optional",
  "skip-signature-check",
  "accept-raw-digest-signature",
  // envelope
  "error-data-missing",
  "success-code-string",
  "error-as-200",
  "text-content-type",
  "no-request-id",
  "schema-balance-number",
  "undeclared-418",
  "pretty-401",
  "unauthorized-wrong-message",
  "invalid-body-500",
  // scopes and roles
  "ignore-scopes",
  "ignore-roles",
  "other-workspace-403",
  "other-workspace-data",
  "viewer-cannot-read",
  "created-key-unusable",
  // tenant isolation (the key of a second workspace)
  "tenant-reads-leak",
  "tenant-writes-leak",
  "tenant-lists-leak",
  "tenant-401",
  // not a fault: a correct deployment's race (a delivery already on its way lands after deleteWebhook returned)
  "in-flight-at-delete",
  // webhooks
  "webhook-wrong-key",
  "webhook-unsigned-body",
  "resend-new-event-id",
  "resend-no-delivery",
  "delete-keeps-delivering",
  "verification-key-short",
  "delete-status-wrong",
  "event-missing-type",
  "no-delivery-log",
  "webhook-not-listed",
  "shared-delivery-queue",
  // lifecycle
  "creation-skips-pending",
  "creation-never-completes",
  "no-wallet-created-event",
  "deposit-address-invalid",
  "export-csv-missing",
  // node access
  "rpc-no-auth",
  "rpc-header-key-ignored",
  "rpc-id-not-echoed",
  "rpc-parse-error-code",
  "rpc-method-not-found-code",
  "rpc-invalid-params-code",
  "rpc-invalid-request-code",
  "rpc-no-batch",
  "rpc-notification-answered",
  "rpc-block-frozen",
  "rpc-block-number-decimal",
  "rpc-ws-no-auth",
  "rpc-ws-drop-early",
  "rpc-ws-header-ignored",
  "rpc-wrong-401-body",
  "rpc-jsonrpc-version",
  "rpc-block-fields-decimal",
  "rpc-ws-notification-answered",
  "rpc-text-content-type",
  "rpc-ws-query-key-ignored",
  "rpc-block-params-lenient",
  // paged lists
  "paging-ignore-limit",
  "paging-default-all",
  "paging-repeat-across-pages",
  "paging-newest-first",
  "paging-large-offset-500",
  "paging-clamp-limit",
] as const;
export type FakeFault = (typeof FAKE_FAULTS)[number];

export interface FakeKey {
  apiKey: string;
  apiSecret: string;
}

export interface FakeTarget {
  baseUrl: string;
  rpcUrl: string;
  wsUrl: string;
  owner: FakeKey;
  viewer: FakeKey;
  scoped: FakeKey;
  /** The owner key of a second workspace, which owns no record here. */
  other: FakeKey;
  otherWorkspaceId: string;
  rpcApiKey: string;
  workspaceId: string;
  walletId: string;
  assetId: string;
  withdrawalId: string;
  operations: OperationInfo[];
  faults: Set<FakeFault>;
  profile: WebhookProfile;
  close(): Promise<void>;
}

interface KeyRecord {
  id: string;
  secret: string;
  role: "viewer" | "admin" | "owner";
  scopes: string[];
  workspaceId: string;
  revoked?: boolean;
}
interface Wallet {
  id: string;
  name: string;
  status: "pending" | "success" | "error";
  created_at: string;
  assets: Set<string>;
}
interface Webhook {
  id: string;
  url: string;
  event_types: string[];
}
interface Delivery {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempt_count: number;
  payload: Record<string, unknown>;
  workspace_id: string;
  created_at: string;
}

class ApiErr extends Error {
  constructor(
    readonly status: number,
    readonly code: number | string,
    message: string,
  ) {
    super(message);
  }
}

const ROLE_RANK = { viewer: 0, admin: 1, owner: 2 } as const;
const BLOCK_MS = 200;
const rid = (p: string) => `${p}_${randomBytes(6).toString("hex")}`;

export async function startFakeTarget(
  options: { faults?: FakeFault[]; profile?: WebhookProfile } = {},
): Promise<FakeTarget> {
  const faults = new Set<FakeFault>(options.faults ?? []);
  const has = (f: FakeFault) => faults.has(f);
  const workspaceId = "ws_fake";
  const keys = new Map<string, KeyRecord>();
  const addKey = (role: KeyRecord["role"], scopes: string[], inWorkspace = workspaceId): FakeKey => {
    const id = rid("ak");
    const secret = randomBytes(24).toString("base64url");
    keys.set(id, { id, secret, role, scopes, workspaceId: inWorkspace });
    return { apiKey: id, apiSecret: secret };
  };
  const owner = addKey("owner", ["*"]);
  const viewer = addKey("viewer", ["*"]);
  const scoped = addKey("admin", ["balances:read"]);
  // Every record here is ws_fake's: the second workspace owns nothing, so it reads empty lists and is
  // refused every record (unless a tenant-* fault lets it through).
  const otherWorkspaceId = "ws_other";
  const other = addKey("owner", ["*"], otherWorkspaceId);
  const rpcApiKey = `rpc_${randomBytes(12).toString("hex")}`;
  const signing = generateWebhookKeyPair();
  const otherSigning = generateWebhookKeyPair();
  const profile = options.profile ?? "standard-webhooks";

  const wallets = new Map<string, Wallet>();
  const seedWallet: Wallet = {
    id: "wal_seed",
    name: "seed",
    status: "success",
    created_at: new Date().toISOString(),
    assets: new Set(["eth"]),
  };
  wallets.set(seedWallet.id, seedWallet);
  const withdrawals = new Map<string, Record<string, unknown>>([
    ["wd_seed", { id: "wd_seed", wallet_id: "wal_seed", status: "completed", amount: "0.1" }],
  ]);
  const idempotency = new Map<string, string>();
  const webhooks = new Map<string, Webhook>();
  const deliveries = new Map<string, Delivery>();
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  // ---------------------------------------------------------------- webhooks
  async function deliver(webhook: Webhook, delivery: Delivery, body: string): Promise<void> {
    const key = has("webhook-wrong-key") ? otherSigning.privateKey : signing.privateKey;
    const signedBody = has("webhook-unsigned-body") ? JSON.stringify({ id: delivery.event_id }) : body;
    const headers = signWebhook({
      profile,
      privateKey: key,
      id: delivery.event_id,
      body: profile === "canonical-json" ? JSON.parse(signedBody) : signedBody,
    });
    if (profile === "canonical-json") headers["x-webhook-event-id"] = delivery.event_id;
    delivery.attempt_count++;
    try {
      const res = await fetch(webhook.url, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
        signal: AbortSignal.timeout(2_000),
      });
      await res.arrayBuffer();
      delivery.status = res.ok ? "delivered" : "failed";
    } catch {
      delivery.status = "failed";
    }
  }

  /**
   * The last delivery of an event this webhook has not had: a copy of one it had (an event another check
   * made while it was live, on a busy machine) would be that event delivered twice, which the check
   * rightly calls a leak.
   */
  const lastEventNotDeliveredTo = (webhookId: string): Delivery | undefined => {
    const had = new Set([...deliveries.values()].filter((d) => d.webhook_id === webhookId).map((d) => d.event_id));
    return [...deliveries.values()].filter((d) => !had.has(d.event_id)).at(-1);
  };

  // Every delivery of the deployment, one after the other: the dispatcher that issue 28 is about.
  let sharedQueue = Promise.resolve();
  const dispatch = (webhook: Webhook, delivery: Delivery, body: string): void => {
    if (has("shared-delivery-queue")) sharedQueue = sharedQueue.then(() => deliver(webhook, delivery, body));
    else void deliver(webhook, delivery, body);
  };

  // The spec's event envelope {webhook_id, resource_id, url, payload, event}, one body per webhook.
  function emit(type: string, data: Record<string, unknown>): void {
    const eventId = rid("evt");
    const createdAt = new Date().toISOString();
    for (const webhook of webhooks.values()) {
      if (!webhook.event_types.includes(type)) continue;
      const event = {
        webhook_id: webhook.id,
        resource_id: String(data.wallet_id ?? data.id ?? ""),
        url: webhook.url,
        payload: data,
        event: has("event-missing-type") ? undefined : type,
      };
      const delivery: Delivery = {
        id: rid("dlv"),
        webhook_id: webhook.id,
        event_id: eventId,
        event_type: type,
        status: "pending",
        attempt_count: 0,
        payload: event,
        workspace_id: workspaceId,
        created_at: createdAt,
      };
      if (!has("no-delivery-log")) deliveries.set(delivery.id, delivery);
      dispatch(webhook, delivery, JSON.stringify(event));
    }
  }

  // ---------------------------------------------------------------- handlers
  type Input = {
    params: Record<string, string>;
    query: URLSearchParams;
    body: Record<string, unknown>;
    headers: IncomingMessage["headers"];
    key: KeyRecord;
  };
  const wallet = (id: string) => {
    const w = wallets.get(id);
    if (!w) throw new ApiErr(404, 404, "wallet not found");
    return w;
  };
  const creation = (w: Wallet) => ({
    id: w.id,
    wallet_id: w.id,
    status: w.status,
    workspace_id: workspaceId,
    name: w.name,
    wallet_type: "mpc",
    created_at: w.created_at,
  });
  // One address per family: a pseudo EVM address, its Tron encoding, and a real Ed25519 key for Solana.
  const evmAddressOf = (id: string) => `0x${createHash("sha256").update(id).digest("hex").slice(0, 40)}`;
  const solKeyOf = (id: string) => keypairFromSeed(new Uint8Array(createHash("sha256").update(`sol:${id}`).digest()));
  const addressOf = (id: string, family: string) =>
    family === "sol" ? solKeyOf(id).address : family === "tron" ? tronAddressOfEvm(evmAddressOf(id)) : evmAddressOf(id);
  const signRequests = new Map<string, { wallet_id: string; method: string; hash: string }>();
  const signed = (walletId: string, method: string, hash: string) => {
    const id = rid("sig");
    signRequests.set(id, { wallet_id: walletId, method, hash });
    return { transaction_id: id };
  };
  const handlers: Record<string, (i: Input) => unknown> = {
    getWalletOverview: (i) =>
      [...wallet(i.params.wallet_id).assets].map((a) => ({
        wallet_id: i.params.wallet_id,
        asset_id: a,
        symbol: "ETH",
        balance: has("schema-balance-number") ? 0 : "0",
        decimals: 18,
      })),
    getWalletAssetBalance: (i) => {
      const w = wallet(i.params.wallet_id);
      if (!w.assets.has(i.params.asset_id)) throw new ApiErr(404, 404, "asset not attached");
      return { wallet_id: w.id, asset_id: i.params.asset_id, balance: "0", decimals: 18 };
    },
    getWithdrawal: (i) => {
      const w = withdrawals.get(i.params.withdrawal_id);
      if (!w) throw new ApiErr(404, 404, "withdrawal not found");
      return w;
    },
    listWalletWithdrawals: (i) =>
      [...withdrawals.values()].filter((w) => w.wallet_id === wallet(i.params.wallet_id).id),
    getWalletCreationStatus: (i) => creation(wallet(i.params.wallet_id)),
    resendWebhookDelivery: (i) => {
      const d = deliveries.get(i.params.delivery_id);
      if (!d) throw new ApiErr(404, 404, "delivery not found");
      const webhook =
        webhooks.get(d.webhook_id) ?? (has("delete-keeps-delivering") ? deletedWebhooks.get(d.webhook_id) : undefined);
      if (webhook && !has("resend-no-delivery")) {
        const body = JSON.stringify(d.payload);
        const copy = { ...d, event_id: has("resend-new-event-id") ? rid("evt") : d.event_id };
        d.status = "pending";
        void deliver(webhook, copy, body).then(() => (d.status = copy.status));
      }
      return { ...d, status: "pending" };
    },
    deleteWebhook: (i) => {
      const w = webhooks.get(i.params.webhook_id);
      if (!w) throw new ApiErr(404, 404, "webhook not found");
      webhooks.delete(w.id);
      deletedWebhooks.set(w.id, w);
      if (has("delete-keeps-delivering")) webhooks.set(w.id, w);
      // The last event made before the delete was still on its way to this webhook: it lands just after.
      const last = has("in-flight-at-delete") ? lastEventNotDeliveredTo(w.id) : undefined;
      if (last)
        later(
          30,
          () =>
            void deliver(
              w,
              { ...last, id: rid("dlv"), webhook_id: w.id, attempt_count: 0 },
              JSON.stringify(last.payload),
            ),
        );
      return { id: w.id, webhook_id: w.id, status: has("delete-status-wrong") ? "removed" : "deleted" };
    },
    getWebhookVerificationKey: () => ({
      public_key: has("verification-key-short") ? randomBytes(16).toString("base64") : signing.publicKeyBase64,
    }),
    createWallet: (i) => {
      const w: Wallet = {
        id: rid("wal"),
        name: String(i.body.name),
        status: has("creation-skips-pending") ? "success" : "pending",
        created_at: new Date().toISOString(),
        assets: new Set(),
      };
      wallets.set(w.id, w);
      if (!has("creation-never-completes")) {
        later(150, () => {
          w.status = "success";
          if (!has("no-wallet-created-event")) emit("wallet.created", { wallet_id: w.id, name: w.name });
        });
      }
      return creation(w);
    },
    getDepositAddress: (i) => {
      const w = wallet(i.params.wallet_id);
      const family = i.query.get("address_type");
      if (family && !i.query.get("asset_id")) return { address: addressOf(w.id, family), address_type: family };
      const asset = i.query.get("asset_id") ?? "";
      if (!w.assets.has(asset)) throw new ApiErr(404, 404, "asset not attached");
      if (has("deposit-address-invalid")) return { address: "deposit-here", asset_id: asset };
      return { address: evmAddressOf(w.id), asset_id: asset };
    },
    getWeb3WalletDetail: (i) => {
      const w = wallet(i.params.wallet_id);
      const family = i.query.get("address_type") ?? "evm";
      return { wallet_id: w.id, name: w.name, address_type: family, address: addressOf(w.id, family) };
    },
    requestSign: (i) => {
      const w = wallet(i.params.wallet_id);
      if (i.body.method !== "solana_signMessage")
        throw new ApiErr(400, 400, "method: this fake signs solana_signMessage only");
      return signed(
        w.id,
        "solana_signMessage",
        base58.encode(signBytes(new TextEncoder().encode(String(i.body.message)), solKeyOf(w.id).seed)),
      );
    },
    signRawTransaction: (i) => {
      const w = wallet(i.params.wallet_id);
      const meta = i.body.meta as { tx_method?: string } | undefined;
      if (meta?.tx_method !== "solana_signTransaction")
        throw new ApiErr(400, 400, "this fake signs solana_signTransaction only (it has no chain to send to)");
      let message: Uint8Array;
      try {
        message = decodeTransaction(new Uint8Array(Buffer.from(String(i.body.data), "base64"))).messageBytes;
      } catch {
        throw new ApiErr(400, 400, "data: not a serialized Solana transaction");
      }
      return signed(w.id, "solana_signTransaction", base58.encode(signBytes(message, solKeyOf(w.id).seed)));
    },
    getTransactionStatus: (i) => {
      const r = signRequests.get(i.params.transaction_id);
      if (!r || r.wallet_id !== wallet(i.params.wallet_id).id) throw new ApiErr(404, 404, "transaction not found");
      return { transaction_id: i.params.transaction_id, status: "completed", method: r.method, hash: r.hash };
    },
    listAssets: () => [{ id: "eth", symbol: "ETH", decimals: 18, is_native: true, network_id: "devnet" }],
    listWallets: () => [...wallets.values()].map((w) => ({ id: w.id })),
    getWallet: (i) => ({ id: wallet(i.params.wallet_id).id }),
    attachAsset: (i) => {
      const w = wallet(i.params.wallet_id);
      w.assets.add(String(i.body.asset_id));
      return { wallet_id: w.id, asset_id: String(i.body.asset_id) };
    },
    createWithdrawal: (i) => {
      const w = wallet(i.params.wallet_id);
      const key = String(i.headers["idempotency-key"] ?? "");
      if (!key) throw new ApiErr(400, 400, "Idempotency-Key is required");
      const existing = idempotency.get(key);
      if (existing) return withdrawals.get(existing);
      const record = {
        id: rid("wd"),
        wallet_id: w.id,
        status: "pending_approval",
        amount: String(i.body.amount),
        recipient_address: String(i.body.recipient_address),
      };
      withdrawals.set(record.id, record);
      idempotency.set(key, record.id);
      return record;
    },
    approveWithdrawal: (i) => {
      const w = withdrawals.get(i.params.withdrawal_id);
      if (!w) throw new ApiErr(404, 404, "withdrawal not found");
      w.status = "approved";
      return w;
    },
    listTransactions: () => [],
    createWebhook: (i) => {
      const w: Webhook = { id: rid("whk"), url: String(i.body.url), event_types: i.body.event_types as string[] };
      webhooks.set(w.id, w);
      return w;
    },
    listWebhooks: () => (has("webhook-not-listed") ? [] : [...webhooks.values()]),
    listWebhookDeliveries: (i) =>
      [...deliveries.values()].filter((d) => !i.query.get("webhook_id") || d.webhook_id === i.query.get("webhook_id")),
    createApiKey: (i) => {
      const created = addKey(i.body.role as KeyRecord["role"], i.body.scopes as string[]);
      const rec = keys.get(created.apiKey)!;
      return {
        id: rec.id,
        api_key: rec.id,
        secret: has("created-key-unusable") ? `${rec.secret}-not-it` : rec.secret,
        role: rec.role,
        scopes: rec.scopes,
      };
    },
    revokeApiKey: (i) => {
      const rec = keys.get(i.params.key_id);
      if (!rec) throw new ApiErr(404, 404, "key not found");
      rec.revoked = true;
      return { id: rec.id, role: rec.role, scopes: rec.scopes };
    },
    listAuditLogs: () => [],
    exportTransactions: (i) => {
      const format = i.query.get("format") ?? "json";
      const base = { workspace_id: workspaceId, format, generated_at: new Date().toISOString(), count: 0 };
      if (format === "csv") return has("export-csv-missing") ? base : { ...base, csv: "id,tx_hash\n" };
      return { ...base, transactions: [] };
    },
    getHealth: () => ({ status: "ok" }),
  };
  const deletedWebhooks = new Map<string, Webhook>();

  // ---------------------------------------------------------------- paged lists
  /** One page of a list handler's items: offset and limit checked (400 outside the bounds), oldest first. */
  function pageOf(
    paging: NonNullable<OperationInfo["pagination"]>,
    items: unknown[],
    query: URLSearchParams,
  ): unknown[] {
    if (has("paging-ignore-limit")) return items;
    const ordered = has("paging-newest-first") ? [...items].reverse() : items;
    const read = (name: string, fallback: number) => (query.has(name) ? Number(query.get(name)) : fallback);
    let offset = read(paging.offset, 0);
    let limit = read(paging.limit, has("paging-default-all") ? ordered.length : (paging.defaultLimit ?? 20));
    const max = paging.maxLimit ?? 100;
    if (has("paging-clamp-limit")) {
      offset = Number.isInteger(offset) && offset > 0 ? offset : 0;
      limit = Number.isInteger(limit) ? Math.min(Math.max(limit, 1), max) : (paging.defaultLimit ?? 20);
    }
    if (!Number.isInteger(offset) || offset < 0)
      throw new ApiErr(400, 400, `query.${paging.offset}: must be a whole number of at least 0`);
    if (!Number.isInteger(limit) || limit < 1 || (limit > max && !has("paging-default-all")))
      throw new ApiErr(400, 400, `query.${paging.limit}: must be a whole number from 1 to ${max}`);
    if (has("paging-large-offset-500") && offset >= 10_000) throw new ApiErr(500, 500, "internal error");
    const start = has("paging-repeat-across-pages") && offset > 0 ? offset - 1 : offset;
    return ordered.slice(start, start + limit);
  }

  // ---------------------------------------------------------------- auth
  /** Signatures already verified: the cached-signature fault accepts them again on any route. */
  const verified = new Set<string>();
  function authenticate(req: IncomingMessage, path: string, rawQuery: string, body: string): KeyRecord | string {
    let keyId = header(req, "access-api-key");
    let ts = header(req, "access-timestamp");
    const sign = header(req, "access-sign");
    if (has("accept-no-credentials") && keyId === undefined && ts === undefined && sign === undefined)
      return keys.get(owner.apiKey)!;
    if (has("default-key-when-missing") && keyId === undefined) keyId = owner.apiKey;
    if (keyId === undefined || (keyId === "" && !has("accept-empty-key"))) return "missing key";
    const tsMissing = ts === undefined || ts === "";
    if (has("timestamp-optional") && tsMissing) ts = String(Math.floor(Date.now() / 1000));
    if (ts === undefined || ts === "") return "missing timestamp";
    if ((sign === undefined || sign === "") && !has("accept-missing-sign")) return "missing signature";
    let rec = keys.get(keyId);
    if (has("accept-empty-key") && keyId === "") rec = keys.get(owner.apiKey);
    if (!rec && has("accept-unknown-key")) rec = keys.get(owner.apiKey);
    const secret = rec?.secret ?? "dummy-secret-for-unknown-keys";
    const valid = /^\d{1,16}$/.test(ts);
    const n = has("lenient-timestamp-parse") ? Number(ts.replace(/^\+/, "")) : valid ? Number(ts) : NaN;
    if (!Number.isFinite(n)) return "bad timestamp";
    let seconds = n;
    if (has("accept-milliseconds") && n > 1e12) seconds = Math.floor(n / 1000);
    const skew = Math.floor(Date.now() / 1000) - seconds;
    const window = has("narrow-window") ? 60 : HMAC_WINDOW_SECONDS;
    if (skew > window && !has("accept-stale-timestamp")) return "stale";
    if (-skew > window && !has("accept-future-timestamp")) return "future";
    if (sign === undefined || sign === "") return rec && !rec.revoked ? rec : "missing signature";
    let signedBody = body;
    if (has("parsed-body-signature") && body) {
      try {
        signedBody = JSON.stringify(JSON.parse(body));
      } catch {
        /* keep raw */
      }
    }
    if (has("skip-signature-check") && rec) return rec;
    if (has("cached-signature") && rec && verified.has(`${keyId}|${ts}|${sign}`)) return rec;
    const signedTs = has("timestamp-optional") && tsMissing ? "" : ts;
    const candidates = [
      computeSignature(secret, {
        method: req.method!,
        path: has("sign-with-query") && rawQuery ? `${path}?${rawQuery}` : path,
        timestamp: signedTs,
        body: signedBody,
      }),
    ];
    if (has("accept-raw-digest-signature"))
      candidates.push(Buffer.from(Buffer.from(candidates[0], "base64").toString("utf8"), "hex").toString("base64"));
    if (has("ignore-body-in-signature"))
      candidates.push(computeSignature(secret, { method: req.method!, path, timestamp: ts, body: "" }));
    if (has("ignore-method-in-signature"))
      for (const m of ["GET", "POST", "DELETE"])
        candidates.push(computeSignature(secret, { method: m, path, timestamp: ts, body: signedBody }));
    if (has("ignore-path-in-signature"))
      candidates.push(
        computeSignature(secret, {
          method: req.method!,
          path: "/api/v1/certify/other-path",
          timestamp: ts,
          body: signedBody,
        }),
        computeSignature(secret, {
          method: req.method!,
          path: path.replace(/^\/api\/v1/, ""),
          timestamp: ts,
          body: signedBody,
        }),
      );
    if (has("signature-over-other-timestamp"))
      candidates.push(
        computeSignature(secret, { method: req.method!, path, timestamp: String(Number(ts) - 1), body: signedBody }),
      );
    if (has("accept-raw-hex-signature")) candidates.push(Buffer.from(candidates[0], "base64").toString("utf8"));
    const hex = Buffer.from(candidates[0], "base64").toString("utf8");
    if (has("uppercase-only-signature")) candidates[0] = Buffer.from(hex.toUpperCase(), "utf8").toString("base64");
    const ok = candidates.some((c) =>
      has("case-insensitive-signature")
        ? Buffer.from(sign, "base64").toString("utf8").toLowerCase() === hex || constantTimeEqual(c, sign)
        : constantTimeEqual(c, sign),
    );
    if (!ok || !rec || rec.revoked) return rec ? "bad signature" : "unknown key";
    verified.add(`${keyId}|${ts}|${sign}`);
    return rec;
  }

  // ---------------------------------------------------------------- tenancy
  /**
   * What a key of the second workspace gets: "refuse" for any record of ws_fake (addressed by id, or by
   * ws_fake's path), "empty" for its own workspace's reads (it owns nothing), "serve" otherwise. The
   * tenant-* faults serve it ws_fake's records instead.
   */
  function tenancy(op: OperationInfo, params: Record<string, string>, auth: KeyRecord): "serve" | "refuse" | "empty" {
    if (auth.workspaceId === workspaceId) return "serve";
    const ids = Object.keys(params).filter((p) => p !== "workspace_id");
    const read = op.method === "GET";
    if (ids.length > 0) return (read ? has("tenant-reads-leak") : has("tenant-writes-leak")) ? "serve" : "refuse";
    const catalog = op.tag === "catalog" || op.tag === "observability";
    if (read && !catalog) return has("tenant-lists-leak") ? "serve" : "empty";
    return "serve";
  }

  // ---------------------------------------------------------------- API server
  const routes = [...fakeOperations]
    .sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0))
    .map((op) => ({ op, re: new RegExp(`^${op.path.replace(/\{([^}]+)\}/g, "(?<$1>[^/]+)")}$`) }));

  function send(res: ServerResponse, status: number, payload: unknown, raw?: string): void {
    const body = raw ?? JSON.stringify(payload);
    const headers: Record<string, string> = {
      "content-type": has("text-content-type") ? "text/plain" : "application/json; charset=utf-8",
    };
    if (!has("no-request-id")) headers["x-request-id"] = rid("req");
    res.writeHead(status, headers);
    res.end(body);
  }
  function sendError(res: ServerResponse, err: ApiErr): void {
    const status =
      err.status === 404 && has("error-as-200") ? 200 : err.status === 404 && has("undeclared-418") ? 418 : err.status;
    const envelope: Record<string, unknown> = { success: false, message: err.message, code: err.code, data: null };
    if (has("error-data-missing")) delete envelope.data;
    send(res, status, envelope);
  }
  function sendUnauthorized(res: ServerResponse, reason: string): void {
    if (has("leaky-401"))
      return send(res, 401, {
        success: false,
        message: `invalid api signature (${reason})`,
        code: "unauthorized",
        data: null,
      });
    if (has("unauthorized-wrong-message"))
      return send(res, 401, { success: false, message: "forbidden", code: "unauthorized", data: null });
    if (has("pretty-401")) return send(res, 401, undefined, JSON.stringify(JSON.parse(UNAUTHORIZED_BODY), null, 1));
    send(res, 401, undefined, UNAUTHORIZED_BODY);
  }

  const api = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const auth = authenticate(req, url.pathname, url.search.slice(1), body);
    if (typeof auth === "string") return sendUnauthorized(res, auth);
    try {
      const route = routes.find((r) => r.op.method === req.method && r.re.test(url.pathname));
      if (!route) throw new ApiErr(404, 404, "no such operation");
      const params = { ...(route.re.exec(url.pathname)!.groups ?? {}) } as Record<string, string>;
      for (const k of Object.keys(params)) params[k] = decodeURIComponent(params[k]);
      const op = route.op;
      if (!has("ignore-roles") && ROLE_RANK[auth.role] < ROLE_RANK[op.minRole as KeyRecord["role"]])
        throw new ApiErr(403, 403, "role too low");
      if (!has("ignore-scopes") && !auth.scopes.includes("*") && !op.scopes.every((s) => auth.scopes.includes(s)))
        throw new ApiErr(403, 403, "missing scope");
      if (has("viewer-cannot-read") && auth.role === "viewer") throw new ApiErr(403, 403, "viewers see nothing");
      if (
        params.workspace_id !== undefined &&
        params.workspace_id !== auth.workspaceId &&
        !has("other-workspace-data")
      ) {
        throw has("other-workspace-403")
          ? new ApiErr(403, 403, "other workspace")
          : new ApiErr(404, 404, "workspace not found");
      }
      const tenant = tenancy(op, params, auth);
      if (tenant === "refuse")
        throw has("tenant-401")
          ? new ApiErr(401, "unauthorized", "invalid api signature")
          : has("other-workspace-403")
            ? new ApiErr(403, 403, "other workspace")
            : new ApiErr(404, 404, "not found");
      if (tenant === "empty")
        return send(res, op.successStatus, {
          success: true,
          message: "success",
          code: 0,
          data: op.operationId === "getWebhookVerificationKey" ? { public_key: otherSigning.publicKeyBase64 } : [],
        });
      let parsed: Record<string, unknown> = {};
      if (op.bodySchema) {
        try {
          parsed = body ? (JSON.parse(body) as Record<string, unknown>) : {};
        } catch {
          throw has("invalid-body-500") ? new ApiErr(500, 500, "boom") : new ApiErr(400, 400, "body is not JSON");
        }
        const check = op.bodySchema.safeParse(parsed);
        if (!check.success) throw new ApiErr(400, 400, `invalid body at ${check.error.issues[0]?.path.join(".")}`);
      }
      const all = await handlers[op.operationId]({
        params,
        query: url.searchParams,
        body: parsed,
        headers: req.headers,
        key: auth,
      });
      const data = op.pagination && Array.isArray(all) ? pageOf(op.pagination, all, url.searchParams) : all;
      send(res, op.successStatus, {
        success: true,
        message: "success",
        code: has("success-code-string") ? "ok" : 0,
        data,
      });
    } catch (err) {
      sendError(res, err instanceof ApiErr ? err : new ApiErr(500, 500, "internal error"));
    }
  });

  // ---------------------------------------------------------------- node access
  const started = Date.now();
  const head = () => (has("rpc-block-frozen") ? 1 : Math.floor((Date.now() - started) / BLOCK_MS) + 1);
  const hex = (n: number) => (has("rpc-block-number-decimal") ? String(n) : `0x${n.toString(16)}`);
  const blockHash = (n: number) => `0x${createHash("sha256").update(String(n)).digest("hex")}`;
  const rpcError = (id: unknown, code: number, message: string) => ({ jsonrpc: "2.0", id, error: { code, message } });

  function rpcOne(req: unknown): object | undefined {
    const r = req as Record<string, unknown>;
    const idOk =
      r &&
      typeof r === "object" &&
      !Array.isArray(r) &&
      (!("id" in r) || ["string", "number"].includes(typeof r.id) || r.id === null);
    if (
      !r ||
      typeof r !== "object" ||
      Array.isArray(r) ||
      r.jsonrpc !== "2.0" ||
      typeof r.method !== "string" ||
      !idOk
    ) {
      return rpcError(
        idOk ? ((r as { id?: unknown }).id ?? null) : null,
        has("rpc-invalid-request-code") ? -32603 : -32600,
        "invalid request",
      );
    }
    const notification = !("id" in r);
    const id = has("rpc-id-not-echoed") ? 1 : r.id;
    const version = has("rpc-jsonrpc-version") ? "1.0" : "2.0";
    let out: object;
    const params = Array.isArray(r.params) ? r.params : [];
    switch (r.method) {
      case "eth_blockNumber":
        out = { jsonrpc: version, id, result: hex(head()) };
        break;
      case "eth_chainId":
        out = { jsonrpc: version, id, result: "0x539" };
        break;
      case "eth_getBlockByNumber": {
        // A lenient node serves eth_getBlockByNumber without its params as ("latest", false).
        const [tag, full] = has("rpc-block-params-lenient") ? [params[0] ?? "latest", params[1] ?? false] : params;
        const n = tag === "latest" ? head() : typeof tag === "string" && /^0x[0-9a-f]+$/.test(tag) ? Number(tag) : NaN;
        if (Number.isNaN(n) || typeof full !== "boolean") {
          out = rpcError(id, has("rpc-invalid-params-code") ? -32000 : -32602, "invalid params");
          break;
        }
        const fmt = (x: number) => (has("rpc-block-fields-decimal") ? String(x) : `0x${x.toString(16)}`);
        out = {
          jsonrpc: version,
          id,
          result: {
            number: fmt(n),
            hash: blockHash(n),
            parentHash: blockHash(n - 1),
            timestamp: fmt(Math.floor(started / 1000) + n),
            transactions: [],
          },
        };
        break;
      }
      // The rest of the OpenRPC document's read methods, with the shapes of its result schemas.
      case "net_version":
        out = { jsonrpc: version, id, result: "1337" };
        break;
      case "eth_gasPrice":
      case "eth_getBalance":
      case "eth_getTransactionCount":
        out = { jsonrpc: version, id, result: "0x0" };
        break;
      case "eth_estimateGas":
        out = { jsonrpc: version, id, result: "0x5208" };
        break;
      case "eth_call":
        out = { jsonrpc: version, id, result: "0x" };
        break;
      case "eth_getTransactionByHash":
      case "eth_getTransactionReceipt":
        out = { jsonrpc: version, id, result: null };
        break;
      default:
        out = rpcError(id, has("rpc-method-not-found-code") ? -32600 : -32601, "method not found");
    }
    return notification && !has("rpc-notification-answered") ? undefined : out;
  }

  function subscriptionCall(text: string): { id: unknown; method: string } | undefined {
    try {
      const m = JSON.parse(text) as { id?: unknown; method?: unknown };
      return m && (m.method === "eth_subscribe" || m.method === "eth_unsubscribe")
        ? { id: m.id, method: m.method }
        : undefined;
    } catch {
      return undefined;
    }
  }

  function rpcText(text: string, transport: "http" | "ws"): string | undefined {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return JSON.stringify(rpcError(null, has("rpc-parse-error-code") ? -32600 : -32700, "parse error"));
    }
    if (Array.isArray(parsed)) {
      if (has("rpc-no-batch")) return JSON.stringify(rpcError(null, -32600, "batches not supported"));
      if (parsed.length === 0) return JSON.stringify(rpcError(null, -32600, "empty batch"));
      const out = parsed.map(rpcOne).filter(Boolean);
      return out.length > 0 ? JSON.stringify(out) : undefined;
    }
    const one = rpcOne(parsed);
    if (!one && transport === "ws" && has("rpc-ws-notification-answered"))
      return JSON.stringify({ jsonrpc: "2.0", id: null, result: hex(head()) });
    return one ? JSON.stringify(one) : undefined;
  }

  function rpcKeyOk(req: IncomingMessage, transport: "http" | "ws"): boolean {
    if (has("rpc-no-auth") && transport === "http") return true;
    if (has("rpc-ws-no-auth") && transport === "ws") return true;
    const url = new URL(req.url ?? "/", "http://fake");
    if (url.searchParams.get("api_key") === rpcApiKey && !(transport === "ws" && has("rpc-ws-query-key-ignored")))
      return true;
    const ignoreHeader = has("rpc-header-key-ignored") || (transport === "ws" && has("rpc-ws-header-ignored"));
    return !ignoreHeader && header(req, "authorization") === `APIKEY ${rpcApiKey}`;
  }
  const RPC_401 = has("rpc-wrong-401-body")
    ? '{"error":"unauthorized"}'
    : '{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"unauthorized"}}';

  const rpc = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (url.pathname !== "/rpc" || req.method !== "POST") {
      res.writeHead(404).end();
      return;
    }
    if (!rpcKeyOk(req, "http")) {
      res.writeHead(401, { "content-type": "application/json" }).end(RPC_401);
      return;
    }
    const answer = rpcText(Buffer.concat(chunks).toString("utf8"), "http");
    if (answer === undefined) res.writeHead(204).end();
    else
      res
        .writeHead(200, { "content-type": has("rpc-text-content-type") ? "text/plain" : "application/json" })
        .end(answer);
  });
  const wss = new WebSocketServer({ noServer: true });
  rpc.on("upgrade", (req: IncomingMessage, socket: Duplex, headBuf: Buffer) => {
    const url = new URL(req.url ?? "/", "http://fake");
    if (url.pathname !== "/ws") return socket.destroy();
    if (!rpcKeyOk(req, "ws")) {
      socket.end(
        `HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(RPC_401)}\r\nconnection: close\r\n\r\n${RPC_401}`,
      );
      return;
    }
    wss.handleUpgrade(req, socket, headBuf, (ws: WebSocket) => {
      // rpc-ws-drop-early: a server that loses what arrives before its handler is ready, modelled as
      // each connection's first message lost (not "the first 100 ms": under load the message itself is
      // read later than that, and the fault then went unseen).
      let early = has("rpc-ws-drop-early");
      // eth_subscribe("newHeads"): one notification per new block until eth_unsubscribe or close.
      let timer: NodeJS.Timeout | undefined;
      ws.on("close", () => clearInterval(timer));
      ws.on("message", (data) => {
        if (early) {
          early = false;
          return;
        }
        const sub = subscriptionCall(data.toString());
        if (sub) {
          clearInterval(timer);
          if (sub.method === "eth_subscribe") {
            let last = head();
            timer = setInterval(() => {
              for (; last < head(); last++) {
                const n = last + 1;
                ws.send(
                  JSON.stringify({
                    jsonrpc: "2.0",
                    method: "eth_subscription",
                    params: {
                      subscription: "0x1",
                      result: {
                        number: hex(n),
                        hash: blockHash(n),
                        parentHash: blockHash(n - 1),
                        timestamp: hex(Math.floor(started / 1000) + n),
                      },
                    },
                  }),
                );
              }
            }, BLOCK_MS);
          }
          ws.send(
            JSON.stringify({ jsonrpc: "2.0", id: sub.id, result: sub.method === "eth_subscribe" ? "0x1" : true }),
          );
          return;
        }
        const answer = rpcText(data.toString(), "ws");
        if (answer !== undefined) ws.send(answer);
      });
    });
  });

  const listen = (server: Server) =>
    new Promise<number>((resolve) =>
      server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
    );
  const apiPort = await listen(api);
  const rpcPort = await listen(rpc);

  return {
    baseUrl: `http://127.0.0.1:${apiPort}`,
    rpcUrl: `http://127.0.0.1:${rpcPort}`,
    wsUrl: `ws://127.0.0.1:${rpcPort}/ws`,
    owner,
    viewer,
    scoped,
    other,
    otherWorkspaceId,
    rpcApiKey,
    workspaceId,
    walletId: seedWallet.id,
    assetId: "eth",
    withdrawalId: "wd_seed",
    operations: fakeOperations,
    faults,
    profile,
    async close() {
      for (const t of timers) clearTimeout(t);
      for (const client of wss.clients) client.terminate();
      wss.close();
      api.closeAllConnections();
      rpc.closeAllConnections();
      await Promise.all([new Promise((r) => api.close(r)), new Promise((r) => rpc.close(r))]);
    },
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The Target that points the runner at a fake target with its admin (owner) key. */
export function fakeTargetConfig(
  t: FakeTarget,
  over: Partial<import("../../conformance/run/config.ts").Target> = {},
): import("../../conformance/run/config.ts").Target {
  return {
    baseUrl: t.baseUrl,
    rpcUrl: t.rpcUrl,
    wsUrl: t.wsUrl,
    admin: t.owner,
    rpcApiKey: t.rpcApiKey,
    workspaceId: t.workspaceId,
    other: { credentials: t.other, workspaceId: t.otherWorkspaceId },
    fixtureIds: {},
    ...over,
  };
}
