// Which checks test which seed statement (ids of spec/trace.yaml), derived from the statements each
// check declares (Check.statements). The spec's trace file carries the same lists in its `checks:`
// fields and docs/reference/checks.md lists each check's statements; test/conformance-catalog.test.ts
// keeps all three in agreement: every testable statement has a check, every named id exists.
import { CATALOG } from "./catalog.ts";

export const TRACE: Record<string, string[]> = traceOf(CATALOG);

function traceOf(catalog: typeof CATALOG): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const check of catalog) for (const statement of check.statements ?? []) (out[statement] ??= []).push(check.id);
  return out;
}

/**
 * Writes these lists into the `checks:` fields of spec/trace.yaml (comments and order kept):
 *   npx tsx conformance/checks/trace.ts --write-spec
 * The spec's owner runs it; conformance/ itself never writes outside its directory.
 */
async function writeSpecTrace(): Promise<void> {
  const { readFileSync, writeFileSync } = await import("node:fs");
  const { parseDocument } = await import("yaml");
  const file = new URL("../../spec/trace.yaml", import.meta.url);
  const doc = parseDocument(readFileSync(file, "utf8"));
  const statements = doc.get("statements") as {
    items: Array<{ get(k: string): unknown; set(k: string, v: unknown): void }>;
  };
  for (const statement of statements.items) {
    const id = String(statement.get("id"));
    statement.set("checks", doc.createNode(TRACE[id] ?? [], { flow: true }));
  }
  writeFileSync(file, doc.toString({ lineWidth: 0 }));
}

if (process.argv.includes("--write-spec") && process.argv[1]?.endsWith("trace.ts")) await writeSpecTrace();
