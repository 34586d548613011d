// The generated zod schemas judged against ajv (JSON Schema 2020-12 with ajv-formats) on fixture
// specs that use every keyword the generator expresses: sampled and fast-check-mutated instances,
// zero disagreements; every response example in the fixtures passes its schema; loading repairs.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate, renderFiles, SpecError } from "../generator/index.ts";
import type { SpecModel } from "../generator/model/types.ts";
import { differential } from "../scripts/differential.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FIXTURES = join(ROOT, "test/fixtures/specs");
const SPECS = [
  "keywords",
  "keywords-30",
  "allof",
  "discriminator",
  "recursive",
  "nullable-30",
  "nullable-31",
  "additional-properties",
  "closed-composition",
  "keyword-names",
  "mini-custody",
  "names",
  "public-apis-30",
  "public-apis-31",
].map((n) => join(FIXTURES, `${n}.yaml`));
SPECS.push(join(ROOT, "spec/openapi.yaml"));
let work: string;

type Checker = { safeParse(value: unknown): { success: boolean } };

async function render(specPath: string, name: string): Promise<{ model: SpecModel; schemas: Record<string, Checker> }> {
  const out = join(work, name);
  const { model, files } = await renderFiles({ specPath, outDir: out });
  await mkdir(out, { recursive: true });
  for (const f of files) await writeFile(join(out, f.path), f.content);
  return { model, schemas: (await import(pathToFileURL(resolve(out, "schemas.ts")).href)) as Record<string, Checker> };
}

beforeAll(async () => {
  work = await mkdtemp(join(ROOT, ".tmp-gen-diff-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("generated zod agrees with ajv; response examples pass", () => {
  for (const [i, spec] of SPECS.entries()) {
    it(spec.slice(ROOT.length), async () => {
      const { model, schemas } = await render(spec, `d${i}`);
      const result = differential(model, schemas, { seed: 7, perComponent: 40 });
      expect(result.components + result.generic.length).toBe(model.schemas.length);
      expect(result.disagreements).toEqual([]);
      expect(result.instances).toBeGreaterThan(result.components * 40);
      let examples = 0;
      for (const example of responseExamples(model)) {
        const named = model.resolver.component(example.ref);
        if (named === undefined) continue;
        examples++;
        expect(
          schemas[named.schemaName].safeParse(example.value).success,
          `${example.where} fits ${named.originalName}`,
        ).toBe(true);
      }
      if (spec.includes("keywords")) expect(examples).toBeGreaterThan(0);
    });
  }

  it("the comparison fails when a validator is wrong (a `not` that accepts everything)", async () => {
    const { model, schemas } = await render(join(FIXTURES, "keywords.yaml"), "broken");
    const broken = { ...schemas, NotSchema: { safeParse: () => ({ success: true }) } };
    expect(differential(model, broken, { seed: 7, perComponent: 40 }).disagreements.length).toBeGreaterThan(0);
  });
});

/** Media-type `example` and `examples.*.value` of every response whose schema is a component ref. */
function responseExamples(model: SpecModel): { ref: string; value: unknown; where: string }[] {
  const out: { ref: string; value: unknown; where: string }[] = [];
  const paths = (model.document.paths ?? {}) as Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, Record<string, unknown>> }> }>
  >;
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(item)) {
      for (const [status, response] of Object.entries(op?.responses ?? {})) {
        for (const media of Object.values(response?.content ?? {})) {
          const ref = (media.schema as { $ref?: unknown } | undefined)?.$ref;
          if (typeof ref !== "string") continue;
          const where = `${method} ${path} ${status}`;
          if (Object.hasOwn(media, "example")) out.push({ ref, value: media.example, where });
          for (const [name, ex] of Object.entries((media.examples ?? {}) as Record<string, { value?: unknown }>)) {
            if (ex && Object.hasOwn(ex, "value")) out.push({ ref, value: ex.value, where: `${where} (${name})` });
          }
        }
      }
    }
  }
  return out;
}

describe("loading", () => {
  const doc = (schema: string, version = "3.1.0") =>
    `openapi: ${version}\ninfo: { title: T, version: "1" }\npaths: {}\ncomponents:\n  schemas:\n    A: ${schema}\n`;
  const write = async (name: string, text: string) => {
    const path = join(work, name);
    await writeFile(path, text);
    return path;
  };

  it("a byte-order mark before JSON or YAML is accepted", async () => {
    const json = await write(
      "bom.json",
      `\uFEFF${JSON.stringify({ openapi: "3.1.0", info: { title: "T", version: "1" }, paths: {} })}`,
    );
    const yaml = await write("bom.yaml", `\uFEFF${doc("{ type: string }")}`);
    await expect(generate({ specPath: json, outDir: join(work, "bom-json") })).resolves.toMatchObject({
      operations: 0,
    });
    await expect(generate({ specPath: yaml, outDir: join(work, "bom-yaml") })).resolves.toMatchObject({ schemas: 1 });
  });

  it("an unknown or malformed type is an error with its pointer", async () => {
    for (const type of ["integr", "42", "[string, 7]"]) {
      const spec = await write(
        `type-${type.length}.yaml`,
        doc(`{ type: object, properties: { n: { type: ${type} } } }`),
      );
      const error = await generate({ specPath: spec, outDir: join(work, "never") }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SpecError);
      expect((error as SpecError).message).toContain("#/components/schemas/A/properties/n/type");
    }
  });

  it("--lenient repairs type 'null' in 3.0 and schema: null, one warning each; strict refuses them", async () => {
    const text = `openapi: 3.0.3\ninfo: { title: T, version: "1" }\npaths:\n  /a:\n    get:\n      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n              schema: null\ncomponents:\n  schemas:\n    A: { anyOf: [{ type: string }, { type: "null" }] }\n`;
    const spec = await write("lenient.yaml", text);
    await expect(generate({ specPath: spec, outDir: join(work, "never") })).rejects.toBeInstanceOf(SpecError);
    const result = await generate({ specPath: spec, outDir: join(work, "lenient"), lenient: true });
    expect(result.warnings).toHaveLength(2);
    expect(result.warnings[0]).toMatch(
      /lenient\.yaml#\/paths\/~1a\/get\/responses\/200\/content\/application~1json\/schema: schema: null/,
    );
    expect(result.warnings[1]).toMatch(/#\/components\/schemas\/A\/anyOf\/1\/type: type 'null' is not OpenAPI 3\.0/);
  });

  it("keywords the validators cannot express are warnings naming their pointer", async () => {
    const spec = await write("unsupported.yaml", doc("{ type: object, unevaluatedProperties: false }"));
    const result = await generate({ specPath: spec, outDir: join(work, "unsupported") });
    expect(result.warnings).toEqual([
      expect.stringMatching(
        /unsupported\.yaml#\/components\/schemas\/A\/unevaluatedProperties: unevaluatedProperties is not expressed/,
      ),
    ]);
  });
});
