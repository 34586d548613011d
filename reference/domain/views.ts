// Public views: storage records → the objects the API returns and events carry. Internal fields
// (secrets, signed raw transactions before broadcast, idempotency hashes, retry bookkeeping) never
// leave through here.

import { createHash } from "node:crypto";
import type {
  ApiKey,
  ApiKeyWithSecret,
  Asset,
  AuditLogEntry,
  DepositAddress,
  DepositEventPayload,
  Network,
  Scope,
  Transaction,
  Wallet,
  WalletAsset,
  WalletBalance,
  WalletCreationStatus,
  Webhook,
  WebhookDeleteResult,
  WebhookDelivery,
  Withdrawal,
} from "../../generated/types.ts";
import type { BalanceView } from "./balances.ts";
import type { AddressFamily, AssetInfo, NetworkInfo } from "./catalog.ts";
import { eventBody } from "./events.ts";
import { uuidFromBytes } from "./ids.ts";
import type {
  ApiKeyRecord,
  AuditRecord,
  DeliveryRecord,
  DepositRecord,
  EventRecord,
  WalletAssetRecord,
  WalletRecord,
  WebhookRecord,
  WithdrawalRecord,
} from "./records.ts";

/** Drops undefined members so optional fields are absent, not null. */
function compact<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}

/**
 * A wallet. role, value_usd, top_assets and wallet_purpose are the real service's listing fields
 * (WalletByWorkspaceResponse of fystack/platform-sdk src/types.ts); keys here administer every wallet
 * of their workspace, so role is wallet_admin. `value` is the USD value and symbols held, when known.
 */
export function walletView(
  w: WalletRecord,
  value?: { value_usd: string; top_assets: { symbol: string; logo_url?: string }[] },
): Wallet {
  return compact({
    id: w.id,
    workspace_id: w.workspace_id,
    name: w.name,
    wallet_type: w.wallet_type,
    creation_status: w.status,
    created_at: w.created_at,
    role: "wallet_admin",
    value_usd: value?.value_usd ?? "0",
    top_assets: value?.top_assets ?? [],
    wallet_purpose: w.wallet_purpose ?? "general",
  });
}

/** The creation-status record; it shares its id with the wallet it creates. */
export function creationStatusView(w: WalletRecord): WalletCreationStatus {
  return compact({
    id: w.id,
    wallet_id: w.id,
    status: w.status,
    workspace_id: w.workspace_id,
    name: w.name,
    wallet_type: w.wallet_type,
    status_reason: w.status_reason,
    mpc_correlation_id: w.mpc_correlation_id,
    created_at: w.created_at,
    updated_at: w.updated_at,
    completed_at: w.completed_at,
    wallet_purpose: w.wallet_purpose,
  });
}

/** The public id of an attachment: a UUID v4 derived from its storage key, so it is stable. */
function walletAssetId(a: WalletAssetRecord): string {
  return uuidFromBytes(createHash("sha256").update(a.id).digest());
}

/** An attached asset with its deposit address, in the real service's shape (WalletAsset of its SDK's src/types.ts). */
export function walletAssetView(a: WalletAssetRecord, asset?: AssetInfo): WalletAsset {
  return compact({
    id: walletAssetId(a),
    wallet_id: a.wallet_id,
    asset_id: a.asset_id,
    network_id: a.network_id,
    address: a.address,
    deposit_address: a.address,
    hidden: false,
    attached_at: a.created_at,
    created_at: a.created_at,
    updated_at: a.created_at,
    asset: asset ? assetView(asset) : undefined,
  });
}

/**
 * A deposit address of a family's network; qr_code is the text a QR code of it encodes (the spec's
 * choice): EIP-681 for evm, a Solana Pay URL for sol, the bare address for tron.
 */
export function depositAddressView(
  a: { wallet_id: string; network_id: string; address: string; asset_id?: string },
  family: AddressFamily,
  chainId: number | undefined,
): DepositAddress {
  const qr =
    family === "evm" ? `ethereum:${a.address}@${chainId}` : family === "sol" ? `solana:${a.address}` : a.address;
  return compact({
    wallet_id: a.wallet_id,
    asset_id: a.asset_id,
    network_id: a.network_id,
    address: a.address,
    address_type: family,
    qr_code: qr,
  });
}

