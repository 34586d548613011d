// Small helpers the fixture providers share.

import { expectSuccess } from "../checks/expect.ts";
import type { Suite } from "../run/context.ts";
import type { HttpExchange } from "../transport/probe.ts";

/** The success payload of `ex` as a record, validated against the operation's schema. */
export function successRecord(suite: Suite, operationId: string, ex: HttpExchange): Record<string, unknown> {
  const data = expectSuccess(ex, suite.operation(operationId));
  return (data && typeof data === "object" && !Array.isArray(data) ? data : {}) as Record<string, unknown>;
}

/** The first string among these fields (the seed often names an id twice: id and wallet_id). */
export function firstString(record: Record<string, unknown> | undefined, ...fields: string[]): string | undefined {
  for (const field of fields) {
    const value = record?.[field];
    if (typeof value === "string" && value.length > 0) return value;
  }
  return undefined;
}

export const EVENT_TYPES = [
  "wallet.created",
  "deposit.pending",
  "deposit.confirmed",
  "withdrawal.pending",
  "withdrawal.executed",
  "withdrawal.confirmed",
  "withdrawal.failed",
] as const;
