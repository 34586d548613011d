// The generated files compile (tsc --noEmit with the project's settings) for every fixture spec, for
// our spec, and for a real public spec an npm package ships (Rebilly's API, in @redocly/openapi-core).
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parse } from "yaml";
import { generate, renderFiles } from "../generator/index.ts";
import { typecheck } from "../generator/typecheck.ts";
import { writeTypeMatch } from "../scripts/type-match.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FIXTURES = join(ROOT, "test/fixtures/specs");
const REBILLY = join(ROOT, "node_modules/@redocly/openapi-core/src/benchmark/benches/rebilly.yaml");
const GOOD_FIXTURES = [
  "keywords",
  "keywords-30",
  "discriminator",
  "recursive",
  "allof",
  "closed-allof",
  "nullable-30",
  "nullable-31",
  "additional-properties",
  "default-only",
  "names",
  "mini-custody",
];
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(ROOT, ".tmp-gen-compile-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Generates, then writes type-match.ts (T.X and z.infer<typeof XSchema> mutually assignable, per component). */
async function generateWithTypeMatch(specPath: string, outDir: string, rpcSpecPath?: string): Promise<void> {
  const { model } = await renderFiles({ specPath, outDir, rpcSpecPath });
  await generate({ specPath, outDir, rpcSpecPath });
  expect(
    await writeTypeMatch(
      outDir,
      model.schemas.map((s) => s.typeName),
    ),
  ).toBe(model.schemas.length);
}

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

function countOperations(doc: { paths?: Record<string, Record<string, unknown>> }): number {
  return Object.values(doc.paths ?? {}).reduce((n, item) => n + HTTP_METHODS.filter((m) => item[m]).length, 0);
}

it("fixture specs and our spec compile, and every component's type is z.infer of its schema", async () => {
  for (const name of GOOD_FIXTURES)
    await generateWithTypeMatch(join(FIXTURES, `${name}.yaml`), join(work, "fixtures", name));
  await generateWithTypeMatch(join(ROOT, "spec/openapi.yaml"), join(work, "ours"), join(ROOT, "spec/openrpc.json"));
  const result = await typecheck([join(work, "fixtures"), join(work, "ours")]);
  expect(result.output).toBe("");
  expect(result.ok).toBe(true);
});

it("a public spec from an npm package (Rebilly, 1 MB, OpenAPI 3.0) compiles with no operation dropped", async () => {
  const out = join(work, "rebilly");
  const result = await generate({ specPath: REBILLY, outDir: out });
  const doc = parse(await readFile(REBILLY, "utf8")) as Parameters<typeof countOperations>[0];
  const expected = countOperations(doc);
  expect(expected).toBeGreaterThan(300);
  expect(result.operations).toBe(expected);
  const client = await readFile(join(out, "client.ts"), "utf8");
  expect(client.match(/^ {2}\w+\(input: T\.\w+Input/gm)).toHaveLength(expected);
  const checked = await typecheck([out], { maxOldSpaceMb: 4096 });
  expect(checked.output).toBe("");
  expect(checked.ok).toBe(true);
});
