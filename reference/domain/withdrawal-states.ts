// Which withdrawal statuses mean what for money held and nonces taken, decided once (the balance, the
// executor, the nonce allocator and the indexes all ask).
import type { WithdrawalRecord } from "./records.ts";

/** Statuses whose amount and fee reserve are on hold. */
export const OPEN_WITHDRAWAL_STATUSES: ReadonlySet<string> = new Set([
  "pending",
  "pending_approval",
  "approved",
  "processing",
]);

/** Signed (its raw transaction stored) and not yet settled: its nonce is taken and it is watched on chain. */
export function isInFlight(w: WithdrawalRecord): boolean {
  return w.status === "processing" || (w.status === "approved" && w.raw_tx !== undefined);
}
