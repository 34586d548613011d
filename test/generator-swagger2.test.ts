// Swagger 2.0 input: converted to OpenAPI 3.0 (swagger2openapi, loaded only for 2.0 documents), the
// conversion's losses reported one line each, the output compiling (in test/generator-compile.test.ts's
// tsc program); `custody diff` takes 2.0 too; a missing converter is one line that says how to install it.
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { generate } from "../generator/index.ts";
import { SpecError } from "../generator/load/spec-error.ts";
import { loadConverter, SWAGGER2_MISSING } from "../generator/load/swagger2.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PETSTORE = join(ROOT, "test/fixtures/swagger2/petstore-2.0.yaml");
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(ROOT, ".tmp-gen-swagger2-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("Swagger 2.0", () => {
  it("generates every operation and reports each loss on one line with its pointer (it compiles: generator-compile.test.ts)", async () => {
    const out = join(work, "petstore");
    const result = await generate({ specPath: PETSTORE, outDir: out, runtime: "local" });
    expect(result.operations).toBe(6);
    expect(result.warnings).toEqual([
      "test/fixtures/swagger2/petstore-2.0.yaml#/paths/~1pets~1{petId}~1name/put/parameters/2/allowEmptyValue: Swagger 2.0 conversion: allowEmptyValue on a form field has no OpenAPI 3 equivalent in a request body: left out",
    ]);
    const types = await readFile(join(out, "types.ts"), "utf8");
    // body parameter → request body; formData → a multipart body with the file as binary; x-nullable → nullable.
    expect(types).toMatch(/export type AddPetBody = NewPet;/);
    expect(types).toMatch(/tag\?: string \| null;/);
    const schemas = await readFile(join(out, "schemas.ts"), "utf8");
    expect(schemas).toMatch(
      /export const UploadPhotoBodySchema = z\.object\(\{\s*caption: z\.string\(\)\.optional\(\),\s*file: /,
    );
    // collectionFormat csv → comma-separated, multi → repeated keys; the global `limit` parameter's bounds and default.
    expect(schemas).toMatch(/tags: z\.preprocess\(splitCommas, z\.array\(z\.string\(\)\)\)\.optional\(\)/);
    expect(schemas).toMatch(/status: z\.preprocess\(toArray, /);
    expect(schemas).toMatch(
      /limit: z\.coerce\.number\(\)\.refine\(isInteger, "integer"\)\.min\(1\)\.max\(100\)\.default\(20\)/,
    );
    const operations = await readFile(join(out, "operations.ts"), "utf8");
    expect(operations).toContain('path: "/pets/{petId}/photo"');
  });

  it("a 2.0 document refused after conversion names its pointer; an unknown version names what is supported", async () => {
    const doc = parse(await readFile(PETSTORE, "utf8"));
    doc.paths["/pets"].get.responses["200"].schema.items = { type: "intger" };
    const bad = join(work, "bad.yaml");
    await writeFile(bad, stringify(doc));
    const error = await generate({ specPath: bad, outDir: join(work, "bad"), runtime: "local" }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SpecError);
    expect((error as Error).message).toMatch(
      /bad\.yaml#\/paths\/~1pets\/get\/responses\/200\/content\/application~1json\/schema\/items\/type: must be equal to one of the allowed values/,
    );
    const v1 = join(work, "v1.json");
    await writeFile(v1, JSON.stringify({ swaggerVersion: "1.2" }));
    const old = await generate({ specPath: v1, outDir: join(work, "v1"), runtime: "local" }).catch((e: unknown) => e);
    expect((old as Error).message).toContain("is not supported: use Swagger 2.0, OpenAPI 3.0 or 3.1");
  });

  it("without the converter installed: one line saying how to get it", async () => {
    const error = await loadConverter("api.yaml", "swagger2openapi-not-installed").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpecError);
    expect((error as Error).message).toBe(`api.yaml#/swagger: ${SWAGGER2_MISSING}`);
    expect(SWAGGER2_MISSING).not.toContain("\n");
  });

  it("custody diff compares two 2.0 documents", async () => {
    const doc = parse(await readFile(PETSTORE, "utf8"));
    delete doc.paths["/pets/{petId}"].delete;
    const next = join(work, "next.yaml");
    await writeFile(next, stringify(doc));
    const r = spawnSync(process.execPath, ["bin/custody.js", "diff", PETSTORE, next], { cwd: ROOT, encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("breaking api-removed-without-deprecation  DELETE /pets/{petId}");
    const same = spawnSync(process.execPath, ["bin/custody.js", "diff", PETSTORE, PETSTORE], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(same.status).toBe(0);
  });
});
