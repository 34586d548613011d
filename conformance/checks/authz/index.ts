// The authorization matrix, derived from the spec: every operation is called with each kind of key
// the run holds, and the answer must follow the operation's x-custody-min-role and
// x-custody-scopes. Allowed: never 401/403 (nor 5xx). Not allowed: 403 with the error envelope.
// Another workspace: 403 or 404, never data. Writes carry ids nobody has (requests.ts).
import type { Check } from "../check.ts";
import { adminMatrix } from "./admin-matrix.ts";
import { scopedMatrix, viewerMatrix } from "./key-matrices.ts";
import { otherWorkspaceMatrix } from "./other-workspace.ts";
import { scopeByScopeMatrix } from "./scope-matrix.ts";

export const authzChecks: Check[] = [viewerMatrix, scopedMatrix, scopeByScopeMatrix, adminMatrix, otherWorkspaceMatrix];
