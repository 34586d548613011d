// --junit FILE: JUnit XML, one testsuite per group, so CI shows each check as a test. Only a failed
// MUST check is a <failure>: a failed SHOULD check is a <skipped> whose message starts with
// "SHOULD failed" (with the evidence in <system-out>), because Jenkins, GitLab and GitHub test
// reporters all fail a build on any <failure> while the run itself certifies (exit 0). A known
// failure of --baseline is a <skipped> starting "known failure" for the same reason.
import type { Report, ReportCheck } from "./model.ts";
import { curlOf } from "./reproduce.ts";

/** Escapes text for XML and drops characters XML 1.0 cannot carry at all. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "\uFFFD")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function testcase(c: ReportCheck): string {
  const name = xmlEscape(`${c.id} [${c.severity}] ${c.title}`);
  const open = `    <testcase classname="custody.${xmlEscape(c.group)}" name="${name}" time="${seconds(c.duration_ms)}">`;
  const props = `      <properties><property name="seed_ref" value="${xmlEscape(c.seed_ref)}"/><property name="severity" value="${c.severity}"/>${
    c.profile ? `<property name="profile" value="${xmlEscape(c.profile)}"/>` : ""
  }${c.needs ? `<property name="needs" value="${xmlEscape(c.needs)}"/>` : ""}${c.statements.length ? `<property name="statements" value="${xmlEscape(c.statements.join(" "))}"/>` : ""}</properties>`;
  if (c.status === "skipped")
    return `${open}\n${props}\n      <skipped message="${xmlEscape(`${c.message ?? ""}${c.needs ? ` (needs ${c.needs})` : ""}`)}"/>\n    </testcase>`;
  if (c.status === "passed") return `${open}\n${props}\n    </testcase>`;
  const details = [
    c.message ?? "",
    "",
    ...(c.evidence?.request ? [`Reproduce: ${curlOf(c.evidence.request)}`] : []),
    "",
    JSON.stringify(c.evidence, null, 2),
  ].join("\n");
  if (c.known_failure) {
    const why = `known failure (--baseline${c.known_failure.reason ? `: ${c.known_failure.reason}` : ""}): ${c.message ?? ""}`;
    return `${open}\n${props}\n      <skipped message="${xmlEscape(why)}"/>\n      <system-out>${xmlEscape(details)}</system-out>\n    </testcase>`;
  }
  if (c.severity === "SHOULD") {
    return `${open}\n${props}\n      <skipped message="${xmlEscape(`SHOULD failed: ${c.message ?? ""}`)}"/>\n      <system-out>${xmlEscape(details)}</system-out>\n    </testcase>`;
  }
  return `${open}\n${props}\n      <failure message="${xmlEscape(c.message ?? "failed")}" type="${c.severity}">${xmlEscape(details)}</failure>\n    </testcase>`;
}

export function renderJunit(report: Report): string {
  const suites = report.summary.groups.map((g) => {
    const cases = report.checks.filter((c) => c.group === g.group);
    const mustFailed = cases.filter(isMustFailure).length;
    const skipped = cases.length - mustFailed - cases.filter((c) => c.status === "passed").length;
    const time = cases.reduce((sum, c) => sum + c.duration_ms, 0);
    return [
      `  <testsuite name="${xmlEscape(g.group)}" tests="${cases.length}" failures="${mustFailed}" errors="0" skipped="${skipped}" time="${seconds(time)}" timestamp="${report.summary.started_at.replace(/Z$/, "")}">`,
      ...cases.map(testcase),
      "  </testsuite>",
    ].join("\n");
  });
  const s = report.summary;
  const failures = report.checks.filter(isMustFailure).length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="custody certify" tests="${s.total}" failures="${failures}" errors="0" skipped="${s.total - failures - s.passed}" time="${seconds(s.duration_ms)}">`,
    ...suites,
    "</testsuites>",
    "",
  ].join("\n");
}

/** A <failure>: a failed MUST check the --baseline does not accept. */
function isMustFailure(c: ReportCheck): boolean {
  return c.status === "failed" && c.severity === "MUST" && !c.known_failure;
}
