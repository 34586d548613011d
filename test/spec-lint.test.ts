// Redocly CLI lints spec/openapi.yaml with redocly.yaml (recommended rules, some made stricter):
// no errors, no warnings, and every rule turned off carries a comment that says why.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const REDOCLY = `${ROOT}node_modules/.bin/redocly`;

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

/** Runs `redocly lint --format json`; it exits 1 on errors, so the report is read from stdout either way. */
async function lint(spec: string): Promise<LintReport> {
  const args = ["lint", "--config", "redocly.yaml", spec, "--format", "json"];
  const stdout = await promisify(execFile)(REDOCLY, args, { cwd: ROOT, maxBuffer: 16 << 20 }).then(
    (r) => r.stdout,
    (err: { stdout?: string }) => err.stdout ?? "",
  );
  // Redocly may print a Node.js deprecation banner around the JSON; keep only the JSON object.
  const start = stdout.indexOf("{");
  const end = stdout.lastIndexOf("}");
  if (start < 0 || end < start) throw new Error(`no JSON report from redocly:\n${stdout.slice(0, 2000)}`);
  return JSON.parse(stdout.slice(start, end + 1));
}

describe("redocly lint", () => {
  it("reports no errors and no warnings for spec/openapi.yaml", async () => {
    const report = await lint("spec/openapi.yaml");
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it("explains every rule that redocly.yaml turns off", () => {
    const lines = readFileSync(new URL("../redocly.yaml", import.meta.url), "utf8").split("\n");
    const unexplained = lines.flatMap((line, i) => {
      if (!/^\s+[a-z0-9@/-]+:\s*off\s*$/.test(line)) return [];
      const before = lines
        .slice(0, i)
        .reverse()
        .find((l) => l.trim() !== "");
      return before?.trim().startsWith("#") ? [] : [line.trim()];
    });
    expect(unexplained).toEqual([]);
    expect(lines.some((l) => /^\s+no-ambiguous-paths:\s*off/.test(l))).toBe(true);
  });
});
