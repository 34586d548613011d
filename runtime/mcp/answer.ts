// What a tool call answers. Success: structuredContent {data, page?} and the same JSON as text, a
// long list cut between items (never inside the JSON) with the offset to ask for next. Failure: a
// tool error (isError) naming the status, the API's message and what to do about it.
import { ApiError, RateLimitError, TransportError } from "../errors.ts";
import type { Arguments } from "./arguments.ts";
import type { ToolOperation } from "./tool-table.ts";

/** Longest JSON text an answer carries; beyond it a list is cut between items. */
export const MAX_ANSWER_CHARS = 60_000;

export interface Page {
  offset: number;
  limit?: number;
  returned: number;
  more: boolean;
  next_offset?: number;
  note?: string;
}

export interface ToolAnswer {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

function itemsOf(data: unknown, path: readonly string[]): unknown[] | undefined {
  let node = data;
  for (const key of path)
    node = node !== null && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined;
  return Array.isArray(node) ? node : undefined;
}

function withItems(data: unknown, path: readonly string[], items: unknown[]): unknown {
  if (path.length === 0) return items;
  const [head, ...rest] = path;
  return {
    ...(data as Record<string, unknown>),
    [head]: withItems((data as Record<string, unknown>)[head], rest, items),
  };
}

/** How many leading items fit in the size limit, counted as JSON text. */
function fitting(items: unknown[], budget: number): number {
  let used = 2;
  for (let i = 0; i < items.length; i++) {
    used += JSON.stringify(items[i]).length + 1;
    if (used > budget) return i;
  }
  return items.length;
}

/** The answer's data and, for lists, where this page ends and whether there is more. */
export function pagedData(op: ToolOperation, args: Arguments, data: unknown): { data: unknown; page?: Page } {
  const path = op.pagination?.itemsPath ?? [];
  const items = itemsOf(data, path);
  if (items === undefined) return { data };
  const offset = op.pagination ? Number(args[op.pagination.offset] ?? 0) : 0;
  const limit = op.pagination ? Number(args[op.pagination.limit] ?? Number.NaN) : Number.NaN;
  const kept = JSON.stringify(data).length > MAX_ANSWER_CHARS ? fitting(items, MAX_ANSWER_CHARS - 500) : items.length;
  const cut = kept < items.length;
  const full = op.pagination !== undefined && !Number.isNaN(limit) && items.length >= limit;
  if (!op.pagination && !cut) return { data };
  const page: Page = { offset, ...(Number.isNaN(limit) ? {} : { limit }), returned: kept, more: cut || full };
  if (page.more && op.pagination) page.next_offset = offset + kept;
  if (cut)
    page.note = op.pagination
      ? `cut to ${kept} of ${items.length} items to stay small; call again with ${op.pagination.offset}=${offset + kept}`
      : `cut to ${kept} of ${items.length} items to stay small; narrow the request to see the rest`;
  return { data: cut ? withItems(data, path, items.slice(0, kept)) : data, page };
}

export function successAnswer(structured: Record<string, unknown>, note?: string): ToolAnswer {
  const content = [{ type: "text" as const, text: JSON.stringify(structured) }];
  if (note) content.unshift({ type: "text", text: note });
  return { content, structuredContent: structured };
}

export function errorAnswer(text: string): ToolAnswer {
  return { content: [{ type: "text", text }], isError: true };
}

/** What the model can do about an API error of this status. */
function advice(op: ToolOperation, error: ApiError): string {
  const s = error.status;
  if (s === 400 || s === 422) return "fix the argument the message names and call again";
  if (s === 401)
    return (
      "the server's credentials were refused: the person running this server must check its API key and " +
      "secret; calling again will not help"
    );
  if (s === 403)
    return op.scopes.length
      ? `scope ${op.scopes.join(", ")} is not granted to this key (or its role is too low): ask the person for a key that has it`
      : "this key may not do this: ask the person for a key that may";
  if (s === 404) return "no such record: list the records first to get a valid id";
  if (s === 409)
    return (
      "it conflicts with the current state (a balance too low, a record already changed, or a reused " +
      "idempotency key with other arguments): read the state again before retrying"
    );
  if (error instanceof RateLimitError)
    return `rate limited: wait${error.retryAfterMs ? ` ${Math.ceil(error.retryAfterMs / 1000)} s` : ""} before calling again`;
  if (s >= 500)
    return op.effect === "funds"
      ? "the service failed: calling again with the same arguments is safe (the same idempotency key)"
      : "the service failed: try again later";
  return "see the message";
}

/** A failure as the text of a tool error. */
export function failureText(op: ToolOperation, error: unknown): string {
  if (error instanceof ApiError) {
    const id = error.requestId ? ` (request ${error.requestId})` : "";
    return `${op.tool} failed: HTTP ${error.status}${id}: ${error.shortMessage}. What to do: ${advice(op, error)}.`;
  }
  if (error instanceof TransportError)
    return `${op.tool} failed: no answer from the service (${error.kind}): ${error.shortMessage}. What to do: try again later.`;
  return `${op.tool} failed: ${error instanceof Error ? error.message : String(error)}`;
}
