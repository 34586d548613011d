// test/generator-zod-mini.test.ts's comparison of classic zod and zod/mini at large counts of instances:
// this contract and the fixture documents, each generated both ways (the validators as source; npm test
// compares the packages built with tsc at default counts).
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { renderFiles, type ZodFlavour } from "../generator/index.ts";
import type { SpecModel } from "../generator/model/types.ts";
import { ROOT, scratchFolder } from "./support/scratch-folder.ts";
import { type Counts, compare, importModule, MINI_FIXTURES, type Module } from "./support/zod-agreement.ts";

const COUNTS: Counts = { perComponent: 30, perParameters: 60, sample: 120 };
const work = scratchFolder("zod-mini-scale");

/** The document's schemas.ts in one flavour, written under `work()` and imported. */
async function schemasOf(
  specPath: string,
  name: string,
  zod: ZodFlavour,
): Promise<{ model: SpecModel; module: Module }> {
  const dir = join(work(), zod, name);
  const { model, files } = await renderFiles({ specPath, outDir: dir, zod, runtime: "local" });
  for (const f of files) {
    await mkdir(join(dir, f.path, ".."), { recursive: true });
    await writeFile(join(dir, f.path), f.content);
  }
  return { model, module: await importModule(resolve(dir, "schemas.ts")) };
}

const DOCUMENTS: [string, string][] = [
  ["this contract", join(ROOT, "spec/openapi.yaml")],
  ...MINI_FIXTURES.map((n): [string, string] => [n, join(ROOT, "test/fixtures/specs", `${n}.yaml`)]),
];

for (const [i, [name, specPath]] of DOCUMENTS.entries()) {
  it(`${name}: mini and classic agree at ${COUNTS.perComponent} instances per component`, async () => {
    const { model, module: classic } = await schemasOf(specPath, `d${i}`, "classic");
    const { module: mini } = await schemasOf(specPath, `d${i}`, "mini");
    const { agreement, ajv } = compare(model, classic, mini, COUNTS);
    expect(agreement.disagreements).toEqual([]);
    expect(ajv).toEqual([]);
    expect(agreement.compared).toBeGreaterThan(i === 0 ? 20_000 : 100);
  });
}
