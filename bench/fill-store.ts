// Fills a sandbox's state store with many records at once, through the store (one transaction per
// batch, not one HTTP call per record): what the lists benchmark and the paging tests need to see a
// sandbox that has been used for a long time. The records are the domain's own (records.ts), consistent
// with each other: ready wallets with their native asset attached, withdrawals of one busy wallet in
// final states (completed ones listed as transactions), confirmed deposits, and wallet.created events
// with a final delivery each to one webhook. Nothing is left for the background work to act on (no
// pending creation, withdrawal, deposit or delivery), so filling does not start chain traffic.
//
// Wallet addresses are random, not derived from the key seed: these wallets are for listing and
// reading balances (zero on chain), never for signing.
import { randomBytes } from "node:crypto";
import { SANDBOX_ETH_ASSET_ID, SANDBOX_NETWORK_ID } from "../reference/domain/catalog.ts";
import { newDelivery } from "../reference/domain/events.ts";
import { newId } from "../reference/domain/ids.ts";
import {
  C,
  type DeliveryRecord,
  type DepositRecord,
  type EventRecord,
  type WalletAssetRecord,
  type WalletRecord,
  type WebhookRecord,
  type WithdrawalRecord,
  type WithdrawalStatus,
} from "../reference/domain/records.ts";
import { listTransaction } from "../reference/domain/transactions.ts";
import { creationStatusView } from "../reference/domain/views.ts";
import type { StateStore, Tx } from "../reference/store/state-store.ts";

export interface FillCounts {
  wallets: number;
  withdrawals: number;
  deliveries: number;
  deposits?: number;
}

export interface Filled {
  /** The wallet holding every withdrawal (and deposit). */
  busyWalletId: string;
  /** The webhook every delivery belongs to. */
  webhookId: string;
  /** Records written, all collections together. */
  records: number;
  /** Withdrawal statuses written, in the order they cycle. */
  withdrawalStatuses: readonly WithdrawalStatus[];
}

const BATCH = 2_000;
/** Final statuses only: the executor acts on none of them. Failed ones are rare, so a status filter has something to skip. */
const WITHDRAWAL_CYCLE: readonly WithdrawalStatus[] = [
  "completed",
  "completed",
  "completed",
  "rejected",
  "completed",
  "completed",
  "completed",
  "failed",
];
/** Delivery outcomes, cycled: mostly delivered, some failed. */
const DELIVERY_CYCLE = ["delivered", "delivered", "delivered", "failed"] as const;

