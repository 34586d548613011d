// How the isolation checks judge one answer to another workspace's key, and how they report the
// requests that were answered wrongly.

import type { HttpExchange } from "../../transport/probe.ts";
import { CheckFailed } from "../outcome.ts";
import type { Evidence } from "../types.ts";

export interface WrongCell {
  message: string;
  evidence: Evidence;
}

/**
 * undefined when the answer refuses (any 4xx but 401: 403 and 404 are both the deployment's to
 * choose, the seed shows neither); otherwise what is wrong. A 401 is wrong because the key does
 * authenticate (the other-tenant prerequisite checked it): refusing as if it did not hides nothing
 * and breaks clients that re-authenticate on 401.
 */
export function refusalProblem(ex: HttpExchange): string | undefined {
  const status = ex.response.status;
  if (status >= 400 && status < 500 && status !== 401) return undefined;
  if (status === 401)
    return "answered 401, though the key authenticates: another workspace's record is refused with a 4xx such as 403 or 404";
  if (status >= 200 && status < 300) return `answered HTTP ${status}: the other workspace's key was served`;
  return `answered HTTP ${status}`;
}

export function fromExchange(ex: HttpExchange, message: string): WrongCell {
  return { message, evidence: ex.evidence };
}

/** Fails with every wrong request listed (the first one's exchange as evidence), or returns. */
export function verdict(label: string, wrong: WrongCell[], tried: number): void {
  if (wrong.length === 0) return;
  const listed = wrong
    .slice(0, 6)
    .map((w) => w.message)
    .join("; ");
  const more = wrong.length > 6 ? `; and ${wrong.length - 6} more` : "";
  throw new CheckFailed(`${label}: ${wrong.length} of ${tried} requests answered wrongly: ${listed}${more}`, {
    ...wrong[0].evidence,
    details: { wrong: wrong.map((w) => w.message) },
  });
}
