// Transactions of a workspace for reconciliation: detected deposits and withdrawals that were sent on
// chain, as Transaction views, oldest first. Each is listed by a TransactionRecord written in the same
// commit that detects the deposit or first broadcasts the withdrawal (listTransaction), so the list's
// order is the order transactions arose, stable across restarts, and a page reads only its records.
// Withdrawals that never reached the chain (rejected, refused) are not chain transactions.
import type { Transaction } from "../../generated/types.ts";
import { badRequest } from "../../runtime/errors.ts";
import type { Tx } from "../store/state-store.ts";
import { assertWorkspace } from "./access.ts";
import type { DomainContext } from "./context.ts";
import { transactionKeys } from "./indexes.ts";
import type { PageQuery } from "./paging.ts";
import { type Actor, C, type DepositRecord, type TransactionRecord, type WithdrawalRecord } from "./records.ts";
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

/** Meta key set once every deposit and sent withdrawal has its TransactionRecord (see backfill). */
const LISTED = "transactions.listed";

/** Lists a deposit (when detected) or a withdrawal (when first broadcast), in the commit that makes it a transaction. */
export function listTransaction(
  tx: Tx,
  direction: "deposit" | "withdrawal",
  source: DepositRecord | WithdrawalRecord,
): void {
  const id = `${direction}:${source.id}`;
  if (tx.get(C.transactions, id)) return;
  tx.put<TransactionRecord>(C.transactions, {
    id,
    workspace_id: source.workspace_id,
    wallet_id: source.wallet_id,
    direction,
    source_id: source.id,
  });
}

export interface TransactionFilter {
  wallet_id?: string;
  direction?: "deposit" | "withdrawal";
}

export class TransactionService {
  constructor(private readonly ctx: DomainContext) {}

  /** One page of the workspace's transactions, optionally one wallet's or one direction's. */
  page(actor: Actor, workspaceId: string, filter: TransactionFilter, page: PageQuery): Transaction[] {
    assertWorkspace(actor, workspaceId);
    return this.ctx.store
      .page<TransactionRecord>(
        C.transactions,
        transactionKeys.ofWorkspace(actor.workspaceId, filter),
        page.offset,
        page.limit,
      )
      .map((t) => this.view(t));
  }

  /** Every transaction of the workspace within [from, to] (created_at, inclusive), oldest first: the export. */
  list(actor: Actor, workspaceId: string, window: { from?: string; to?: string } = {}): Transaction[] {
    assertWorkspace(actor, workspaceId);
    const from = parseBound(window.from, "from");
    const to = parseBound(window.to, "to");
    if (from !== undefined && to !== undefined && from > to) throw badRequest("from: must not be after to");
    const out: Transaction[] = [];
    for (const t of this.ctx.store.scan<TransactionRecord>(
      C.transactions,
      transactionKeys.ofWorkspace(actor.workspaceId),
    )) {
      const view = this.view(t);
      const at = Date.parse(view.created_at);
      if ((from === undefined || at >= from) && (to === undefined || at <= to)) out.push(view);
    }
    return out;
  }

  /**
   * Lists the transactions of a data directory written before TransactionRecords existed, in the order
   * they arose (created_at), once; later starts find the meta key and skip the scan.
   */
  backfill(): void {
    const store = this.ctx.store;
    if (store.getMeta(LISTED) === true) return;
    const missing = [
      ...store
        .list<DepositRecord>(C.deposits)
        .map((d) => ({ at: d.detected_at, direction: "deposit" as const, source: d })),
      ...store
        .list<WithdrawalRecord>(C.withdrawals, (w) => w.sent_at !== undefined)
        .map((w) => ({ at: w.sent_at as string, direction: "withdrawal" as const, source: w })),
    ].filter((m) => store.get(C.transactions, `${m.direction}:${m.source.id}`) === undefined);
    missing.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
    store.transact((tx) => {
      for (const m of missing) listTransaction(tx, m.direction, m.source);
      tx.setMeta(LISTED, true);
    });
  }

  private view(t: TransactionRecord): Transaction {
    if (t.direction === "deposit")
      return depositTransactionView(this.ctx.store.get<DepositRecord>(C.deposits, t.source_id) as DepositRecord);
    return withdrawalTransactionView(
      this.ctx.store.get<WithdrawalRecord>(C.withdrawals, t.source_id) as WithdrawalRecord,
    );
  }
}

function parseBound(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === "") return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw badRequest(`${name}: not an ISO 8601 date-time`);
  return ms;
}
