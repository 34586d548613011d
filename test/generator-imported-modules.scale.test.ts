// generator/imported-modules.ts's lexer against TypeScript's parser over the TypeScript sources that
// packages in node_modules/ ship (viem, ox, zod, ajv, rxjs: about 2,500 files written by others).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { disagreements, typescriptSources } from "./support/parser-imports.ts";
import { ROOT } from "./support/scratch-folder.ts";

it("agrees with TypeScript's parser on the TypeScript sources of packages written by others", () => {
  const packages = ["viem", "ox", "zod", "ajv/lib", "rxjs/src"].map((p) => join(ROOT, "node_modules", p));
  const files = packages.filter(existsSync).flatMap(typescriptSources);
  expect(files.length).toBeGreaterThan(2000);
  expect(disagreements(files)).toEqual([]);
});
