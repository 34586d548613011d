// One operation on both sides of a diff: what every per-operation family (parameters, request body,
// responses, security, pagination) is handed by operations.ts.
import type { At } from "../document.ts";

export interface OperationPair {
  where: string;
  old: At;
  next: At;
  /** The path items, for path-level parameters. */
  oldItem: At;
  nextItem: At;
  oldPath: string;
  nextPath: string;
}
