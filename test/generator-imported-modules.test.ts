// What generated output imports is read by a lexer (generator/imported-modules.ts), not TypeScript's
// parser (loading typescript cost `custody generate` about a second): here its answers on chosen
// sources, and its agreement with the parser over every TypeScript file of custody. Thousands of
// files of node_modules/ (viem, ox, zod, ajv, rxjs) are the scale run's
// (test/generator-imported-modules.scale.test.ts).
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importedModules } from "../generator/imported-modules.ts";
import { disagreements, parserImports, typescriptSources } from "./support/parser-imports.ts";
import { ROOT } from "./support/scratch-folder.ts";

/** Source → the specifiers it imports, in order. */
const VECTORS: [source: string, imports: string[]][] = [
  ['import { a } from "a";\nimport type { B } from "b";\nimport * as z from "zod/mini";', ["a", "b", "zod/mini"]],
  ['import d, { e as f } from "d";\nimport "side-effect";\nimport x = require("req");', ["d", "side-effect", "req"]],
  [
    'export { y } from "./y.js";\nexport type { Q } from "q";\nexport * as ns from "ns";\nexport * from "all";',
    ["./y.js", "q", "ns", "all"],
  ],
  ['const m = await import("ws" as string);\ntype T = import("types").X;\nimport("lazy");', ["ws", "types", "lazy"]],
  // `from` as a name, and clauses that have no `from`
  [
    'import { from } from "./from";\nexport type {}\nexport * as E from "./E.js";\nexport const from2 = 1;',
    ["./from", "./E.js"],
  ],
  // a specifier "." is not a property access of the next import
  ['import K from "."\nimport * as r from "r"', [".", "r"]],
  // comments, strings, templates and regular expressions hold no imports, however they read
  ['// import a from "c1"\n/* export * from "c2" */\n/** returned from "getPluginPaymentTokenAsync" */', []],
  ["const s = \"import q from 's1'\"; const t = 'export * from \"s2\"';", []],
  ['const a = `${x} import "t1" ${`n ${ { a: 1 }.a } import("t2")`}`;\nimport after from "after";', ["after"]],
  ['const r = /from "r1"/g;\nconst q = s.replace(/["\'`]/g, "");\nimport v from "v";', ["v"]],
  ['const d = a / b / c;\nconst e = (a < b) ? /"r2"/ : 0;\nimport w from "w";', ["w"]],
  ['function f() { return /import("r3")/.test(x); }\nimport y2 from "y2";', ["y2"]],
  // division after a value: a `/` read as a regular expression would swallow the quotes that follow
  ['const h = (a) / 2; const s = "/"; import k1 from "k1";', ["k1"]],
  ['const h = a[0] / 2; const s = "/"; import k2 from "k2";', ["k2"]],
  ['const h = total / 2; const s = "/"; import k3 from "k3";', ["k3"]],
  // properties named import, and import.meta
  ['x.import("no");\nconst u = import.meta.url;\nexport default 1;', []],
];

describe("importedModules", () => {
  it.each(VECTORS)("%s", (source, imports) => {
    expect(importedModules(source)).toEqual(imports);
    expect(parserImports("vector.ts", source), "the vector itself is right").toEqual(imports);
  });

  it("agrees with TypeScript's parser on every TypeScript file of custody", () => {
    const files = [
      "runtime",
      "generated",
      "generator",
      "cli",
      "conformance",
      "reference",
      "lib",
      "diff",
      "test",
    ].flatMap((dir) => typescriptSources(join(ROOT, dir)));
    expect(files.length).toBeGreaterThan(400);
    expect(disagreements(files)).toEqual([]);
  });
});
