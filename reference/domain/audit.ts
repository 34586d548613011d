// The audit log: one entry per state-changing API call, written after the handler succeeded (the spec's
// AuditLogEntry: who, which operation, method, path, status, request id, and the resource touched).
// Changes the sandbox makes on its own (a wallet finishing creation, a deposit confirming, a receipt
// arriving) are not calls; they are visible as events and in the webhook delivery log instead.
import type { StateStore } from "../store/state-store.ts";
import { newId } from "./ids.ts";
import { type AuditRecord, C } from "./records.ts";

export function recordCall(store: StateStore, at: Date, entry: Omit<AuditRecord, "id" | "created_at">): AuditRecord {
  const record: AuditRecord = { id: newId(), created_at: at.toISOString(), ...entry };
  return store.transact((tx) => tx.put(C.audit, record));
}
