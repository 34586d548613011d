// The generator on bad and awkward specs: syntax errors, dangling refs, circular refs, constructs it
// does not support, names that collide after sanitization, reserved words as schema, property,
// parameter and operation names, a document naming every export of custody's runtime (read from its
// sources by test/support/runtime-exports.ts, not a hand list) and header parameters that differ only in
// case. Each spec either fails with a clear error naming the file and the
// place (exit 1, nothing written, no stack trace) or generates output that compiles (tsc --noEmit)
// and keeps every name distinct. Output goes to .tmp-hard-gen-* inside the project so that zod and
// runtime/ resolve; it is removed afterwards.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { run } from "../cli/generate.ts";
import { generate, SpecError } from "../generator/index.ts";
import { toPascalCase } from "../generator/model/names.ts";
import { OPERATION_SUFFIXES } from "../generator/model/operations.ts";
import { typecheck } from "../generator/typecheck.ts";
import { runtimeExports } from "./support/runtime-exports.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(ROOT, ".tmp-hard-gen-"));
});
afterAll(async () => {
  // KEEP_HARD_GEN=1 keeps the specs and output for a look after a failure.
  if (!process.env.KEEP_HARD_GEN) await rm(work, { recursive: true, force: true });
});

const ok = (schema = "{ type: object, properties: { id: { type: string } } }") =>
  `{ "200": { description: ok, content: { application/json: { schema: ${schema} } } } }`;

/** A minimal OpenAPI 3.1 document around the given paths and components (YAML flow style). */
function spec(paths: string, components = "{}", version = "3.1.0"): string {
  return `openapi: ${version}\ninfo: { title: hardening, version: "1" }\npaths:\n${paths}\ncomponents: ${components}\n`;
}

async function write(name: string, text: string): Promise<string> {
  const path = join(work, "specs", name);
  await mkdir(join(work, "specs"), { recursive: true });
  await writeFile(path, text);
  return path;
}

/** generate() must refuse: a SpecError naming the file and a location, nothing written. */
async function refused(name: string, text: string): Promise<string> {
  const specPath = await write(name, text);
  const outDir = join(work, "never", name);
  const error = await generate({ specPath, outDir }).catch((e: unknown) => e);
  expect(error, `${name} was not refused`).toBeInstanceOf(SpecError);
  const message = (error as SpecError).message;
  // file#/pointer: problem, or file:line:col: problem
  expect(message).toMatch(new RegExp(`specs/${name.replace(".", "\\.")}(#/\\S*|:\\d+:\\d+): \\S`));
  expect(message).not.toMatch(/\n\s+at |\.ts:\d+/);
  await expect(readdir(outDir)).rejects.toThrow(/ENOENT/);
  // The CLI: exit 1, the message, no stack trace.
  const printed: string[] = [];
  const spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void printed.push(args.join(" ")));
  const spyLog = vi.spyOn(console, "log").mockImplementation(() => undefined);
  try {
    expect(await run(["--spec", specPath, "--out", outDir, "--no-rpc"])).toBe(1);
  } finally {
    spy.mockRestore();
    spyLog.mockRestore();
  }
  expect(printed.join("\n")).toContain(message.split("\n")[0]);
  expect(printed.join("\n")).not.toMatch(/\n\s+at /);
  await expect(readdir(outDir)).rejects.toThrow(/ENOENT/);
  return message;
}

const generated: string[] = [];

/** generate() must succeed; the output is type-checked together at the end. Returns the files' text. */
async function accepted(name: string, text: string): Promise<Record<string, string>> {
  const specPath = await write(name, text);
  const outDir = join(work, "out", name.replace(/\W/g, "_"));
  await generate({ specPath, outDir });
  generated.push(outDir);
  const files: Record<string, string> = {};
  for (const f of await readdir(outDir)) files[f] = await readFile(join(outDir, f), "utf8");
  return files;
}

