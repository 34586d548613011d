// Numbers that describe the contract and the tools, for prose: a page writes
// <!-- generated:count:operations -->40<!-- /generated --> and `npm run docs` keeps the number true
// (`--check` fails when one is stale). Each count is computed from the code, never typed by hand.
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { CATALOG } from "../../conformance/checks/catalog.ts";
import { selectChecks } from "../../conformance/run/levels.ts";
import { renderFiles } from "../../generator/index.ts";
import { installLines, outputNeeds } from "../../generator/output-needs.ts";
import { custodyManifest } from "../../generator/package-files.ts";
import { packagePath } from "../../lib/package-root.ts";

const SPEC = packagePath(import.meta.url, "spec", "openapi.yaml");
const RPC_SPEC = packagePath(import.meta.url, "spec", "openrpc.json");

let rendering: ReturnType<typeof renderFiles> | undefined;

/** What `custody generate --out DIR` writes in a user's project (vendored runtime), rendered once, never written. */
function userOutput(): ReturnType<typeof renderFiles> {
  rendering ??= renderFiles({ specPath: SPEC, rpcSpecPath: RPC_SPEC, outDir: join(tmpdir(), "custody-docs-count") });
  return rendering;
}

/** What `custody generate --out src/wallet` prints in a user's project, its timing left out. */
export async function generateOutput(): Promise<string> {
  const { model, files } = await userOutput();
  const wrote = `${files.length} files: ${files.length} added, … s`;
  return [
    "```text",
    `custody generate: ${model.operations.length} operations, ${model.schemas.length} schemas → src/wallet (${wrote})`,
    "src/wallet needs, in the project that compiles it:",
    ...installLines(outputNeeds(files, custodyManifest())).map((line) => `  ${line}`),
    'and tsc with "module": "NodeNext" (every import in it ends in .js).',
    "```",
  ].join("\n");
}

/** Every count a page may name, by name. */
export async function counts(): Promise<Record<string, number>> {
  const spec = parse(readFileSync(SPEC, "utf8")) as {
    webhooks?: Record<string, unknown>;
    paths: Record<string, Record<string, unknown>>;
  };
  const rpc = JSON.parse(readFileSync(RPC_SPEC, "utf8")) as { methods: unknown[] };
  const { model, files } = await userOutput();
  const seed = selectChecks(CATALOG, "seed").inScope;
  const seedOperations = model.operations.filter((op) => op.source === "seed").length;
  const must = (list: readonly { severity: string }[]) => list.filter((c) => c.severity === "MUST").length;
  return {
    operations: model.operations.length,
    "seed-operations": seedOperations,
    "assumed-operations": model.operations.length - seedOperations,
    schemas: model.schemas.length,
    webhooks: Object.keys(spec.webhooks ?? {}).length,
    "rpc-methods": rpc.methods.length,
    "generated-files": files.length,
    checks: CATALOG.length,
    "must-checks": must(CATALOG),
    "seed-checks": seed.length,
    "seed-must-checks": must(seed),
  };
}

const COUNT = /<!-- generated:count:([\w-]+) -->(.*?)<!-- \/generated -->/g;

/** The page with every count marker's number made current; an unknown name is an error naming the page. */
export function renderCounts(page: string, text: string, values: Record<string, number>): string {
  return text.replace(COUNT, (_, name: string) => {
    const value = values[name];
    if (value === undefined)
      throw new Error(`${page}: unknown count '${name}' (known: ${Object.keys(values).join(", ")})`);
    return `<!-- generated:count:${name} -->${value.toLocaleString("en-US")}<!-- /generated -->`;
  });
}

/** Whether a page has count markers (only those pages are read and rewritten). */
export function hasCounts(text: string): boolean {
  return text.includes("<!-- generated:count:");
}
