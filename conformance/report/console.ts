// The console reporter: one line per finished check as it happens, a line when a group completes,
// failures with the reproducing request, and a summary table at the end.

import type { CheckResult } from "../checks/types.ts";
import type { RunEvent } from "../run/runner.ts";
import { baselineLines } from "./baseline.ts";
import type { Report } from "./model.ts";
import { curlOf } from "./reproduce.ts";

export interface ConsoleOptions {
  write: (text: string) => void;
  color?: boolean;
  /** Print passed checks too (default); false keeps only failures and group lines. */
  verbose?: boolean;
}

export function consoleReporter(options: ConsoleOptions): (event: RunEvent) => void {
  const paint = (code: string, text: string) => (options.color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const out = (line = "") => options.write(`${line}\n`);
  let total = 0;
  let done = 0;
  return (event) => {
    switch (event.type) {
      case "start":
        total = event.checks.length;
        out(`custody certify — level ${event.options.level} — ${event.target.baseUrl}`);
        out(`node access ${event.target.rpcUrl} (ws ${event.target.wsUrl})`);
        out(`${total} checks, ${event.options.concurrency} at a time, ${event.options.timeoutMs} ms each`);
        out();
        break;
      case "check-end": {
        done++;
        const r = event.result;
        if (r.status === "passed" && options.verbose === false) break;
        out(line(r, done, total, paint));
        if (r.status === "failed") for (const detail of failureDetails(r)) out(`        ${detail}`);
        for (const c of r.skippedCells ?? []) out(`        not judged: ${c.cell} — ${c.reason}`);
        break;
      }
      case "group-end": {
        const count = (s: string) => event.results.filter((r) => r.status === s).length;
        out(
          paint(
            "1",
            `  ▸ ${event.group}: ${count("passed")} passed, ${count("failed")} failed, ${count("skipped")} skipped`,
          ),
        );
        break;
      }
      case "end":
        out();
        for (const l of summaryLines(event.report, paint)) out(l);
        break;
    }
  };
}

type Paint = (code: string, text: string) => string;

function line(r: CheckResult, done: number, total: number, paint: Paint): string {
  const progress = `[${String(done).padStart(String(total).length)}/${total}]`;
  const mark =
    r.status === "passed" ? paint("32", "PASS") : r.status === "failed" ? paint("31", "FAIL") : paint("33", "SKIP");
  const severity = r.severity === "SHOULD" ? " (SHOULD)" : "";
  const tail = r.status === "skipped" ? ` — ${r.message}` : r.status === "failed" ? ` — ${r.message}` : "";
  return `${progress} ${mark} ${r.group.padEnd(9)} ${r.id}${severity} ${r.durationMs} ms${tail}`;
}

function failureDetails(r: CheckResult): string[] {
  const ev = r.evidence;
  if (!ev) return [];
  const lines: string[] = [];
  if (ev.request) lines.push(`reproduce: ${curlOf(ev.request)}`);
  if (ev.response) {
    const body = (ev.response.body ?? "").replace(/\s+/g, " ").slice(0, 200);
    lines.push(
      `response: ${ev.response.status !== undefined ? `HTTP ${ev.response.status}` : "none"}${ev.response.error ? ` (${ev.response.error})` : ""}${body ? ` ${body}` : ""}`,
    );
  }
  return lines;
}

export function summaryLines(report: Report, paint: Paint = (_c, t) => t): string[] {
  const s = report.summary;
  const row = (a: string, b: string | number, c: string | number, d: string | number) =>
    `  ${a.padEnd(10)} ${String(b).padStart(6)} ${String(c).padStart(6)} ${String(d).padStart(7)}`;
  const lines = ["summary", row("group", "passed", "failed", "skipped")];
  for (const g of s.groups) lines.push(row(g.group, g.passed, g.failed, g.skipped));
  lines.push(row("total", s.passed, s.failed, s.skipped));
  lines.push("");
  if (s.webhook_profile) lines.push(`webhook signature profile: ${s.webhook_profile}`);
  if (s.rate_limited.requests > 0)
    lines.push(
      `rate limited: ${s.rate_limited.requests} answers 429 waited out (${(s.rate_limited.waited_ms / 1000).toFixed(1)} s) and sent again`,
    );
  if (s.skipped_cells > 0)
    lines.push(
      `not judged: ${s.skipped_cells} part(s) of checks passed or failed on the rest (certify's limits, listed under each check as skipped_cells)`,
    );
  lines.push(...cleanupLines(report));
  lines.push(...verdictLines(report, paint));
  return lines;
}

/** What the run removed that earlier runs left, and what it leaves behind itself (to remove by hand). */
export function cleanupLines(report: Report): string[] {
  const c = report.summary.cleanup;
  const lines: string[] = [];
  const list = (items: string[]) =>
    `${items.slice(0, 5).join(", ")}${items.length > 5 ? `, and ${items.length - 5} more` : ""}`;
  if (c.earlier_runs_removed.length > 0)
    lines.push(
      `removed ${c.earlier_runs_removed.length} record(s) left by earlier certify runs cut short: ${list(c.earlier_runs_removed)}`,
    );
  if (c.left.length > 0)
    lines.push(`left on the deployment (remove by hand): ${list(c.left.map((l) => `${l.what} (${l.reason})`))}`);
  return lines;
}

/** The verdict: CERTIFIED only when every MUST check of the level ran and passed; otherwise what was verified and what would let the rest run. */
export function verdictLines(report: Report, paint: Paint = (_c, t) => t): string[] {
  const s = report.summary;
  const m = s.must;
  const scope = s.only ? s.only.join(",") : `level ${s.level}`;
  const notRun = m.skipped + m.not_selected;
  const lines: string[] = [];
  if (s.interrupted)
    lines.push(
      paint("33;1", `interrupted: ${s.interrupted}; what ran is reported, and what the run created was removed`),
    );
  if (s.verdict === "certified") {
    lines.push(
      paint(
        "32;1",
        `CERTIFIED at level ${s.level}: all ${m.in_scope} MUST checks ran and passed (${s.should_failed} SHOULD failed) in ${s.duration_ms} ms`,
      ),
    );
    if (s.baseline) lines.push(...baselineLines(s.baseline));
    return lines;
  }
  for (const need of s.skip_needs) {
    const count = need.must.length + need.should.length;
    lines.push(
      `  pass ${need.needs} to run ${count} more check${count === 1 ? "" : "s"}${need.must.length ? ` (${need.must.length} MUST)` : ""}: ${[...need.must, ...need.should].join(", ")}`,
    );
  }
  if (m.not_selected > 0)
    lines.push(
      `  ${m.not_selected} MUST checks of level ${s.level} were not selected (--only ${s.only?.join(",")}); run without --only to certify`,
    );
  const skippedOther = report.checks.filter((c) => c.status === "skipped" && c.severity === "MUST" && !c.needs);
  for (const c of skippedOther) lines.push(`  ${c.id} did not run: ${c.message}`);
  if (s.verdict === "failed") {
    const failures = report.checks.filter((c) => c.status === "failed" && c.severity === "MUST").map((c) => c.id);
    lines.push(
      paint(
        "31;1",
        `NOT CERTIFIED: ${m.failed} MUST check${m.failed === 1 ? "" : "s"} failed: ${failures.join(", ")}${notRun ? ` (${notRun} MUST not run)` : ""}`,
      ),
    );
  } else {
    lines.push(
      paint("33;1", `NOT CERTIFIED (incomplete): ${scope}: ${m.passed} MUST checks passed; ${notRun} not run`),
    );
  }
  if (s.baseline) lines.push(...baselineLines(s.baseline));
  return lines;
}
