// The check catalog as a Markdown table, for conformance/README.md. Run this file to refresh the
// README between its markers; test/conformance-catalog.test.ts fails when the README is stale.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { CATALOG } from "./catalog.ts";

export const README_PATH = fileURLToPath(new URL("./README.md", import.meta.url));
const BEGIN = "<!-- catalog:begin -->";
const END = "<!-- catalog:end -->";

export function catalogTable(): string {
  const esc = (t: string) => t.replace(/\|/g, "\\|");
  const statements = (c: (typeof CATALOG)[number]) => (c.statements?.length ? c.statements.map((s) => `\`${s}\``).join(" ") : "— (beyond the seed)");
  const rows = CATALOG.map((c) => `| \`${c.id}\` | ${c.severity} | ${c.level} | ${esc(c.seedRef)} | ${statements(c)} | ${esc(c.title)} |`);
  return ["| id | severity | level | seed | seed statements enforced | what it checks |", "|---|---|---|---|---|---|", ...rows].join("\n");
}

/** The README with the table between the markers replaced. */
export function withCatalog(readme: string): string {
  const start = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (start === -1 || end === -1) throw new Error(`README has no ${BEGIN} … ${END} markers`);
  return `${readme.slice(0, start + BEGIN.length)}\n${catalogTable()}\n${readme.slice(end)}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(README_PATH, withCatalog(readFileSync(README_PATH, "utf8")));
}
