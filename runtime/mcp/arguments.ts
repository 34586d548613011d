// A tool call's flat arguments back into the request the client sends (path, query, header, body),
// the digest the audit log records, and the idempotency key the server mints for a funds call: the
// same confirmed arguments always give the same key, so a call the agent repeats is answered with
// the first call's result by the service instead of moving money twice.
import { createHash } from "node:crypto";
import type { ToolOperation } from "./tool-table.ts";

export type Arguments = Record<string, unknown>;

export interface RequestParts {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body?: unknown;
}

export class ArgumentError extends Error {}

/** JSON with object keys sorted at every level: one text per value, whatever order the model wrote. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export function argumentDigest(args: Arguments): string {
  return createHash("sha256").update(canonicalJson(args)).digest("hex");
}

/** `mcp-` and the digest of the operation and its arguments (defaults included): stable across retries and restarts. */
export function idempotencyKeyOf(op: ToolOperation, args: Arguments): string {
  return `mcp-${createHash("sha256")
    .update(`${op.operationId}\n${canonicalJson(args)}`)
    .digest("hex")
    .slice(0, 48)}`;
}

/** The arguments with the server's defaults (workspace_id of the key) under them; unknown and missing ones refused. */
export function completeArguments(
  op: ToolOperation,
  given: Arguments,
  defaults: Readonly<Record<string, string>>,
): Arguments {
  const known = new Set(op.arguments.map((a) => a.name));
  const unknown = Object.keys(given).filter((name) => !known.has(name));
  if (unknown.length > 0)
    throw new ArgumentError(
      `unknown argument ${unknown.join(", ")}; ${op.tool} takes ${[...known].join(", ") || "none"}`,
    );
  const args: Arguments = {};
  for (const a of op.arguments) {
    const value = given[a.name] ?? (a.place === "path" ? defaults[a.name] : undefined);
    if (value !== undefined) args[a.name] = value;
  }
  const required = (op.inputSchema.required as string[] | undefined) ?? [];
  const missing = required.filter((name) => args[name] === undefined);
  if (missing.length > 0) throw new ArgumentError(`missing argument ${missing.join(", ")}`);
  return args;
}

/** Where each argument goes, as the generated client's input takes it. */
export function requestParts(op: ToolOperation, args: Arguments): RequestParts {
  const parts: RequestParts = { params: {}, query: {}, headers: {} };
  let body: Record<string, unknown> | undefined;
  for (const a of op.arguments) {
    const value = args[a.name];
    if (value === undefined) continue;
    const key = a.key ?? a.name;
    if (a.place === "path") parts.params[key] = value;
    else if (a.place === "query") parts.query[key] = value;
    else if (a.place === "header") parts.headers[key] = value;
    else if (a.place === "whole-body") parts.body = value;
    else (body ??= {})[key] = value;
  }
  if (body !== undefined) parts.body = body;
  return parts;
}
