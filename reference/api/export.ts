// The reconciliation export (exportTransactions): the same transactions as listTransactions, as JSON
// or as one RFC 4180 CSV document whose columns are the Transaction fields in schema order.

import type { Transaction, TransactionExport } from "../../generated/types.ts";
import { toCsv } from "../domain/csv.ts";
import { TRANSACTION_CSV_COLUMNS } from "../domain/transactions.ts";

export function buildExport(input: {
  workspaceId: string;
  format: "json" | "csv";
  from?: string;
  to?: string;
  generatedAt: Date;
  transactions: Transaction[];
}): TransactionExport {
  const base = {
    workspace_id: input.workspaceId,
    format: input.format,
    generated_at: input.generatedAt.toISOString(),
    ...(input.from !== undefined ? { from: input.from } : {}),
    ...(input.to !== undefined ? { to: input.to } : {}),
    count: input.transactions.length,
  };
  if (input.format === "csv") {
    return { ...base, csv: toCsv(TRANSACTION_CSV_COLUMNS, input.transactions) };
  }
  return { ...base, transactions: input.transactions };
}
