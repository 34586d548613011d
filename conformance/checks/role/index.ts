// The Viewer role (seed 5 rule 3): sees balances, transactions and audit logs; cannot move funds
// or change settings. Refusals use placeholder ids, so a deployment that wrongly lets the call
// through still changes nothing real, except at seed level for deleting a webhook (see there).
import type { Check } from "../check.ts";
import { viewerCanRead } from "./viewer-reads.ts";
import { viewerCannotChangeSettings, viewerCannotWithdraw } from "./viewer-refused.ts";

export const roleChecks: Check[] = [viewerCanRead, viewerCannotWithdraw, viewerCannotChangeSettings];
