// Where a run's reports go: the JSON, JUnit and HTML files asked for, each redacted once more on
// its way out, and the console of the process masked while the run lasts (third-party libraries log
// URLs that carry api_key).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Redactor } from "../transport/redact.ts";
import { renderHtml } from "./html.ts";
import { renderJson } from "./json.ts";
import { renderJunit } from "./junit.ts";
import type { Report } from "./model.ts";

export interface ReportFiles {
  json?: string;
  junit?: string;
  html?: string;
}

export function writeReports(report: Report, files: ReportFiles, redactor: Redactor): Array<[string, string]> {
  const written: Array<[string, string]> = [];
  const outputs: Array<[string | undefined, (r: Report) => string]> = [
    [files.json, renderJson],
    [files.junit, renderJunit],
    [files.html, renderHtml],
  ];
  for (const [i, [file, render]] of outputs.entries()) {
    if (!file) continue;
    mkdirSync(dirname(file), { recursive: true });
    // Everything was redacted when captured; this pass is the last safety net.
    writeFileSync(file, redactor.text(render(report)));
    written.push([["JSON", "JUnit", "HTML"][i], resolve(file)]);
  }
  return written;
}

/** Third-party libraries (the Substrate client, for one) log URLs with api_key; mask them during the run. */
export function redactConsole(redactor: Redactor): () => void {
  const methods = ["log", "info", "warn", "error", "debug"] as const;
  const saved = methods.map((m) => console[m]);
  for (const m of methods) {
    const original = console[m];
    console[m] = (...args: unknown[]) =>
      original(
        ...args.map((a) =>
          typeof a === "string" ? redactor.url(a) : a instanceof Error ? redactor.url(a.message) : a,
        ),
      );
  }
  return () => methods.forEach((m, i) => (console[m] = saved[i]));
}
