// Names a document may use that custody's own code also exports, and header parameters that differ
// only in case: the output compiles (tsc --strict, one run for both documents) and the barrel's
// runtime names stay the runtime's. The colliding names are every name runtime/ exports, read from
// its sources (test/support/runtime-exports.ts), not a hand list.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../generator/index.ts";
import { toPascalCase } from "../generator/model/names.ts";
import { OPERATION_SUFFIXES } from "../generator/model/operations.ts";
import { typecheck } from "../generator/typecheck.ts";
import { runtimeExports } from "./support/runtime-exports.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(ROOT, ".tmp-gen-names-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const ok = {
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
            ...ok,
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
        responses: ok,
      },
    },
  },
};

describe("names and header case", () => {
  const names = runtimeExports();

  it("reads the runtime's exports from its sources", () => {
    // The error classes, a type, a helper: the list is the runtime's, whatever it holds today.
    for (const name of ["ApiError", "InternalServerError", "NotFoundError", "LogLevel", "callOperation", "isInteger"])
      expect(names).toContain(name);
    expect(names.length).toBeGreaterThan(200);
  });

  it("a document naming every runtime export, and one with headers differing in case, compile; the barrel's runtime names stay the runtime's", async () => {
    const collide = join(work, "collide.json");
    await writeFile(collide, JSON.stringify(collidingDocument(names)));
    const headers = join(work, "headers.json");
    await writeFile(headers, JSON.stringify(HEADER_CASE));
    const outCollide = join(work, "out-collide");
    const outHeaders = join(work, "out-headers");
    const result = await generate({ specPath: collide, outDir: outCollide, runtime: "local" });
    expect(result.schemas).toBe(names.length);
    await generate({ specPath: headers, outDir: outHeaders, runtime: "local" });

    const checked = await typecheck([outCollide, outHeaders], { maxOldSpaceMb: 4096 });
    expect(checked.output).toBe("");

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
