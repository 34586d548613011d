// JUnit XML for CI dashboards: one test case per change, failed when at or above --fail-on.
import { type DiffReport, LEVEL_RANK, type Level } from "../types.ts";
import { filesOf, location, summaryLine } from "./location.ts";

const xml = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The level at or above which a change fails the run; "none" reports every change and fails on none. */
export type FailOn = Level | "none";

/** Whether a change of this level fails a run with this --fail-on. */
export function failsAt(level: Level, failOn: FailOn): boolean {
  return failOn !== "none" && LEVEL_RANK[level] >= LEVEL_RANK[failOn];
}

export function renderJunit(report: DiffReport, failOn: FailOn): string {
  const failing = report.changes.filter((c) => failsAt(c.level, failOn));
  const cases = report.changes.map((c) => {
    const files = filesOf(report, c.where);
    const name = xml(`${c.id} ${c.where}`);
    const body = `${c.message}\nold: ${location(files.old, c.oldPointer)}\nnew: ${location(files.new, c.newPointer)}`;
    if (!failsAt(c.level, failOn))
      return `    <testcase classname="custody.diff.${c.level}" name="${name}"><system-out>${xml(body)}</system-out></testcase>`;
    return `    <testcase classname="custody.diff.${c.level}" name="${name}"><failure type="${c.level}" message="${xml(c.message)}">${xml(body)}</failure></testcase>`;
  });
  if (cases.length === 0) cases.push(`    <testcase classname="custody.diff" name="no changes"/>`);
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="custody diff" tests="${Math.max(1, report.changes.length)}" failures="${failing.length}">`,
    `  <testsuite name="${xml(summaryLine(report))}" tests="${Math.max(1, report.changes.length)}" failures="${failing.length}">`,
    ...cases,
    `  </testsuite>`,
    `</testsuites>`,
    "",
  ].join("\n");
}
