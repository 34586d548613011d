// One JSON line per tool call: when, which tool and effect, the digest of the arguments (never the
// arguments), the outcome, the idempotency key and the API's request id. No bodies, no credentials:
// every line also goes through the redactor, in case a secret turns up where none was expected.
import { appendFileSync } from "node:fs";
import type { Effect } from "./tool-table.ts";

export type Outcome = "ok" | "error" | "declined" | "cancelled" | "no-elicitation" | "refused";

export interface AuditEntry {
  tool: string;
  /** The API operation the tool names; absent for dynamic mode's list_operations and a call of no offered operation. */
  operation?: string;
  /** Absent only when a call_operation named no offered operation. */
  effect?: Effect;
  args_sha256: string;
  outcome: Outcome;
  status?: number;
  idempotency_key?: string;
  request_id?: string;
  duration_ms: number;
}

export type AuditSink = (entry: AuditEntry) => void;

/**
 * Starts one call's audit line: the returned function writes it, with the outcome and the time since
 * this start. It reads `entry` when it writes, so fields learned during the call (the digest of the
 * completed arguments, the idempotency key) are in it.
 */
export function startAudit(
  sink: AuditSink | undefined,
  entry: Omit<AuditEntry, "outcome" | "duration_ms">,
): (outcome: Outcome) => void {
  const started = performance.now();
  return (outcome) => sink?.({ ...entry, outcome, duration_ms: Math.round(performance.now() - started) });
}

/** Appends to `file` (created when missing); the sink never throws into a tool call. */
export function fileAuditSink(
  file: string,
  redact: (text: string) => string,
  onError: (message: string) => void,
): AuditSink {
  return (entry) => {
    try {
      appendFileSync(file, `${redact(JSON.stringify({ time: new Date().toISOString(), ...entry }))}\n`);
    } catch (error) {
      onError(`audit log ${file}: ${(error as Error).message}`);
    }
  };
}

/** Replaces every occurrence of the given secrets (API key and secret) in a text. */
export function redactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const present = secrets.filter((s): s is string => typeof s === "string" && s.length >= 4);
  return (text) => present.reduce((out, secret) => out.split(secret).join("[redacted]"), text);
}

/** The same, through a JSON value: every string is redacted. */
export function redactValue(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, redact));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), redactValue(v, redact)]));
  }
  return value;
}
