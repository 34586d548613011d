// The generated files compile (tsc --noEmit with the project's settings) for every fixture spec and for
// our spec, in classic zod with every component's type z.infer of its schema, and in zod/mini
// (`--zod mini`) for the fixture documents test/generator-zod-mini.test.ts compares: one tsc program
// over all of them, its diagnostics told apart by folder. The same program compiles the output of a
// document whose every text is hostile (test/support/hostile-spec.ts; test/generator-spec-text.test.ts
// reads its text), of Swagger 2.0's petstore (test/generator-swagger2.test.ts checks the conversion) and
// of the readOnly/writeOnly fixture with its probe (test/support/read-write-only-probe.ts), and the
// closed-allof fixture with a vendored runtime and its shapes (test/support/closed-allof-shapes.ts).
// A real public spec an npm package ships
// (Rebilly's 1 MB API) compiles in test/generator-compile.scale.test.ts (npm run test:scale).
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parse } from "yaml";
import { generate, renderFiles } from "../generator/index.ts";
import { type TypecheckResult, typecheck } from "../generator/typecheck.ts";
import { writeTypeMatch } from "../scripts/type-match.ts";
import { writeClosedAllOfShapes } from "./support/closed-allof-shapes.ts";
import { operationIds } from "./support/count-operations.ts";
import { hostileSpec } from "./support/hostile-spec.ts";
import { writeReadWriteOnlyProbe } from "./support/read-write-only-probe.ts";
import { MINI_FIXTURES } from "./support/zod-agreement.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FIXTURES = join(ROOT, "test/fixtures/specs");
const PETSTORE = join(ROOT, "test/fixtures/swagger2/petstore-2.0.yaml");
const OUTPUTS = ["classic", "ours", "mini", "hostile", "swagger2", "read-write-only", "closed-allof"];
const GOOD_FIXTURES = [
  ...["keywords", "keywords-30", "discriminator", "recursive", "allof", "closed-allof", "nullable-30"],
  ...["nullable-31", "additional-properties", "default-only", "names", "mini-custody"],
];
let work: string;
let checked: TypecheckResult;
let ourOperations: number;
let readWriteOnly: { matched: number; names: number };

/** Generates, then writes type-match.ts (T.X and z.infer<typeof XSchema> mutually assignable, per component). */
async function generateWithTypeMatch(specPath: string, outDir: string, rpcSpecPath?: string): Promise<number> {
  const { model } = await renderFiles({ specPath, outDir, rpcSpecPath });
  const result = await generate({ specPath, outDir, rpcSpecPath });
  expect(
    await writeTypeMatch(
      outDir,
      model.schemas.map((s) => s.typeName),
    ),
  ).toBe(model.schemas.length);
  return result.operations;
}

/** The fixture's zod/mini output, as test/generator-zod-mini.test.ts renders it (runtime/ compiled once). */
async function generateMini(name: string, outDir: string): Promise<void> {
  const specPath = join(FIXTURES, `${name}.yaml`);
  const { files } = await renderFiles({ specPath, outDir, zod: "mini", runtime: "local" });
  for (const f of files) {
    await mkdir(join(outDir, f.path, ".."), { recursive: true });
    await writeFile(join(outDir, f.path), f.content);
  }
}

/** tsc's diagnostics in files under `dir`, and those outside every output (runtime/, which all share). */
function diagnosticsOf(dir: string): string[] {
  const outputs = OUTPUTS.map((d) => relative(ROOT, join(work, d)));
  const own = relative(ROOT, dir);
  return checked.output
    .split("\n")
    .filter((line) => line !== "")
    .filter((line) => line.startsWith(own) || !outputs.some((o) => line.startsWith(o)));
}

beforeAll(async () => {
  work = await mkdtemp(join(ROOT, ".tmp-gen-compile-"));
  for (const name of GOOD_FIXTURES)
    await generateWithTypeMatch(join(FIXTURES, `${name}.yaml`), join(work, "classic", name));
  ourOperations = await generateWithTypeMatch(
    join(ROOT, "spec/openapi.yaml"),
    join(work, "ours"),
    join(ROOT, "spec/openrpc.json"),
  );
  for (const name of MINI_FIXTURES) await generateMini(name, join(work, "mini", name));
  const hostile = join(work, "hostile.json");
  await writeFile(hostile, JSON.stringify(hostileSpec()));
  await generate({ specPath: hostile, outDir: join(work, "hostile"), runtime: "local" });
  await generate({ specPath: PETSTORE, outDir: join(work, "swagger2"), runtime: "local" });
  readWriteOnly = await writeReadWriteOnlyProbe(join(work, "read-write-only"));
  await writeClosedAllOfShapes(join(work, "closed-allof"));
  checked = await typecheck(OUTPUTS.map((d) => join(work, d)));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

it("fixture specs and our spec compile, and every component's type is z.infer of its schema", () => {
  expect(diagnosticsOf(join(work, "classic"))).toEqual([]);
  expect(diagnosticsOf(join(work, "ours"))).toEqual([]);
  expect(checked.ok).toBe(true);
});

it("our spec keeps every operation: a client method each (paginated ones a PagedOperation)", async () => {
  const doc = parse(await readFile(join(ROOT, "spec/openapi.yaml"), "utf8")) as Parameters<typeof operationIds>[0];
  const expected = operationIds(doc);
  expect(expected.length).toBeGreaterThan(30);
  expect(ourOperations).toBe(expected.length);
  const client = await readFile(join(work, "ours", "client.ts"), "utf8");
  const methods = [
    ...client.matchAll(/^ {2}(?:(\w+)\(input: T\.\w+Input|readonly (\w+): PagedOperation<T\.\w+Input)/gm),
  ];
  expect(methods.map((m) => m[1] ?? m[2]).sort()).toEqual([...expected].sort());
});

it("the fixture documents' zod/mini output compiles with tsc --strict", () => {
  expect(diagnosticsOf(join(work, "mini"))).toEqual([]);
  expect(checked.ok).toBe(true);
});

it("a document whose every text is hostile compiles", () => {
  expect(diagnosticsOf(join(work, "hostile"))).toEqual([]);
  expect(checked.ok).toBe(true);
});

it("Swagger 2.0's petstore, converted, compiles", () => {
  expect(diagnosticsOf(join(work, "swagger2"))).toEqual([]);
  expect(checked.ok).toBe(true);
});

it("readOnly/writeOnly: the output compiles, hidden properties are type errors, and every type is z.infer of its schema", () => {
  expect(readWriteOnly.matched).toBe(readWriteOnly.names);
  expect(diagnosticsOf(join(work, "read-write-only"))).toEqual([]);
  expect(checked.ok).toBe(true);
});

it("closed allOfs with a vendored runtime: the output compiles, its types take the real shapes and refuse an unknown member", () => {
  expect(diagnosticsOf(join(work, "closed-allof"))).toEqual([]);
  expect(checked.ok).toBe(true);
});
