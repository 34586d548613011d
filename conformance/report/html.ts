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
  const groups = report.summary.groups.map((g) => ({
    ...g,
    checks: report.checks
      .filter((c) => c.group === g.group)
      .map((c) => ({
        ...c,
        failed: c.status === "failed",
        reproduce: c.evidence?.request ? curlOf(c.evidence.request) : undefined,
        requestHeaders: c.evidence?.request ? Object.entries(c.evidence.request.headers).map(([name, value]) => ({ name, value })) : [],
        responseHeaders: c.evidence?.response?.headers ? Object.entries(c.evidence.response.headers).map(([name, value]) => ({ name, value })) : [],
      })),
  }));
  return compiled({ summary: report.summary, groups, generatedAt: report.summary.finished_at });
}
