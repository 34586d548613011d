// Transactions of a workspace for reconciliation: detected deposits and withdrawals that were sent on
// chain, as Transaction views, newest first (by created_at: detection of a deposit, broadcast of a
// withdrawal). Withdrawals that never reached the chain (rejected, refused) are not chain transactions.
import type { Transaction } from "../../generated/types.ts";
import { badRequest } from "../../runtime/errors.ts";
import { assertWorkspace } from "./access.ts";
import type { DomainContext } from "./context.ts";
import { C, type Actor, type DepositRecord, type WithdrawalRecord } from "./records.ts";
import { depositTransactionView, withdrawalTransactionView } from "./views.ts";

/** Column order of the CSV export: the Transaction fields in the spec's schema order. */
export const TRANSACTION_CSV_COLUMNS: readonly (keyof Transaction & string)[] = [
  "id",
  "workspace_id",
  "wallet_id",
  "direction",
  "status",
  "asset_id",
  "network_id",
  "amount",
  "from_address",
  "to_address",
  "tx_hash",
  "block_number",
  "withdrawal_id",
  "created_at",
  "confirmed_at",
];

export class TransactionService {
  constructor(private readonly ctx: DomainContext) {}

  list(actor: Actor, workspaceId: string, window: { from?: string; to?: string } = {}): Transaction[] {
    assertWorkspace(actor, workspaceId);
    const from = parseBound(window.from, "from");
    const to = parseBound(window.to, "to");
    if (from !== undefined && to !== undefined && from > to) throw badRequest("from: must not be after to");
    const ws = actor.workspaceId;
    const views: Transaction[] = [
      ...this.ctx.store.list<DepositRecord>(C.deposits, (d) => d.workspace_id === ws).map(depositTransactionView),
      ...this.ctx.store.list<WithdrawalRecord>(C.withdrawals, (w) => w.workspace_id === ws && w.sent_at !== undefined).map(withdrawalTransactionView),
    ];
    return views
      .filter((t) => (from === undefined || Date.parse(t.created_at) >= from) && (to === undefined || Date.parse(t.created_at) <= to))
      .sort((a, b) => (a.created_at > b.created_at ? -1 : a.created_at < b.created_at ? 1 : a.id < b.id ? 1 : -1));
  }
}

function parseBound(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === "") return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw badRequest(`${name}: not an ISO 8601 date-time`);
  return ms;
}
