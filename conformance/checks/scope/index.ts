// Scopes (seed 5 rule 2) and workspace isolation: a key gets what its scopes name, nothing else.
import type { Check } from "../check.ts";
import { apiKeyCreation } from "./api-key-creation.ts";
import { balancesReadNoWithdrawals, balancesReadOnly } from "./balances-read-only.ts";
import { otherWorkspaceNotFound, otherWorkspaceRefused } from "./other-workspace.ts";

export const scopeChecks: Check[] = [
  balancesReadOnly,
  balancesReadNoWithdrawals,
  otherWorkspaceRefused,
  otherWorkspaceNotFound,
  apiKeyCreation,
];
