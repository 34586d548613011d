// Broken specs: every failure names the file, the place (JSON pointer, or line:col for syntax errors)
// and the problem; nothing is written; the CLI exits 1 without a stack trace.
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { run } from "../cli/generate.ts";
import { UsageError } from "../cli/usage-error.ts";
import { generate, SpecError } from "../generator/index.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FIXTURES = join(ROOT, "test/fixtures/specs");
const rel = (name: string) => `test/fixtures/specs/${name}`;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(ROOT, ".tmp-gen-errors-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});
afterEach(() => {
  vi.restoreAllMocks();
});

async function specError(specPath: string, outDir = join(work, "never")): Promise<SpecError> {
  const error = await generate({ specPath, outDir }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SpecError);
  await expect(readdir(outDir)).rejects.toThrow(/ENOENT/); // nothing written
  return error as SpecError;
}

describe("broken specs", () => {
  it("YAML syntax error: file:line:col", async () => {
    const error = await specError(join(FIXTURES, "broken-yaml.yaml"));
    expect(error.message).toMatch(new RegExp(`^${rel("broken-yaml.yaml")}:\\d+:\\d+: YAML syntax error: `));
  });

  it("dangling $ref: the pointer of the place that refers to it", async () => {
    const error = await specError(join(FIXTURES, "dangling-ref.yaml"));
    expect(error.message).toBe(
      `${rel("dangling-ref.yaml")}#/paths/~1a/get/responses/200/content/application~1json/schema/$ref: $ref "#/components/schemas/Missing" points to nothing`,
    );
  });

  it("schema violation: swagger-parser's finding at its pointer", async () => {
    const error = await specError(join(FIXTURES, "invalid-schema.yaml"));
    expect(error.message).toContain(`${rel("invalid-schema.yaml")}#/paths/~1a/get/responses: must be object`);
  });

  it("duplicate operationId, undeclared path parameter, unsupported version, missing file", async () => {
    const spec = (paths: string) => `openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths:\n${paths}`;
    const dup = join(work, "dup.yaml");
    await writeFile(
      dup,
      spec(
        '  /a: { get: { operationId: x, responses: { "200": { description: ok } } } }\n  /b: { get: { operationId: x, responses: { "200": { description: ok } } } }\n',
      ),
    );
    expect((await specError(dup)).message).toContain(
      '#/paths/~1b/get/operationId: operationId "x" is also used at /paths/~1a/get',
    );

    const undeclared = join(work, "undeclared.yaml");
    await writeFile(
      undeclared,
      spec('  /a/{id}: { get: { operationId: x, responses: { "200": { description: ok } } } }\n'),
    );
    expect((await specError(undeclared)).message).toContain(
      "#/paths/~1a~1{id}/get: path parameter {id} of /a/{id} is not declared",
    );

    const swagger = join(work, "swagger.json");
    await writeFile(swagger, JSON.stringify({ swagger: "1.2", info: { title: "t", version: "1" }, paths: {} }));
    expect((await specError(swagger)).message).toContain(
      "#/openapi: Swagger 1.2 is not supported: use Swagger 2.0, OpenAPI 3.0 or 3.1",
    );

    const json = join(work, "broken.json");
    await writeFile(json, '{"openapi": "3.1.0",\n "info": }');
    expect((await specError(json)).message).toMatch(/broken\.json:2:\d+: JSON syntax error/);

    expect((await specError(join(work, "absent.yaml"))).message).toMatch(
      /^\.tmp-gen-errors-\w+\/absent\.yaml: file not found$/,
    );
  });

  it("an x-custody-hmac the runtime cannot sign with is refused", async () => {
    const text = (await readFile(join(FIXTURES, "mini-custody.yaml"), "utf8")).replace(
      "algorithm: HMAC-SHA256",
      "algorithm: HMAC-SHA512",
    );
    const spec = join(work, "hmac512.yaml");
    await writeFile(spec, text);
    expect((await specError(spec)).message).toContain(
      '#/components/securitySchemes/AccessSign/x-custody-hmac/algorithm: unsupported algorithm "HMAC-SHA512"',
    );
  });

  it("leaves an existing output directory exactly as it was", async () => {
    const out = join(work, "kept");
    await generate({ specPath: join(FIXTURES, "allof.yaml"), outDir: out });
    const before = await readFile(join(out, "types.ts"), "utf8");
    await specError(join(FIXTURES, "dangling-ref.yaml"), join(work, "still-never"));
    const error = await generate({ specPath: join(FIXTURES, "dangling-ref.yaml"), outDir: out }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SpecError);
    expect(await readFile(join(out, "types.ts"), "utf8")).toBe(before);
    expect((await readdir(out)).sort()).toEqual([
      "README.md",
      "client.ts",
      "index.ts",
      "operations.ts",
      "schemas.ts",
      "server.ts",
      "types.ts",
    ]);
  });
});

describe("custody generate (CLI)", () => {
  it("exits 1 with the located message and no stack trace", async () => {
    const errors: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void errors.push(args.join(" ")));
    const code = await run([
      "--spec",
      join(FIXTURES, "dangling-ref.yaml"),
      "--out",
      join(work, "cli-never"),
      "--no-rpc",
    ]);
    expect(code).toBe(1);
    const text = errors.join("\n");
    expect(text).toContain("the spec is invalid, nothing was written");
    expect(text).toContain(
      `${rel("dangling-ref.yaml")}#/paths/~1a/get/responses/200/content/application~1json/schema/$ref`,
    );
    expect(text).not.toMatch(/\n\s+at /);
  });

  it("refuses bad flags with a UsageError", async () => {
    await expect(run(["--bogus"])).rejects.toThrow(UsageError);
    await expect(run(["--spec"])).rejects.toThrow(/--spec needs a value/);
    await expect(run(["--rpc-spec", "x.json", "--no-rpc"])).rejects.toThrow(UsageError);
  });

  it("will not replace an output directory holding files it did not write", async () => {
    const out = join(work, "foreign");
    await cp(join(FIXTURES), out, { recursive: true });
    await expect(generate({ specPath: join(FIXTURES, "allof.yaml"), outDir: out })).rejects.toThrow(
      /refusing to replace .*custody did not generate/,
    );
    expect((await readdir(out)).length).toBeGreaterThan(5);
  });
});
