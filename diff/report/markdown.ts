// Markdown for pull-request comments: a summary line and one table row per change.
import type { DiffReport } from "../types.ts";
import { filesOf, location } from "./location.ts";

const cell = (s: string): string => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function renderMarkdown(report: DiffReport): string {
  const s = report.summary;
  const lines = [
    `## API changes: ${s.breaking} breaking, ${s.warning} warning, ${s.info} info (semver ${s.semver})`,
    "",
  ];
  if (report.changes.length === 0) return lines.concat("No changes a client would notice.", "").join("\n");
  lines.push("| level | check | where | change | old | new |", "|---|---|---|---|---|---|");
  for (const c of report.changes) {
    const files = filesOf(report, c.where);
    lines.push(
      `| ${c.level} | \`${c.id}\` | ${cell(c.where)} | ${cell(c.message)} | \`${cell(location(files.old, c.oldPointer))}\` | \`${cell(location(files.new, c.newPointer))}\` |`,
    );
  }
  return `${lines.join("\n")}\n`;
}