/** Names declared at the top level of a generated file (export const/type/interface/class). */
function exportedNames(text: string): string[] {
  return [...text.matchAll(/^export (?:const|type|interface|class|function) ([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]);
}

function expectDistinct(names: string[]): void {
  const dupes = names.filter((n, i) => names.indexOf(n) !== i);
  expect(dupes).toEqual([]);
}

describe("syntax errors and dangling refs: located errors", () => {
  it("a YAML syntax error names file:line:col", async () => {
    const message = await refused(
      "syntax.yaml",
      "openapi: 3.1.0\ninfo: { title: t, version: '1' }\npaths:\n  /a: { get: { responses: { '200': { description: ok } }\n",
    );
    expect(message).toMatch(/syntax\.yaml:\d+:\d+: YAML syntax error/);
  });

  it("a JSON syntax error names file:line:col", async () => {
    const message = await refused(
      "syntax.json",
      '{"openapi": "3.1.0", "info": {"title": "t", "version": "1"},\n "paths": {"/a": {"get": }}}',
    );
    expect(message).toMatch(/syntax\.json:2:\d+: JSON syntax error/);
  });

  it("dangling refs in a property, a parameter and a request body are each named by their place", async () => {
    const message = await refused(
      "dangling.yaml",
      spec(
        `  /a/{id}:
    post:
      operationId: a
      parameters: [{ $ref: "#/components/parameters/Missing" }]
      requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/NoBody" } } } }
      responses: ${ok('{ $ref: "#/components/schemas/Thing" }')}`,
        '{ schemas: { Thing: { type: object, properties: { other: { $ref: "#/components/schemas/Gone" } } } } }',
      ),
    );
    expect(message).toContain(
      '#/paths/~1a~1{id}/post/parameters/0/$ref: $ref "#/components/parameters/Missing" points to nothing',
    );
    expect(message).toContain(
      '#/paths/~1a~1{id}/post/requestBody/content/application~1json/schema/$ref: $ref "#/components/schemas/NoBody" points to nothing',
    );
    expect(message).toContain(
      '#/components/schemas/Thing/properties/other/$ref: $ref "#/components/schemas/Gone" points to nothing',
    );
  });

  it("a $ref to a file that does not exist names the file and the place", async () => {
    const message = await refused(
      "external.yaml",
      spec(`  /a:\n    get:\n      operationId: a\n      responses: ${ok('{ $ref: "./nowhere.yaml#/Thing" }')}`),
    );
    expect(message).toContain(
      '#/paths/~1a/get/responses/200/content/application~1json/schema/$ref: $ref "./nowhere.yaml#/Thing" names a file that does not exist',
    );
  });

  it("a ref that only points at itself (or at a ref back) is a clear error, not a hang", async () => {
    const message = await refused(
      "self-alias.yaml",
      spec(
        `  /a:\n    get:\n      operationId: a\n      responses: ${ok('{ $ref: "#/components/schemas/A" }')}`,
        `{ schemas: {
          A: { $ref: "#/components/schemas/B" }, B: { $ref: "#/components/schemas/A" },
          Either: { anyOf: [ { $ref: "#/components/schemas/Either" }, { type: string } ] },
          Left: { allOf: [ { $ref: "#/components/schemas/Right" }, { type: object, properties: { l: { type: string } } } ] },
          Right: { oneOf: [ { $ref: "#/components/schemas/Left" }, { type: integer } ] },
          Fine: { type: object, properties: { self: { $ref: "#/components/schemas/Fine" }, list: { type: array, items: { $ref: "#/components/schemas/Fine" } } } }
        } }`,
      ),
    );
    expect(message).toContain(
      "#/components/schemas/A: A, B refer to each other only through $ref, allOf, oneOf or anyOf",
    );
    expect(message).toContain(
      "#/components/schemas/Either: Either refers to itself only through $ref, allOf, oneOf or anyOf",
    );
    expect(message).toContain("#/components/schemas/Left: Left, Right refer to each other");
    // Recursion through a property or an array item is fine.
    expect(message).not.toContain("Fine");
  });
});

describe("circular refs: z.lazy output that compiles and validates", () => {
  it("self, mutual, through arrays, records, allOf and oneOf", async () => {
    const files = await accepted(
      "circular.yaml",
      spec(
        `  /tree:\n    get:\n      operationId: getTree\n      responses: ${ok('{ $ref: "#/components/schemas/Tree" }')}\n  /graph:\n    post:\n      operationId: postGraph\n      requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/Node" } } } }\n      responses: ${ok('{ $ref: "#/components/schemas/Expr" }')}`,
        `{ schemas: {
          Tree: { type: object, required: [name], properties: { name: { type: string }, children: { type: array, items: { $ref: "#/components/schemas/Tree" } } } },
          Node: { type: object, properties: { next: { $ref: "#/components/schemas/Edge" }, byName: { type: object, additionalProperties: { $ref: "#/components/schemas/Node" } } } },
          Edge: { type: object, properties: { to: { $ref: "#/components/schemas/Node" } } },
          Expr: { oneOf: [ { $ref: "#/components/schemas/Literal" }, { $ref: "#/components/schemas/Sum" } ] },
          Literal: { type: object, required: [value], properties: { value: { type: number } } },
          Sum: { allOf: [ { $ref: "#/components/schemas/Base" }, { type: object, required: [terms], properties: { terms: { type: array, items: { $ref: "#/components/schemas/Expr" } } } } ] },
          Base: { type: object, properties: { label: { type: string } } }
        } }`,
      ),
    );
    const schemas = files["schemas.ts"];
    for (const name of ["Tree", "Node", "Edge", "Expr"])
      expect(schemas).toMatch(new RegExp(`export const ${name}Schema[^=]*= z\\.lazy\\(`));
    // The output runs: deep and mutually recursive values validate, wrong ones do not.
    const dir = generated.at(-1) as string;
    const S = (await import(join(dir, "schemas.ts"))) as Record<
      string,
      { safeParse(v: unknown): { success: boolean } }
    >;
    const deep = { name: "r", children: [{ name: "a", children: [{ name: "b", children: [] }] }] };
    expect(S.TreeSchema.safeParse(deep).success).toBe(true);
    expect(S.TreeSchema.safeParse({ name: "r", children: [{ children: [] }] }).success).toBe(false);
    expect(S.NodeSchema.safeParse({ next: { to: { next: { to: {} } } }, byName: { x: { byName: {} } } }).success).toBe(
      true,
    );
    expect(S.ExprSchema.safeParse({ terms: [{ value: 1 }, { terms: [{ value: 2 }] }] }).success).toBe(true);
    expect(S.ExprSchema.safeParse({ terms: [{ value: "one" }] }).success).toBe(false);
  });
});

describe("constructs the generator does not support are refused with their place, or handled", () => {
  const op = (extra: string) => `  /a:\n    post:\n      operationId: a\n${extra}      responses: ${ok()}`;

  it("not, if/then/else, prefixItems, patternProperties: compiled output (validated loosely where zod cannot express them)", async () => {
    const files = await accepted(
      "constructs.yaml",
      spec(
        op(""),
        `{ schemas: {
          NotString: { not: { type: string } },
          Conditional: { type: object, if: { properties: { kind: { const: a } } }, then: { required: [a] }, else: { required: [b] }, properties: { kind: { type: string }, a: { type: string }, b: { type: string } } },
          Pair: { type: array, prefixItems: [ { type: string }, { type: integer } ] },
          Patterned: { type: object, patternProperties: { "^x-": { type: string } } },
          Dependent: { type: object, dependentSchemas: { a: { required: [b] } }, properties: { a: { type: string }, b: { type: string } } },
          Unevaluated: { type: object, unevaluatedProperties: false, properties: { a: { type: string } } }
        } }`,
      ),
    );
    expect(exportedNames(files["schemas.ts"])).toEqual(
      expect.arrayContaining(["NotStringSchema", "ConditionalSchema", "PairSchema", "PatternedSchema"]),
    );
  });

  it("multipart, form and binary bodies, cookie parameters, parameters with content, XML-only responses", async () => {
    const files = await accepted(
      "bodies.yaml",
      spec(
        `  /upload:
    post:
      operationId: upload
      parameters:
        - { name: session, in: cookie, schema: { type: string } }
        - { name: filter, in: query, content: { application/json: { schema: { type: object, properties: { a: { type: string } } } } } }
      requestBody: { content: { multipart/form-data: { schema: { type: object, properties: { file: { type: string, format: binary }, name: { type: string } } } } } }
      responses: { "200": { description: ok, content: { application/xml: { schema: { type: object, properties: { id: { type: string } } } } } } }
  /form:
    post:
      operationId: form
      requestBody: { content: { application/x-www-form-urlencoded: { schema: { type: object, properties: { a: { type: string } } } } } }
      responses: ${ok()}
  /raw:
    put:
      operationId: raw
      requestBody: { content: { application/octet-stream: { schema: { type: string, format: binary } } } }
      responses: { "204": { description: none } }`,
      ),
    );
    expect(files["client.ts"]).toMatch(/upload\(/);
    expect(files["client.ts"]).toMatch(/form\(/);
    expect(files["client.ts"]).toMatch(/raw\(/);
  });

  it("a discriminator mapping to a schema that does not exist is refused with its place", async () => {
    const message = await refused(
      "mapping.yaml",
      spec(
        op(""),
        '{ schemas: { Pet: { oneOf: [ { $ref: "#/components/schemas/Cat" } ], discriminator: { propertyName: kind, mapping: { dog: "#/components/schemas/Dog" } } }, Cat: { type: object, properties: { kind: { type: string } } } } }',
      ),
    );
    expect(message).toContain("#/components/schemas/Pet/discriminator/mapping/dog");
  });
});

describe("names that collide after sanitization stay distinct", () => {
  it("Foo/foo, Foo-Bar/Foo_Bar, FooSchema/Foo, and operationIds equal after camel-casing", async () => {
    const files = await accepted(
      "collisions.yaml",
      spec(
        `  /a:\n    get:\n      operationId: get-user\n      responses: ${ok('{ $ref: "#/components/schemas/Foo" }')}
  /b:\n    get:\n      operationId: get_user\n      responses: ${ok('{ $ref: "#/components/schemas/foo" }')}
  /c:\n    get:\n      operationId: getUser\n      responses: ${ok('{ $ref: "#/components/schemas/Foo-Bar" }')}
  /d:\n    get:\n      operationId: GetUser\n      responses: ${ok('{ $ref: "#/components/schemas/Foo_Bar" }')}
  /e/{Id}:\n    get:\n      operationId: get.user\n      parameters: [ { name: Id, in: path, required: true, schema: { type: string } }, { name: id, in: query, schema: { type: string } }, { name: ID, in: header, schema: { type: string } } ]\n      responses: ${ok('{ $ref: "#/components/schemas/FooSchema" }')}
  /f:\n    get:\n      operationId: "get user"\n      responses: ${ok('{ $ref: "#/components/schemas/GetUserData" }')}`,
        `{ schemas: {
          Foo: { type: object, properties: { a: { type: string } } },
          foo: { type: object, properties: { b: { type: string } } },
          Foo-Bar: { type: object, properties: { c: { type: string } } },
          Foo_Bar: { type: object, properties: { d: { type: string } } },
          FooSchema: { type: object, properties: { e: { type: string } } },
          GetUserData: { type: object, properties: { f: { type: string } }, required: [f] },
          Props: { type: object, properties: { name: { type: string }, Name: { type: integer }, NAME: { type: boolean }, "na-me": { type: string }, "na_me": { type: string } } }
        } }`,
      ),
    );
    for (const file of ["types.ts", "schemas.ts", "operations.ts", "client.ts", "server.ts", "index.ts"])
      expectDistinct(exportedNames(files[file] ?? ""));
    // Six operations, six distinct client methods.
    const methods = [...files["client.ts"].matchAll(/^ {2}(\w+)\(input/gm)].map((m) => m[1]);
    expect(methods).toHaveLength(6);
    expectDistinct(methods);
    // Every schema keeps its own type.
    const types = exportedNames(files["types.ts"]);
    expect(new Set(types).size).toBe(types.length);
  });
});

describe("reserved words as names", () => {
  it("class, default, delete, constructor, __proto__ (and friends) as schema, property, parameter and operation names", async () => {
    const words = [
      "class",
      "default",
      "delete",
      "constructor",
      "__proto__",
      "then",
      "toString",
      "prototype",
      "hasOwnProperty",
      "transport",
      "Object",
      "Promise",
      "z",
      "T",
      "S",
    ];
    const paths = words.map(
      (w, i) => `  /r${i}/{${w === "__proto__" ? "proto" : w}}:
    post:
      operationId: "${w}"
      parameters:
        - { name: "${w === "__proto__" ? "proto" : w}", in: path, required: true, schema: { type: string } }
        - { name: "${w}", in: query, schema: { type: string } }
        - { name: "${w}", in: header, schema: { type: string } }
      requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/${w}" } } } }
      responses: ${ok(`{ $ref: "#/components/schemas/${w}" }`)}`,
    );
    const schemas = words.map(
      (w) => `"${w}": { type: object, properties: { ${words.map((p) => `"${p}": { type: string }`).join(", ")} } }`,
    );
    const files = await accepted("reserved.yaml", spec(paths.join("\n"), `{ schemas: { ${schemas.join(", ")} } }`));
    for (const file of ["types.ts", "schemas.ts", "operations.ts", "client.ts", "server.ts"])
      expectDistinct(exportedNames(files[file] ?? ""));
    const methods = [...files["client.ts"].matchAll(/^ {2}(\w+)\(input/gm)].map((m) => m[1]);
    expect(methods).toHaveLength(words.length);
    expectDistinct(methods);
    // A client method named then() would make the client look like a promise; constructor would break the class.
    for (const forbidden of ["then", "constructor", "transport", "__proto__"]) expect(methods).not.toContain(forbidden);
    // The output behaves: a __proto__ property is a plain key, and validation keeps it.
    const dir = generated.at(-1) as string;
    const S = (await import(join(dir, "schemas.ts"))) as Record<
      string,
      { safeParse(v: unknown): { success: boolean; data?: unknown } }
    >;
    const parsed = S.ClassSchema.safeParse(JSON.parse('{"__proto__": "x", "constructor": "y"}'));
    expect(parsed.success).toBe(true);
    expect(Object.getPrototypeOf(parsed.data)).toBe(Object.prototype);
    // Optional keys named like Object.prototype members are absent unless sent (not the inherited function).
    expect(S.ClassSchema.safeParse({}).success).toBe(true);
    expect(S.ClassSchema.safeParse({ toString: "x", hasOwnProperty: "y" })).toMatchObject({
      success: true,
      data: { toString: "x", hasOwnProperty: "y" },
    });
    expect(S.ClassSchema.safeParse({ toString: 1 }).success).toBe(false);
    // The same for parameters: a query parameter named constructor is optional, as declared.
    const queryName = Object.keys(S).find((k) => /^Constructor\d*QuerySchema$/.test(k)) as string;
    expect(S[queryName].safeParse({}).success).toBe(true);
    expect(S[queryName].safeParse({ constructor: "c" })).toMatchObject({ success: true, data: { constructor: "c" } });
  });
});

const okResponse = {
  "200": {
    description: "ok",
    content: { "application/json": { schema: { type: "object", properties: { id: { type: "string" } } } } },
  },
};

/**
 * A schema named as each runtime export (with a readOnly and a writeOnly property, so its request and
 * response variants are declared too), and an operation for each export that ends in a per-operation
 * suffix (`NotFoundError` → operationId notFound, whose error type is NotFoundError).
 */
function collidingDocument(names: readonly string[]): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  for (const name of names) {
    schemas[name] = {
      type: "object",
      properties: {
        id: { type: "string", readOnly: true },
        secret: { type: "string", writeOnly: true },
        note: { type: "string" },
      },
    };
  }
  const paths: Record<string, unknown> = {};
  const suffixes = Object.values(OPERATION_SUFFIXES);
  for (const name of names) {
    for (const suffix of suffixes) {
      if (!name.endsWith(suffix) || name.length === suffix.length || !/^[A-Z]/.test(name)) continue;
      const operationId = name.slice(0, -suffix.length);
      paths[`/${operationId}/{id}`] = {
        post: {
          operationId,
          parameters: [
            { name: "id", in: "path", required: true, schema: { type: "string" } },
            { name: "q", in: "query", schema: { type: "integer" } },
            { name: "X-H", in: "header", schema: { type: "string" } },
          ],
          requestBody: { content: { "application/json": { schema: { $ref: `#/components/schemas/${names[0]}` } } } },
          responses: {
            ...okResponse,
            "404": { description: "no", content: { "application/json": { schema: { type: "object" } } } },
          },
        },
      };
    }
  }
  return { openapi: "3.1.0", info: { title: "Collisions", version: "1" }, paths, components: { schemas } };
}

/** AWS CodeArtifact's shape: the same header on the path item and the operation, spelled differently. */
const HEADER_CASE = {
  openapi: "3.0.3",
  info: { title: "Header case", version: "1" },
  paths: {
    "/package": {
      parameters: [
        { name: "X-Amz-Content-Sha256", in: "header", schema: { type: "string" } },
        { name: "X-Amz-Date", in: "header", schema: { type: "string" } },
      ],
      post: {
        operationId: "publishPackage",
        parameters: [
          { name: "x-amz-content-sha256", in: "header", required: true, schema: { type: "string" } },
          { name: "x-amz-date", in: "header", schema: { type: "string" } },
          { name: "Version", in: "query", schema: { type: "string" } },
          { name: "version", in: "query", schema: { type: "string" } },
        ],
        responses: okResponse,
      },
    },
  },
};

describe("names a document shares with custody's own code, and header case", () => {
  const names = runtimeExports();

  it("reads the runtime's exports from its sources", () => {
    // The error classes, a type, a helper: the list is the runtime's, whatever it holds today.
    for (const name of ["ApiError", "InternalServerError", "NotFoundError", "LogLevel", "callOperation", "isInteger"])
      expect(names).toContain(name);
    expect(names.length).toBeGreaterThan(200);
  });

  it("a document naming every runtime export, and one with headers differing in case, generate (compiled below); the barrel's runtime names stay the runtime's", async () => {
    const collide = join(work, "collide.json");
    await writeFile(collide, JSON.stringify(collidingDocument(names)));
    const headers = join(work, "headers.json");
    await writeFile(headers, JSON.stringify(HEADER_CASE));
    const outCollide = join(work, "out-collide");
    const outHeaders = join(work, "out-headers");
    const result = await generate({ specPath: collide, outDir: outCollide, runtime: "local" });
    expect(result.schemas).toBe(names.length);
    await generate({ specPath: headers, outDir: outHeaders, runtime: "local" });

    // Type-checked with every other output of this file, at the end.
    generated.push(outCollide, outHeaders);

    // The runtime's ApiError is the barrel's; the document's ApiError is ApiErrorModel, and says so.
    const barrel = await import(pathToFileURL(join(outCollide, "index.ts")).href);
    const errors = await import(pathToFileURL(join(ROOT, "runtime/errors.ts")).href);
    expect(barrel.ApiError).toBe(errors.ApiError);
    expect(barrel.InternalServerError).toBe(errors.InternalServerError);
    expect(typeof barrel.ApiErrorModelSchema?.safeParse).toBe("function");
    const types = await readFile(join(outCollide, "types.ts"), "utf8");
    expect(types).toContain("The document's schema \"ApiError\": custody's own code exports the name ApiError.");
    expect(types).toMatch(/export interface ApiErrorModel \{/);
    expect(types).toMatch(/export interface LogLevelModel \{/);
    // A name custody does not export keeps its name.
    expect(types).toMatch(/export interface TransportRequest \{/);
    // notFound's error type would be NotFoundError: the operation yields with "Operation".
    expect(types).toMatch(/export type NotFoundOperationError = /);

    const headerSchemas = await readFile(join(outHeaders, "schemas.ts"), "utf8");
    const block =
      /export const PublishPackageHeadersSchema = z\.object\(\{([\s\S]*?)\}\);/.exec(headerSchemas)?.[1] ?? "";
    expect(block.match(/"x-amz-content-sha256"/g)).toHaveLength(1);
    // The operation's declaration wins over the path item's: required.
    expect(block).toMatch(/"x-amz-content-sha256": z\.string\(\),/);
    // Query names are case-sensitive: Version and version stay two parameters.
    expect(headerSchemas).toMatch(/Version: z\.string\(\)\.optional\(\),\s*version: z\.string\(\)\.optional\(\),/);
  });

  it("names yield by a fixed suffix, not by the document's other names", async () => {
    expect(toPascalCase("ApiError")).toBe("ApiError");
    const spec = join(work, "two.json");
    const doc = {
      openapi: "3.1.0",
      info: { title: "T", version: "1" },
      paths: {},
      components: {
        schemas: { ApiError: { type: "string" }, ApiError2: { type: "number" }, ApiErrorModel: { type: "boolean" } },
      },
    };
    await writeFile(spec, JSON.stringify(doc));
    const out = join(work, "out-two");
    await generate({ specPath: spec, outDir: out, runtime: "local" });
    const types = await readFile(join(out, "types.ts"), "utf8");
    expect(types).toMatch(/export type ApiError2 = number;/);
    // ApiError yields first to ApiErrorModel; the document's own ApiErrorModel is sorted after it and takes the next free name.
    expect(types).toMatch(/export type ApiErrorModel = string;/);
    expect(types).toMatch(/export type ApiErrorModel2 = boolean;/);
  });
});

describe("everything generated compiles", () => {
  it("tsc --noEmit over every output above", async () => {
    expect(generated.length).toBeGreaterThanOrEqual(5);
    // One tsc run for all of them; the document naming every runtime export needs the larger heap.
    const result = await typecheck(generated, { maxOldSpaceMb: 4096 });
    expect(result.output).toBe("");
    expect(result.ok).toBe(true);
  });
});
