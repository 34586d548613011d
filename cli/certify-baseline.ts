// certify --baseline FILE / --write-baseline FILE: reads the known failures before the run (a bad file
// stops it at once), judges the report with them, and records the run's MUST failures on request.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { applyBaseline, type Baseline, baselineText, readBaseline } from "../conformance/report/baseline.ts";
import type { Report } from "../conformance/report/model.ts";
import type { RunEvent } from "../conformance/run/runner.ts";
import { UsageError } from "./usage-error.ts";

export interface BaselineJudge {
  /** The console reporter with the baseline applied to the end-of-run report it prints. */
  reporter(inner: (e: RunEvent) => void): (e: RunEvent) => void;
  /** The report judged with the baseline (the same object for the same report). */
  judge(report: Report): Report;
  /** Writes --write-baseline FILE when asked; the line to print, or undefined. */
  write(report: Report): string | undefined;
}

export function baselineJudge(file: string | undefined, writeTo: string | undefined, today?: Date): BaselineJudge {
  let baseline: Baseline | undefined;
  try {
    baseline = file === undefined ? undefined : readBaseline(file);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const judged = new WeakMap<Report, Report>();
  const judge = (report: Report): Report => {
    const known = judged.get(report) ?? (baseline ? applyBaseline(report, baseline, today) : report);
    judged.set(report, known);
    return known;
  };
  return {
    reporter: (inner) => (e) => inner(e.type === "end" ? { ...e, report: judge(e.report) } : e),
    judge,
    write(report) {
      if (writeTo === undefined) return undefined;
      mkdirSync(dirname(writeTo), { recursive: true });
      writeFileSync(writeTo, baselineText(report, baseline));
      const n = report.checks.filter((c) => c.status === "failed" && c.severity === "MUST").length;
      const what = `baseline (${n} known failure${n === 1 ? "" : "s"}) written to ${writeTo}`;
      return `${what}: give each a reason and an expiry date, commit it, pass --baseline ${writeTo}\n`;
    },
  };
}
