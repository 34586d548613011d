// A document's text is data: each escaper keeps it inside its context, and a document whose every
// piece of text is hostile (test/support/hostile-spec.ts) generates output that imports exactly what
// the same document with plain text imports and carries the text intact (string literals round-trip,
// doc comments and the README read it). That output compiles (tsc --strict) in the one tsc program of
// test/generator-compile.test.ts.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../generator/index.ts";
import { codeJson, commentText, lineCommentText, markdownCode, markdownText } from "../generator/spec-text.ts";
import { HOSTILE, hostile, hostileSpec } from "./support/hostile-spec.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(ROOT, ".tmp-gen-text-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** The statements TypeScript reads in `source`, and whether it reports a syntax error. */
function statements(source: string): { count: number; errors: number } {
  const out = ts.transpileModule(source, {
    reportDiagnostics: true,
    compilerOptions: { target: ts.ScriptTarget.ES2022 },
  });
  const file = ts.createSourceFile("x.ts", source, ts.ScriptTarget.Latest);
  return { count: file.statements.length, errors: out.diagnostics?.length ?? 0 };
}

describe("escapers keep text inside its context", () => {
  const after = "\nexport const after = 1;";
  it("block and line comments end where the generator ends them", () => {
    expect(statements(`/** ${commentText(HOSTILE)} */${after}`)).toEqual({ count: 1, errors: 0 });
    expect(statements(`// ${lineCommentText(HOSTILE)}${after}`)).toEqual({ count: 1, errors: 0 });
    // Unescaped, U+2028 ends a line comment and the rest is code: the check above can fail.
    expect(statements(`// a\u2028export const injected = 2;${after}`).count).toBe(2);
  });

  it("string literals round-trip the text exactly, line separators escaped", () => {
    const literal = codeJson(HOSTILE);
    expect(literal).not.toMatch(/[\u2028\u2029\0]/);
    const file = ts.createSourceFile("x.ts", `export const s = ${literal};`, ts.ScriptTarget.Latest);
    const decl = (file.statements[0] as ts.VariableStatement).declarationList.declarations[0];
    expect((decl.initializer as ts.StringLiteral).text).toBe(HOSTILE);
  });

  it("Markdown text opens no HTML and no span; a code span holds any backticks; neither ends a table cell", () => {
    const text = markdownText(`${HOSTILE} | a_b _c_`);
    expect(text).not.toMatch(/[<\n\u2028\u2029\0]|(?<!\\)[|`]/);
    expect(text).toContain("a_b \\_c\\_");
    const code = markdownCode("a `b` | c");
    expect(code).toBe("``a `b` \\| c``");
    expect(markdownCode("`x`")).toBe("`` `x` ``");
  });
});

it("a document whose every text is hostile generates, imports what plain text imports, and keeps the text", async () => {
  const specs = { hostile: hostileSpec(), plain: hostileSpec((place) => place.replace(/\W/g, "_")) };
  const needs: Record<string, unknown> = {};
  for (const [name, doc] of Object.entries(specs)) {
    await writeFile(join(work, `${name}.json`), JSON.stringify(doc));
    const result = await generate({
      specPath: join(work, `${name}.json`),
      outDir: join(work, name),
      runtime: "vendor",
    });
    expect(result.operations).toBe(1);
    needs[name] = result.needs;
  }
  expect(needs.hostile).toEqual(needs.plain);
  const out = join(work, "hostile");
  const read = (file: string) => readFile(join(out, file), "utf8");
  const [types, client, readme] = await Promise.all([read("types.ts"), read("client.ts"), read("README.md")]);
  // Each doc comment reads the text, line by line (U+2028 and U+2029 are line breaks there).
  const readable = (place: string) =>
    commentText(hostile(place))
      .split("\n")
      .map((line) => line.trim());
  for (const place of ["schema-description", "property-description"])
    for (const line of readable(place)) expect(types).toContain(line);
  for (const place of ["summary", "description", "path-parameter", "query-parameter", "response"])
    for (const line of readable(place)) expect(client).toContain(line);
  expect(readme).toContain(markdownText(hostile("title")));
  expect(readme).toContain(markdownCode(hostile("operationId")));
  for (const file of [types, client, readme]) expect(file).not.toMatch(/[\0\u2028\u2029]/);
  // String literals carry every value exactly: the operation table, the enum, the property name.
  const operations = (await import(pathToFileURL(resolve(out, "operations.ts")).href)) as {
    operationList: { operationId: string; tag: string }[];
  };
  expect(operations.operationList[0]).toMatchObject({ operationId: hostile("operationId"), tag: hostile("tag") });
  const schemas = (await import(pathToFileURL(resolve(out, "schemas.ts")).href)) as Record<
    string,
    { safeParse(v: unknown): { success: boolean } }
  >;
  const thing = { label: "x", kind: hostile("enum-value"), [hostile("key")]: "v", fixed: hostile("const") };
  expect(schemas.ThingSchema.safeParse(thing).success).toBe(true);
  expect(schemas.ThingSchema.safeParse({ ...thing, kind: hostile("enum-value").replace("\u2028", "") }).success).toBe(
    false,
  );
});
