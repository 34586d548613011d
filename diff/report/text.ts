// Plain text for terminals: one block per change, the summary last.
import type { DiffReport } from "../types.ts";
import { filesOf, location, summaryLine } from "./location.ts";

export function renderText(report: DiffReport): string {
  const lines: string[] = [];
  for (const c of report.changes) {
    const files = filesOf(report, c.where);
    lines.push(`${c.level.padEnd(8)} ${c.id}  ${c.where}`, `         ${c.message}`);
    lines.push(
      `         old: ${location(files.old, c.oldPointer)}`,
      `         new: ${location(files.new, c.newPointer)}`,
    );
  }
  if (report.changes.length === 0) lines.push("no changes a client would notice");
  lines.push("", `summary: ${summaryLine(report)}`);
  return `${lines.join("\n")}\n`;
}
