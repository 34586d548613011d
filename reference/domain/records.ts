// What the sandbox persists. These are storage records, not API types: they carry internal fields
// (signed raw transactions, idempotency hashes, secrets, key material) that the API never shows.
// reference/api/mappers.ts turns them into the types of generated/types.ts, which stay the only
// declaration of what the API returns.

import type {
  AuditLogEntry,
  EventType,
  Role,
  WalletCreationState,
  WalletPurpose,
  WalletType,
  WebhookDeliveryState,
  WebhookDeliveryStatus,
  WithdrawalStatus,
} from "../../generated/types.ts";
import type { WebhookEvent } from "../../generated/webhooks.ts";

// The spec's value sets, used by the records (never re-declared here).
export type { EventType, Role, WalletPurpose, WalletType, WithdrawalStatus };

export const C = {
  workspaces: "workspaces",
  apiKeys: "api_keys",
  wallets: "wallets",
  walletAssets: "wallet_assets",
  deposits: "deposits",
  withdrawals: "withdrawals",
  idempotency: "idempotency",
  events: "events",
  webhooks: "webhooks",
  deliveries: "deliveries",
  audit: "audit_logs",
  signRequests: "sign_requests",
  transactions: "transactions",
} as const;

/** Who makes a request: the authenticated API key. */
export interface Actor {
  keyId: string;
  role: Role;
  scopes: readonly string[];
  workspaceId: string;
}

export interface WorkspaceRecord {
  id: string;
  name: string;
  owner_email: string;
  /** Ed25519 secret seed (hex) that signs this workspace's webhook deliveries. */
  webhook_private_key: string;
  created_at: string;
}

export interface ApiKeyRecord {
  id: string;
  workspace_id: string;
  name: string;
  role: Role;
  scopes: string[];
  /** The HMAC secret. Needed in clear to verify signatures; never logged, returned only at creation. */
  secret: string;
  status: "active" | "revoked";
  created_at: string;
  revoked_at?: string;
  last_used_at?: string;
}

export interface WalletRecord {
  id: string;
  workspace_id: string;
  name: string;
  wallet_type: WalletType;
  status: WalletCreationState;
  status_reason?: string;
  mpc_correlation_id: string;
  wallet_purpose?: WalletPurpose;
  /** Derived EVM address; set when creation completes. */
  address?: string;
  created_by: string;
  created_at: string;
  updated_at: string;
  completed_at?: string;
}

export interface WalletAssetRecord {
  /** `${wallet_id}:${asset_id}` */
  id: string;
  workspace_id: string;
  wallet_id: string;
  asset_id: string;
  network_id: string;
  address: string;
  created_at: string;
}

export interface DepositRecord {
  /** UUID v4 derived from the transaction hash (one native transfer pays one address). */
  id: string;
  workspace_id: string;
  wallet_id: string;
  asset_id: string;
  network_id: string;
  from_address: string;
  to_address: string;
  amount: string;
  amount_wei: string;
  tx_hash: string;
  block_number: number;
  block_hash: string;
  confirmations: number;
  /** failed: detected on a chain that was later replaced (see DepositService.failForChainReset). */
  status: "pending" | "confirmed" | "failed";
  status_reason?: string;
  detected_at: string;
  confirmed_at?: string;
  updated_at: string;
}

export interface ApprovalRecord {
  id: string;
  key_id: string;
  role: Role;
  decision: "approved" | "rejected";
  comment?: string;
  at: string;
}

export interface WithdrawalRecord {
  id: string;
  workspace_id: string;
  wallet_id: string;
  asset_id: string;
  network_id: string;
  amount: string;
  amount_wei: string;
  /** Network fee kept on hold until the transaction is settled (21000 gas × max fee per gas at creation). */
  fee_reserve_wei: string;
  recipient_address: string;
  from_address: string;
  notes?: string;
  status: WithdrawalStatus;
  status_reason?: string;
  error?: string;
  /** Absent when the request carried no Idempotency-Key (it is optional). */
  idempotency_key?: string;
  request_hash: string;
  created_by: string;
  approvals: ApprovalRecord[];
  required_approvals: number;
  /** Set before broadcast: a resend after a crash sends these exact bytes (same nonce, same hash). */
  nonce?: number;
  raw_tx?: string;
  tx_hash?: string;
  sent_at?: string;
  /** When the stored raw transaction was last handed to the node (first send or a resend). */
  last_sent_at?: string;
  /** How many times the stored raw transaction was handed to the node. */
  send_count?: number;
  block_number?: number;
  block_hash?: string;
  gas_used?: string;
  effective_gas_price_wei?: string;
  /** The network fee the settled transaction paid, in smallest units, when gas fields cannot say it (Solana). */
  network_fee_units?: string;
  /** Solana: the blockhash the signed transaction carries and the last block height it can land at. */
  recent_blockhash?: string;
  last_valid_block_height?: number;
  confirmed_at?: string;
  created_at: string;
  updated_at: string;
}

