// Tenant isolation (OWASP API Security's first risk, broken object-level authorization): with the key
// of a second workspace (--other-api-key/--other-api-secret), the first workspace's real records are
// neither read nor changed, and the second workspace's own lists never show them. Without that key
// the checks are skipped, naming the flags, and the run is not a certification.
import type { Check } from "../check.ts";
import { listsExcludeOther } from "./lists.ts";
import { readsRefused } from "./reads.ts";
import { writesRefused } from "./writes.ts";

export const isolationChecks: Check[] = [readsRefused, writesRefused, listsExcludeOther];
