// Prints results as an aligned console table and as a Markdown table for the README.
import type { ResultEntry } from "./stats.ts";

/** A figure for people: a few significant digits, thousands grouped for big throughputs. */
export function formatFigure(value: number | null): string {
  if (value === null) return "—";
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString("en-US");
  if (Math.abs(value) >= 100) return value.toFixed(0);
  if (Math.abs(value) >= 10) return value.toFixed(1);
  if (Math.abs(value) >= 1) return value.toFixed(2);
  return value.toPrecision(2);
}

export function formatRatio(ratio: number | null): string {
  return ratio === null ? "—" : `${ratio.toFixed(2)}x`;
}

function rows(entries: readonly ResultEntry[]): string[][] {
  const withUnit = (value: number | null, unit: string) =>
    value === null ? formatFigure(value) : `${formatFigure(value)} ${unit}`;
  return entries.map((e) => [
    e.name,
    withUnit(e.ours, e.unit),
    e.baseline_name,
    withUnit(e.baseline, e.unit),
    formatRatio(e.ratio),
    e.note ?? "",
  ]);
}

const HEADER = ["benchmark", "ours", "baseline", "baseline figure", "ratio", "note"];

export function consoleTable(entries: readonly ResultEntry[]): string {
  const all = [HEADER, ...rows(entries)];
  const widths = HEADER.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r
      .map((cell, i) => (i === 1 || i === 3 || i === 4 ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [line(HEADER), widths.map((w) => "-".repeat(w)).join("  "), ...all.slice(1).map(line)].join("\n");
}

export function markdownTable(entries: readonly ResultEntry[]): string {
  const escapeCell = (s: string) => s.replace(/\|/g, "\\|");
  const lines = [`| ${HEADER.join(" | ")} |`, "|---|---:|---|---:|---:|---|"];
  for (const r of rows(entries)) lines.push(`| ${r.map(escapeCell).join(" | ")} |`);
  return lines.join("\n");
}