export function networkView(n: NetworkInfo): Network {
  return { ...n };
}

export function assetView(a: AssetInfo): Asset {
  return { ...a };
}

export function balanceView(b: BalanceView): WalletBalance {
  return {
    wallet_id: b.wallet_id,
    asset_id: b.asset.id,
    symbol: b.asset.symbol,
    name: b.asset.name,
    balance: b.balance,
    total_balance: b.balance,
    available_balance: b.available_balance,
    on_hold: b.on_hold,
    balance_usd: b.balance_usd,
    usd_value: b.balance_usd,
    value_usd: b.balance_usd,
    price_usd: b.asset.price_usd,
    decimals: b.asset.decimals,
    asset: assetView(b.asset),
    network: networkView(b.network),
    refreshed_at: b.refreshed_at,
  };
}

/** True once the signed transaction was handed to the chain (before that its hash is internal). */
function wasSent(w: WithdrawalRecord): boolean {
  return w.sent_at !== undefined;
}

export function withdrawalView(w: WithdrawalRecord): Withdrawal {
  const sent = wasSent(w);
  return compact({
    id: w.id,
    withdrawal_id: w.id,
    wallet_id: w.wallet_id,
    asset_id: w.asset_id,
    network_id: w.network_id,
    amount: w.amount,
    recipient_address: w.recipient_address,
    status: w.status,
    tx_hash: sent ? w.tx_hash : undefined,
    block_number: w.block_number,
    block_hash: w.block_hash,
    gas_used: w.gas_used,
    effective_gas_price_wei: w.effective_gas_price_wei,
    confirmed_at: w.confirmed_at,
    error: w.error,
    status_reason: w.status_reason,
    last_sent_at: w.last_sent_at,
    notes: w.notes,
    created_at: w.created_at,
    updated_at: w.updated_at,
    creator_id: w.created_by,
    asset_hold_id: holdIdOf(w),
    transaction_id: sent ? w.tx_hash : undefined,
    error_reason: w.error,
    transaction: sent
      ? compact({
          hash: w.tx_hash,
          from: w.from_address,
          to: w.recipient_address,
          value_wei: w.amount_wei,
          nonce: w.nonce,
          sent_at: w.sent_at,
          block_number: w.block_number,
          block_hash: w.block_hash,
        })
      : undefined,
    withdrawal_approvals: w.approvals.map((a) =>
      compact({
        id: a.id,
        user_id: a.key_id,
        status: a.decision,
        comment: a.comment,
        created_at: a.at,
        updated_at: a.at,
      }),
    ),
  });
}

/** The hold a withdrawal keeps on the available balance: one per withdrawal, so its id derives from it. */
function holdIdOf(w: WithdrawalRecord): string {
  return uuidFromBytes(createHash("sha256").update(`hold:${w.id}`).digest());
}

/**
 * A deposit as the real service's deposit events carry it (the event of fystack/platform-sdk
 * test/webhook.spec.ts): direction "in", and a member literally named `omitempty` that it emits as null.
 */
export function depositEventPayloadView(d: DepositRecord): DepositEventPayload {
  return {
    id: d.id,
    direction: "in",
    status: d.status === "confirmed" ? "confirmed" : "pending",
    type: "native_transfer",
    method: "transfer",
    asset_id: d.asset_id,
    network_id: d.network_id,
    wallet_id: d.wallet_id,
    workspace_id: d.workspace_id,
    amount: d.amount,
    from_address: d.from_address,
    to_address: d.to_address,
    tx_hash: d.tx_hash,
    block_number: d.block_number,
    description: "",
    omitempty: null,
    created_at: d.detected_at,
    updated_at: d.updated_at,
  };
}

export function depositTransactionView(d: DepositRecord): Transaction {
  return compact({
    id: d.id,
    workspace_id: d.workspace_id,
    wallet_id: d.wallet_id,
    direction: "deposit" as const,
    status: d.status,
    asset_id: d.asset_id,
    network_id: d.network_id,
    amount: d.amount,
    from_address: d.from_address,
    to_address: d.to_address,
    tx_hash: d.tx_hash,
    block_number: d.block_number,
    created_at: d.detected_at,
    confirmed_at: d.confirmed_at,
  });
}

