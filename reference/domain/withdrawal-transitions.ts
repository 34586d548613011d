// The state changes of a withdrawal on its way through a chain, shared by the EVM and the Solana
// executors so that both emit the same events at the same moments:
//   sent     approved → processing (withdrawal.executed, once), last_sent_at and send_count updated, and
//            the withdrawal listed among the transactions (once, in the same commit);
//   settled  → completed (withdrawal.confirmed) or failed (withdrawal.failed), from the chain's verdict;
//   failed   → failed (withdrawal.failed) with a reason, releasing what it held.
// Each is one store transaction that re-reads the record, so a late or repeated call changes nothing.
import type { DomainContext } from "./context.ts";
import { publishEvent } from "./events.ts";
import { isInFlight } from "./nonce-allocator.ts";
import { C, type WithdrawalRecord } from "./records.ts";
import { listTransaction } from "./transactions.ts";
import { withdrawalEventData } from "./withdrawals.ts";

export interface Settlement {
  ok: boolean;
  block_number: number;
  block_hash: string;
  confirmed_at: string;
  gas_used?: string;
  effective_gas_price_wei?: string;
  network_fee_units?: string;
  /** When !ok: the error in words and its status_reason. */
  error?: string;
  status_reason?: string;
}

export function markSent(ctx: DomainContext, id: string): void {
  const at = ctx.now().toISOString();
  ctx.store.transact((tx) => {
    const current = tx.get<WithdrawalRecord>(C.withdrawals, id);
    if (!current || !isInFlight(current)) return;
    const sent: WithdrawalRecord = {
      ...current,
      status: "processing",
      sent_at: current.sent_at ?? at,
      last_sent_at: at,
      send_count: (current.send_count ?? 0) + 1,
      updated_at: at,
    };
    tx.put(C.withdrawals, sent);
    listTransaction(tx, "withdrawal", sent);
    if (current.status === "approved")
      publishEvent(tx, ctx.store, new Date(at), current.workspace_id, "withdrawal.executed", withdrawalEventData(sent));
  });
}

export function markSettled(ctx: DomainContext, id: string, s: Settlement): void {
  const at = ctx.now();
  ctx.store.transact((tx) => {
    const current = tx.get<WithdrawalRecord>(C.withdrawals, id);
    if (!current || !isInFlight(current)) return;
    const iso = at.toISOString();
    const sent: WithdrawalRecord =
      current.status === "approved"
        ? {
            ...current,
            status: "processing",
            sent_at: current.sent_at ?? iso,
            last_sent_at: current.last_sent_at ?? iso,
          }
        : current;
    listTransaction(tx, "withdrawal", sent);
    if (current.status === "approved")
      publishEvent(tx, ctx.store, at, current.workspace_id, "withdrawal.executed", withdrawalEventData(sent));
    const settled: WithdrawalRecord = {
      ...sent,
      status: s.ok ? "completed" : "failed",
      block_number: s.block_number,
      block_hash: s.block_hash,
      ...(s.gas_used !== undefined ? { gas_used: s.gas_used } : {}),
      ...(s.effective_gas_price_wei !== undefined ? { effective_gas_price_wei: s.effective_gas_price_wei } : {}),
      ...(s.network_fee_units !== undefined ? { network_fee_units: s.network_fee_units } : {}),
      confirmed_at: s.confirmed_at,
      ...(s.ok ? {} : { error: s.error, status_reason: s.status_reason }),
      updated_at: iso,
    };
    tx.put(C.withdrawals, settled);
    publishEvent(
      tx,
      ctx.store,
      at,
      current.workspace_id,
      s.ok ? "withdrawal.confirmed" : "withdrawal.failed",
      withdrawalEventData(settled),
    );
  });
}

export function markFailed(ctx: DomainContext, w: WithdrawalRecord, reason: string, message: string): void {
  const at = ctx.now();
  ctx.store.transact((tx) => {
    const current = tx.get<WithdrawalRecord>(C.withdrawals, w.id) ?? w;
    if (current.status === "completed" || current.status === "failed" || current.status === "rejected") return;
    const failed: WithdrawalRecord = {
      ...current,
      status: "failed",
      error: message,
      status_reason: reason,
      updated_at: at.toISOString(),
    };
    tx.put(C.withdrawals, failed);
    publishEvent(tx, ctx.store, at, w.workspace_id, "withdrawal.failed", withdrawalEventData(failed));
  });
}
