// A real public spec an npm package ships (Rebilly's API in @redocly/openapi-core: 1 MB, OpenAPI 3.0,
// over 300 operations) generates with no operation dropped and compiles (tsc --noEmit with the
// project's settings). npm test compiles the fixture specs and our spec (test/generator-compile.test.ts).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { parse } from "yaml";
import { generate } from "../generator/index.ts";
import { typecheck } from "../generator/typecheck.ts";
import { countOperations } from "./support/count-operations.ts";
import { REBILLY, scratchFolder } from "./support/scratch-folder.ts";

const work = scratchFolder("gen-compile-scale");

it("a public spec from an npm package (Rebilly, 1 MB, OpenAPI 3.0) compiles with no operation dropped", async () => {
  const out = join(work(), "rebilly");
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