/** Fills the store; yields to the event loop between batches, so a running sandbox keeps serving and following its chain. */
export async function fillStore(
  store: StateStore,
  workspaceId: string,
  createdBy: string,
  counts: FillCounts,
): Promise<Filled> {
  const start = Date.UTC(2025, 0, 1);
  let tick = 0;
  const at = () => new Date(start + tick++ * 1_000).toISOString();
  let records = 0;
  const inBatches = async (n: number, write: (tx: Tx, i: number) => number) => {
    for (let from = 0; from < n; from += BATCH) {
      store.transact((tx) => {
        for (let i = from; i < Math.min(n, from + BATCH); i++) records += write(tx, i);
      });
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  const webhook: WebhookRecord = {
    id: newId(),
    workspace_id: workspaceId,
    url: "http://127.0.0.1:9/bench",
    event_types: ["wallet.created"],
    status: "active",
    created_by: createdBy,
    created_at: at(),
    updated_at: at(),
  };
  store.transact((tx) => tx.put(C.webhooks, webhook));
  records++;

  const wallets: WalletRecord[] = [];
  await inBatches(Math.max(counts.wallets, 1), (tx, i) => {
    const created = at();
    const wallet = bulkWallet(workspaceId, createdBy, i, created);
    wallets.push(wallet);
    tx.put(C.wallets, wallet);
    tx.put<WalletAssetRecord>(C.walletAssets, {
      id: `${wallet.id}:${SANDBOX_ETH_ASSET_ID}`,
      workspace_id: workspaceId,
      wallet_id: wallet.id,
      asset_id: SANDBOX_ETH_ASSET_ID,
      network_id: SANDBOX_NETWORK_ID,
      address: wallet.address as string,
      created_at: created,
    });
    return 2;
  });
  const busy = wallets[0];

  await inBatches(counts.withdrawals, (tx, i) => {
    const created = at();
    const status = WITHDRAWAL_CYCLE[i % WITHDRAWAL_CYCLE.length];
    const w = bulkWithdrawal(workspaceId, createdBy, busy, i, status, created);
    tx.put(C.withdrawals, w);
    if (status === "rejected") return 1;
    listTransaction(tx, "withdrawal", w);
    return 2;
  });

  await inBatches(counts.deposits ?? 0, (tx) => {
    const detected = at();
    const d = bulkDeposit(workspaceId, busy, detected);
    tx.put(C.deposits, d);
    listTransaction(tx, "deposit", d);
    return 2;
  });

  await inBatches(counts.deliveries, (tx, i) => {
    const wallet = wallets[i % wallets.length];
    const when = new Date(at());
    const { event, delivery } = bulkDelivery(webhook, wallet, workspaceId, i, when);
    tx.put(C.events, event);
    tx.put(C.deliveries, delivery);
    return 2;
  });

  return { busyWalletId: busy.id, webhookId: webhook.id, records, withdrawalStatuses: WITHDRAWAL_CYCLE };
}

/** A created wallet, as the service stores one. */
function bulkWallet(workspaceId: string, createdBy: string, i: number, created: string): WalletRecord {
  return {
    id: newId(),
    workspace_id: workspaceId,
    name: `bulk wallet ${i}`,
    wallet_type: "mpc",
    status: "success",
    mpc_correlation_id: newId(),
    wallet_purpose: "payment",
    address: `0x${randomBytes(20).toString("hex")}`,
    created_by: createdBy,
    created_at: created,
    updated_at: created,
    completed_at: created,
  };
}

/** A withdrawal in a final status; all but rejected ones were sent and confirmed. */
function bulkWithdrawal(
  workspaceId: string,
  createdBy: string,
  busy: WalletRecord,
  i: number,
  status: WithdrawalStatus,
  created: string,
): WithdrawalRecord {
  const sent = status !== "rejected";
  return {
    ...ethOfBusyWallet(workspaceId, busy),
    amount: "0.001",
    amount_wei: "1000000000000000",
    fee_reserve_wei: "21000000000000",
    recipient_address: `0x${randomBytes(20).toString("hex")}`,
    from_address: busy.address as string,
    status,
    ...(status === "failed" ? { error: "the transaction reverted on chain", status_reason: "reverted" } : {}),
    ...(status === "rejected" ? { status_reason: "not today" } : {}),
    request_hash: randomBytes(32).toString("hex"),
    created_by: createdBy,
    approvals: [
      {
        id: newId(),
        key_id: createdBy,
        role: "owner",
        decision: status === "rejected" ? "rejected" : "approved",
        at: created,
      },
    ],
    required_approvals: 1,
    ...(sent
      ? {
          nonce: i,
          raw_tx: `0x02${randomBytes(115).toString("hex")}`,
          tx_hash: `0x${randomBytes(32).toString("hex")}`,
          sent_at: created,
          last_sent_at: created,
          send_count: 1,
          block_number: 1,
          block_hash: `0x${randomBytes(32).toString("hex")}`,
          gas_used: "21000",
          effective_gas_price_wei: "1000000000",
          confirmed_at: created,
        }
      : {}),
    created_at: created,
    updated_at: created,
  };
}

/** What a withdrawal from or a deposit to the busy wallet starts with: a new id, the wallet and ETH. */
function ethOfBusyWallet(workspaceId: string, busy: WalletRecord) {
  return {
    id: newId(),
    workspace_id: workspaceId,
    wallet_id: busy.id,
    asset_id: SANDBOX_ETH_ASSET_ID,
    network_id: SANDBOX_NETWORK_ID,
  };
}

/** A confirmed deposit to the busy wallet. */
function bulkDeposit(workspaceId: string, busy: WalletRecord, detected: string): DepositRecord {
  return {
    ...ethOfBusyWallet(workspaceId, busy),
    from_address: `0x${randomBytes(20).toString("hex")}`,
    to_address: busy.address as string,
    amount: "1",
    amount_wei: "1000000000000000000",
    tx_hash: `0x${randomBytes(32).toString("hex")}`,
    block_number: 1,
    block_hash: `0x${randomBytes(32).toString("hex")}`,
    confirmations: 3,
    status: "confirmed",
    detected_at: detected,
    confirmed_at: detected,
    updated_at: detected,
  };
}

/** A wallet.created event and its delivery, delivered or failed by the cycle. */
function bulkDelivery(
  webhook: WebhookRecord,
  wallet: WalletRecord,
  workspaceId: string,
  i: number,
  when: Date,
): { event: EventRecord; delivery: DeliveryRecord } {
  const event: EventRecord = {
    id: newId(),
    type: "wallet.created",
    created_at: when.toISOString(),
    workspace_id: workspaceId,
    resource_id: wallet.id,
    payload: creationStatusView(wallet),
  };
  const status = DELIVERY_CYCLE[i % DELIVERY_CYCLE.length];
  const { next_attempt_at: _due, ...pending } = newDelivery(webhook, event, event.created_at);
  const delivery: DeliveryRecord = {
    ...pending,
    status,
    attempt_count: 1,
    series_attempts: 1,
    last_attempt_at: when.toISOString(),
    ...(status === "delivered"
      ? { delivered_at: when.toISOString(), response_status: 200 }
      : { response_status: 500, error: "receiver answered 500" }),
    attempts: [
      { number: 1, at: when.toISOString(), duration_ms: 3, response_status: status === "delivered" ? 200 : 500 },
    ],
  };
  return { event, delivery };
}