/** A /web3 signing request: a message/typed-data signature (kind sign) or a sent transaction. */
export interface SignRequestRecord {
  id: string;
  workspace_id: string;
  wallet_id: string;
  kind: "sign" | "transaction";
  method: string;
  body: Record<string, unknown>;
  status: "pending" | "confirmed" | "completed" | "failed";
  signature?: string;
  hash?: string;
  failed_reason?: string;
  request_hash: string;
  idempotency_key?: string;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/**
 * A workspace transaction in list order: written when a deposit is detected or a withdrawal is first
 * broadcast, in the same commit, so its position (creation order) is the order transactions arose and
 * survives a restart. The Transaction view is built from the deposit or withdrawal it names.
 */
export interface TransactionRecord {
  /** `deposit:<deposit id>` or `withdrawal:<withdrawal id>`. */
  id: string;
  workspace_id: string;
  wallet_id: string;
  direction: "deposit" | "withdrawal";
  /** The deposit's or the withdrawal's id. */
  source_id: string;
}

export interface IdempotencyRecord {
  /** `${workspace_id}:${idempotency key}` */
  id: string;
  withdrawal_id: string;
  request_hash: string;
  created_at: string;
}

/** The payload an event carries (the `payload` of the spec's webhook event shapes). */
export type EventPayload = WebhookEvent["payload"];

/**
 * One event. Receivers get it in the real service's envelope {webhook_id, resource_id, url, payload,
 * event}, built per webhook by eventBody (events.ts); the id travels in the x-webhook-event-id header.
 */
export interface EventRecord {
  id: string;
  type: EventType;
  created_at: string;
  workspace_id: string;
  resource_id: string;
  payload: EventPayload;
}

export interface WebhookRecord {
  id: string;
  workspace_id: string;
  url: string;
  event_types: EventType[];
  description?: string;
  status: "active" | "deleted";
  created_by: string;
  created_at: string;
  updated_at: string;
  deleted_at?: string;
  /** The endpoint's health (breaker, disabling); absent until its first attempt. */
  health?: EndpointHealth;
}

export type AttemptOutcome = "ok" | "failed" | "timeout";

/** What the dispatcher knows of an endpoint (x-custody-webhook-delivery: circuit-breaker, disabling). */
export interface EndpointHealth {
  state: WebhookDeliveryState;
  /**
   * How the last attempt ended: a 2xx, another answer or a refused connection ("failed"), or no answer
   * within the time-out. Until an endpoint has answered at all, and after a time-out, it gets one
   * attempt in flight.
   */
  last_outcome: AttemptOutcome;
  consecutive_failures: number;
  /** First failed attempt after the last 2xx (when the attempt started). */
  failing_since?: string;
  /** While backing_off: when the next probe may start. */
  backoff_until?: string;
  /** How many times the breaker opened in this streak (picks the probe delay). */
  openings: number;
  disabled_at?: string;
  disabled_reason?: string;
}

export interface DeliveryAttempt {
  number: number;
  at: string;
  duration_ms: number;
  response_status?: number;
  error?: string;
}

export interface DeliveryRecord {
  id: string;
  workspace_id: string;
  webhook_id: string;
  event_id: string;
  event_type: EventType;
  status: WebhookDeliveryStatus;
  /** Attempts over the delivery's whole life (a resend keeps counting). */
  attempt_count: number;
  /** Attempts since the delivery was (re)queued; the retry limit applies to these. */
  series_attempts: number;
  next_attempt_at?: string;
  last_attempt_at?: string;
  delivered_at?: string;
  response_status?: number;
  response_body?: string;
  error?: string;
  attempts: DeliveryAttempt[];
  created_at: string;
  updated_at: string;
}

/** One state-changing API call, recorded after it was answered: stored exactly as the spec's AuditLogEntry. */
export type AuditRecord = AuditLogEntry;
