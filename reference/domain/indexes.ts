// The sandbox's indexes, decided in one place: for each collection, the buckets a record is filed
// under, and the functions that name a bucket. Every list page and filter of the API, and every scan
// the background work repeats (pending wallets, pending deposits, withdrawals in flight), reads one
// bucket, so its cost is what it returns, not the size of the collection.
import type { StateStore } from "../store/state-store.ts";
import {
  type ApiKeyRecord,
  type AuditRecord,
  C,
  type DeliveryRecord,
  type DepositRecord,
  type SignRequestRecord,
  type TransactionRecord,
  type WalletAssetRecord,
  type WalletRecord,
  type WebhookRecord,
  type WithdrawalRecord,
} from "./records.ts";
import { isInFlight, OPEN_WITHDRAWAL_STATUSES } from "./withdrawal-states.ts";

/** An address as an index key: 0x hex lower-cased (EVM compares it so), anything else as it is. */
function addressKey(address: string): string {
  return address.startsWith("0x") ? address.toLowerCase() : address;
}

export const walletKeys = {
  ofWorkspace: (ws: string) => `ws:${ws}`,
  pending: "status:pending",
};

export const walletAssetKeys = {
  ofWallet: (walletId: string) => `wallet:${walletId}`,
  /**
   * The attachment of `assetId` whose deposit address is `address` (what a block scan looks up). EVM
   * addresses compare case-insensitively; base58 (Solana, Tron) is case-sensitive, so kept as it is.
   */
  byAddress: (address: string, assetId: string) => `addr:${addressKey(address)}:${assetId}`,
};

export const depositKeys = {
  pending: "status:pending",
  /** Pending deposits of one network (each chain's watcher confirms its own). */
  pendingOn: (networkId: string) => `status:pending:net:${networkId}`,
};

export const withdrawalKeys = {
  ofWallet: (walletId: string) => `wallet:${walletId}`,
  ofWalletInStatus: (walletId: string, status: string) => `wallet:${walletId}:status:${status}`,
  inStatus: (status: string) => `status:${status}`,
  /** Open withdrawals of one wallet and asset: their amounts are on hold. */
  open: (walletId: string, assetId: string) => `open:${walletId}:${assetId}`,
  /** Withdrawals of one wallet and asset settled (completed or reverted) in one block. */
  settledIn: (walletId: string, assetId: string, block: number) => `settled:${walletId}:${assetId}:${block}`,
  /** Withdrawals in flight from an address (their nonces are taken). */
  inFlightFrom: (address: string) => `inflight:${addressKey(address)}`,
};

export const transactionKeys = {
  ofWorkspace: (ws: string, filter: { wallet_id?: string; direction?: string } = {}) =>
    `ws:${ws}${filter.wallet_id !== undefined ? `:wallet:${filter.wallet_id}` : ""}${filter.direction !== undefined ? `:dir:${filter.direction}` : ""}`,
  /** Every bucket a transaction is in: with and without each filter. */
  all: (t: TransactionRecord): string[] => {
    const ws = `ws:${t.workspace_id}`;
    const wallet = `${ws}:wallet:${t.wallet_id}`;
    return [ws, `${ws}:dir:${t.direction}`, wallet, `${wallet}:dir:${t.direction}`];
  },
};

export const webhookKeys = {
  activeOfWorkspace: (ws: string) => `ws:${ws}:active`,
};

export const deliveryKeys = {
  ofWorkspace: (ws: string, filter: { webhook_id?: string; status?: string } = {}) =>
    `ws:${ws}${filter.webhook_id !== undefined ? `:webhook:${filter.webhook_id}` : ""}${filter.status !== undefined ? `:status:${filter.status}` : ""}`,
  /** Pending deliveries of every workspace (what a dispatcher resumes after a restart). */
  pending: "status:pending",
  /** Every bucket a delivery is in: with and without each filter, and the pending one. */
  all: (d: DeliveryRecord): string[] => {
    const ws = `ws:${d.workspace_id}`;
    const hook = `${ws}:webhook:${d.webhook_id}`;
    return [
      ws,
      `${ws}:status:${d.status}`,
      hook,
      `${hook}:status:${d.status}`,
      ...(d.status === "pending" ? ["status:pending"] : []),
    ];
  },
};

export const auditKeys = { ofWorkspace: (ws: string) => `ws:${ws}` };
export const apiKeyKeys = { ofWorkspace: (ws: string) => `ws:${ws}` };

export const signRequestKeys = {
  pending: "status:pending",
  byIdempotencyKey: (ws: string, key: string) => `idem:${ws}:${key}`,
};

/** Defines the indexes on `store` (once; a store reopened by a second app keeps its indexes). */
export function defineIndexes(store: StateStore): void {
  const define = <T>(collection: string, keysOf: (r: T) => readonly string[]) => {
    if (!store.hasIndex(collection)) store.defineIndex<T>(collection, keysOf);
  };
  define<WalletRecord>(C.wallets, (w) => [
    walletKeys.ofWorkspace(w.workspace_id),
    ...(w.status === "pending" ? [walletKeys.pending] : []),
  ]);
  define<WalletAssetRecord>(C.walletAssets, (a) => [
    walletAssetKeys.ofWallet(a.wallet_id),
    walletAssetKeys.byAddress(a.address, a.asset_id),
  ]);
  define<DepositRecord>(C.deposits, (d) =>
    d.status === "pending" ? [depositKeys.pending, depositKeys.pendingOn(d.network_id)] : [],
  );
  define<WithdrawalRecord>(C.withdrawals, (w) => [
    withdrawalKeys.ofWallet(w.wallet_id),
    withdrawalKeys.ofWalletInStatus(w.wallet_id, w.status),
    withdrawalKeys.inStatus(w.status),
    ...(OPEN_WITHDRAWAL_STATUSES.has(w.status) ? [withdrawalKeys.open(w.wallet_id, w.asset_id)] : []),
    ...((w.status === "completed" || w.status === "failed") && w.block_number !== undefined
      ? [withdrawalKeys.settledIn(w.wallet_id, w.asset_id, w.block_number)]
      : []),
    ...(isInFlight(w) && w.nonce !== undefined ? [withdrawalKeys.inFlightFrom(w.from_address)] : []),
  ]);
  define<TransactionRecord>(C.transactions, transactionKeys.all);
  define<WebhookRecord>(C.webhooks, (w) =>
    w.status === "active" ? [webhookKeys.activeOfWorkspace(w.workspace_id)] : [],
  );
  define<DeliveryRecord>(C.deliveries, deliveryKeys.all);
  define<AuditRecord>(C.audit, (a) => [auditKeys.ofWorkspace(a.workspace_id)]);
  define<ApiKeyRecord>(C.apiKeys, (k) => [apiKeyKeys.ofWorkspace(k.workspace_id)]);
  define<SignRequestRecord>(C.signRequests, (r) => [
    ...(r.status === "pending" ? [signRequestKeys.pending] : []),
    ...(r.idempotency_key !== undefined ? [signRequestKeys.byIdempotencyKey(r.workspace_id, r.idempotency_key)] : []),
  ]);
}
