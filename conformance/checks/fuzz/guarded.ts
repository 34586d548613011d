// Operations that move funds, sign, delete or mint credentials: fuzzed with invalid cases only, unless --allow-writes.
import type { OperationInfo } from "../../run/operations.ts";

/** Scopes whose operations move funds, sign, or create and revoke credentials. */
const GUARDED_SCOPES = new Set(["withdrawals:write", "withdrawals:approve", "signing:write", "api-keys:write"]);

/** True when a valid request to the operation could move funds, sign, delete or mint a key. */
export function isGuarded(op: OperationInfo): boolean {
  return op.method === "DELETE" || op.scopes.some((s) => GUARDED_SCOPES.has(s));
}
