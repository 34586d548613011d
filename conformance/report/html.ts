// --html FILE: a self-contained page (inline CSS, no scripts from elsewhere) rendered with
// handlebars from templates/report.html.hbs. Handlebars escapes every value.
import { readFileSync } from "node:fs";
import Handlebars from "handlebars";
import { packagePath } from "../../lib/package-root.ts";
import type { Report } from "./model.ts";
import { curlOf } from "./reproduce.ts";

const TEMPLATE = packagePath(import.meta.url, "templates", "report.html.hbs");

let compiled: Handlebars.TemplateDelegate | undefined;

export function renderHtml(report: Report): string {
  if (!compiled) {
    const hb = Handlebars.create();
    hb.registerHelper("json", (value: unknown) => JSON.stringify(value, null, 2));
    compiled = hb.compile(readFileSync(TEMPLATE, "utf8"), { strict: false, noEscape: false });
  }
  // Failures first: the group list is reordered so that groups with failures come first, and
  // inside each group failed checks come before skipped and passed ones.
  const rank = { failed: 0, skipped: 1, passed: 2 } as const;
  const groupsInOrder = [...report.summary.groups].sort((a, b) => Number(b.failed > 0) - Number(a.failed > 0));
  const groups = groupsInOrder.map((g) => ({
    ...g,
    checks: report.checks
      .filter((c) => c.group === g.group)
      .sort((a, b) => rank[a.status] - rank[b.status])
      .map((c) => ({
        ...c,
        failed: c.status === "failed",
        reproduce: c.evidence?.request ? curlOf(c.evidence.request) : undefined,
        requestHeaders: c.evidence?.request
          ? Object.entries(c.evidence.request.headers).map(([name, value]) => ({ name, value }))
          : [],
        responseHeaders: c.evidence?.response?.headers
          ? Object.entries(c.evidence.response.headers).map(([name, value]) => ({ name, value }))
          : [],
      })),
  }));
  const s = report.summary;
  const failures = [...report.checks.filter((c) => c.status === "failed" && !c.known_failure)].sort(
    (a, b) => Number(a.severity === "SHOULD") - Number(b.severity === "SHOULD"),
  );
  return compiled({
    summary: s,
    groups,
    failures,
    knownFailures: report.checks.filter((c) => c.known_failure),
    baseline: s.baseline,
    preflight: report.preflight,
    failedVerdict: s.verdict === "failed",
    notRun: s.must.skipped + s.must.not_selected,
    generatedAt: s.finished_at,
  });
}
