// JSON for tools: the report as it is, pointers without file names (the files are at the top).
import type { DiffReport } from "../types.ts";

export function renderJson(report: DiffReport): string {
  const changes = report.changes.map((c) => ({
    id: c.id,
    level: c.level,
    where: c.where,
    old: c.oldPointer ?? null,
    new: c.newPointer ?? null,
    message: c.message,
  }));
  return `${JSON.stringify({ old: report.old, new: report.new, summary: report.summary, changes }, null, 2)}\n`;
}
