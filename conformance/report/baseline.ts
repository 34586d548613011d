// certify --baseline FILE: a team's known MUST failures (check id, the failure's first line, a reason,
// an expiry date). A run passes while only those fail, fails on any other failure (or one that fails
// otherwise than recorded, or whose expiry date has passed) and says which known failures now pass,
// so the file shrinks. --write-baseline FILE records the run's MUST failures.
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import type { BaselineSummary, KnownFailure, Report, ReportCheck } from "./model.ts";

export type { BaselineSummary, KnownFailure };

export interface Baseline {
  file: string;
  known: KnownFailure[];
}

/**
 * The first line of a failure with what changes from run to run masked: UUIDs, 0x-hex, hex of 8 or
 * more characters, numbers of 4 or more digits (ids, ports, timings). Statuses and counts stay.
 */
export function failureKey(line: string): string {
  return firstLine(line)
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "#")
    .replace(/\b0x[0-9a-f]+\b/gi, "#")
    .replace(/\b[0-9a-f]*\d[0-9a-f]*\b/gi, (m) => (m.length >= 8 || /^\d{4,}$/.test(m) ? "#" : m))
    .replace(/\s+/g, " ")
    .trim();
}

function firstLine(text: string): string {
  return text.split("\n")[0].trim();
}

export function readBaseline(file: string): Baseline {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new Error(
      `--baseline ${file}: ${
        (err as NodeJS.ErrnoException).code === "ENOENT"
          ? "no such file (--write-baseline FILE records one)"
          : (err as Error).message
      }`,
    );
  }
  return parseBaseline(text, file);
}

/** Parses a baseline (YAML or JSON); a malformed entry is named in one line. */
export function parseBaseline(text: string, file: string): Baseline {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    throw new Error(`--baseline ${file}: not YAML or JSON: ${firstLine((err as Error).message)}`);
  }
  const list = (doc as { known_failures?: unknown } | null)?.known_failures ?? [];
  if (!Array.isArray(list)) throw new Error(`--baseline ${file}: known_failures must be a list`);
  return { file, known: list.map((entry, i) => knownFailureOf(entry, `--baseline ${file}: known_failures[${i}]`)) };
}

function knownFailureOf(entry: unknown, where: string): KnownFailure {
  const e = (entry ?? {}) as Record<string, unknown>;
  if (typeof e.check !== "string" || e.check === "") throw new Error(`${where}: check (a check id) is missing`);
  if (typeof e.failure !== "string")
    throw new Error(`${where} (${e.check}): failure (the failure's first line) is missing`);
  const expires = e.expires instanceof Date ? e.expires.toISOString().slice(0, 10) : e.expires;
  if (
    expires !== undefined &&
    expires !== null &&
    (typeof expires !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(expires))
  ) {
    throw new Error(`${where} (${e.check}): expires must be a date YYYY-MM-DD, not ${JSON.stringify(expires)}`);
  }
  const out: KnownFailure = { check: e.check, failure: e.failure };
  if (typeof e.reason === "string" && e.reason !== "") out.reason = e.reason;
  if (typeof expires === "string") out.expires = expires;
  return out;
}

/** The report judged with the baseline: summary.baseline, and each accepted failure marked `known_failure`. */
export function applyBaseline(report: Report, baseline: Baseline, today: Date = new Date()): Report {
  const day = today.toISOString().slice(0, 10);
  const byId = new Map(baseline.known.map((k) => [k.check, k]));
  const summary: BaselineSummary = {
    file: baseline.file,
    outcome: "certified",
    known: [],
    new: [],
    expired: [],
    now_passing: [],
    not_run: [],
  };
  const checks = report.checks.map((c): ReportCheck => {
    const known = byId.get(c.id);
    if (c.status !== "failed" || c.severity !== "MUST") return c;
    const line = firstLine(c.message ?? "");
    if (!known) summary.new.push({ check: c.id, failure: line });
    else if (failureKey(known.failure) !== failureKey(line))
      summary.new.push({ check: c.id, failure: line, recorded: known.failure });
    else if (known.expires !== undefined && known.expires < day) summary.expired.push(known);
    else {
      summary.known.push(known);
      return { ...c, known_failure: known };
    }
    return c;
  });
  const ran = new Map(report.checks.map((c) => [c.id, c.status]));
  for (const k of baseline.known) {
    if (ran.get(k.check) === "passed") summary.now_passing.push(k.check);
    else if (ran.get(k.check) !== "failed") summary.not_run.push(k.check);
  }
  const m = report.summary.must;
  summary.outcome =
    summary.new.length + summary.expired.length > 0
      ? "failed"
      : m.skipped + m.not_selected > 0
        ? "incomplete"
        : summary.known.length > 0
          ? "known_failures_only"
          : "certified";
  return { ...report, summary: { ...report.summary, baseline: summary }, checks };
}

/** The baseline file for the run's MUST failures, keeping the reason and expiry of entries already known. */
export function baselineText(report: Report, previous?: Baseline): string {
  const before = new Map((previous?.known ?? []).map((k) => [k.check, k]));
  const failed = report.checks.filter((c) => c.status === "failed" && c.severity === "MUST");
  const lines = [
    "# Known failures for custody certify --baseline (docs/guides/certify-in-ci.md#adopt-gradually).",
    "# A run passes while only these fail, and fails on any other failure, on one that fails otherwise",
    "# than recorded here (numbers and ids aside), and on one still failing after its expiry date.",
    "# Give each a reason and an expiry date (YYYY-MM-DD); remove an entry once certify says it passes.",
    failed.length === 0 ? "known_failures: []" : "known_failures:",
  ];
  for (const c of failed) {
    const kept = before.get(c.id);
    lines.push(`  - check: ${c.id}`, `    failure: ${JSON.stringify(firstLine(c.message ?? ""))}`);
    lines.push(
      `    reason: ${JSON.stringify(kept?.reason ?? "")}`,
      `    expires: ${kept?.expires ?? "null   # YYYY-MM-DD"}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** What the console says about the baseline, after the verdict. */
export function baselineLines(b: BaselineSummary): string[] {
  const lines = [`baseline ${b.file}:`];
  const why = (k: KnownFailure) =>
    `${k.check}${k.reason ? ` (${k.reason})` : ""}${k.expires ? `, accepted until ${k.expires}` : ""}`;
  if (b.known.length > 0)
    lines.push(
      `  ${b.known.length} known failure${b.known.length === 1 ? "" : "s"}, accepted: ${b.known.map(why).join("; ")}`,
    );
  for (const n of b.new)
    lines.push(
      `  new failure: ${n.check}: ${n.failure}${n.recorded !== undefined ? ` (recorded: ${n.recorded})` : ""}`,
    );
  for (const k of b.expired) lines.push(`  expired on ${k.expires}, still failing: ${k.check}`);
  if (b.now_passing.length > 0) lines.push(`  now passing, remove from ${b.file}: ${b.now_passing.join(", ")}`);
  if (b.not_run.length > 0) lines.push(`  known, not run this time: ${b.not_run.join(", ")}`);
  lines.push(OUTCOME_LINE[b.outcome]);
  return lines;
}

const OUTCOME_LINE: Record<BaselineSummary["outcome"], string> = {
  certified: "with the baseline: certified (exit 0)",
  known_failures_only: "with the baseline: PASSED, only known failures failed (exit 0); not a certification",
  incomplete: "with the baseline: incomplete, no new failure but some MUST checks did not run (exit 3)",
  failed: "with the baseline: FAILED, a new or expired failure (exit 1)",
};