/** A sent withdrawal as a chain transaction: pending until its receipt, then confirmed or failed. */
export function withdrawalTransactionView(w: WithdrawalRecord): Transaction {
  const status =
    w.status === "completed"
      ? ("confirmed" as const)
      : w.status === "failed"
        ? ("failed" as const)
        : ("pending" as const);
  return compact({
    id: `wtx_${(w.tx_hash ?? w.id).replace(/^0x/, "")}`,
    workspace_id: w.workspace_id,
    wallet_id: w.wallet_id,
    direction: "withdrawal" as const,
    status,
    asset_id: w.asset_id,
    network_id: w.network_id,
    amount: w.amount,
    from_address: w.from_address,
    to_address: w.recipient_address,
    tx_hash: w.tx_hash,
    block_number: w.block_number,
    withdrawal_id: w.id,
    created_at: w.sent_at ?? w.created_at,
    confirmed_at: w.status === "completed" ? w.confirmed_at : undefined,
  });
}

/** A webhook with the health of its endpoint (absent health: never attempted, healthy). */
export function webhookView(w: WebhookRecord): Webhook {
  const h = w.health;
  return compact({
    id: w.id,
    workspace_id: w.workspace_id,
    url: w.url,
    event_types: [...w.event_types],
    description: w.description,
    created_at: w.created_at,
    delivery_state: h?.state ?? "healthy",
    consecutive_failures: h?.consecutive_failures ?? 0,
    failing_since: h?.failing_since,
    backoff_until: h?.state === "backing_off" ? h.backoff_until : undefined,
    disabled_at: h?.disabled_at,
    disabled_reason: h?.disabled_reason,
  });
}

/** When a pending delivery's next attempt can start: its own retry time, or later while its endpoint backs off. */
function nextAttemptAt(d: DeliveryRecord, webhook: WebhookRecord | undefined): string | undefined {
  if (d.status !== "pending") return d.next_attempt_at;
  const h = webhook?.health;
  if (h?.state === "disabled") return undefined; // waits for enableWebhook
  if (h?.state === "backing_off" && h.backoff_until && (!d.next_attempt_at || h.backoff_until > d.next_attempt_at))
    return h.backoff_until;
  return d.next_attempt_at;
}

export function deliveryView(
  d: DeliveryRecord,
  event: EventRecord | undefined,
  webhook: WebhookRecord | undefined,
): WebhookDelivery {
  return compact({
    id: d.id,
    delivery_id: d.id,
    webhook_id: d.webhook_id,
    event_type: d.event_type,
    event_id: d.event_id,
    status: d.status,
    attempt_count: d.attempt_count,
    workspace_id: d.workspace_id,
    next_attempt_at: nextAttemptAt(d, webhook),
    last_attempt_at: d.last_attempt_at,
    delivered_at: d.delivered_at,
    response_status: d.response_status,
    response_body: d.response_body,
    error: d.error,
    payload: event ? { ...eventBody(event, webhook ?? { id: d.webhook_id, url: "" }) } : undefined,
    created_at: d.created_at,
    updated_at: d.updated_at,
  });
}

export function webhookDeleteResultView(w: WebhookRecord): WebhookDeleteResult {
  return { id: w.id, webhook_id: w.id, status: "deleted" as const };
}

export function apiKeyView(k: ApiKeyRecord): ApiKey {
  return compact({
    id: k.id,
    workspace_id: k.workspace_id,
    name: k.name,
    role: k.role,
    scopes: [...k.scopes] as Scope[],
    status: k.status,
    created_at: k.created_at,
    revoked_at: k.revoked_at,
  });
}

/** Only for the answer to createApiKey: the one time the secret is shown. */
export function apiKeyWithSecretView(k: ApiKeyRecord): ApiKeyWithSecret {
  return { ...apiKeyView(k), secret: k.secret };
}

export function auditView(a: AuditRecord): AuditLogEntry {
  return compact({
    id: a.id,
    workspace_id: a.workspace_id,
    created_at: a.created_at,
    actor_key_id: a.actor_key_id,
    action: a.action,
    method: a.method,
    path: a.path,
    status: a.status,
    request_id: a.request_id,
    resource_id: a.resource_id,
  });
}
