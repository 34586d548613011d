// The generated zod schemas judged against ajv (JSON Schema 2020-12 with ajv-formats) on fixture
// specs that use every keyword the generator expresses: sampled and fast-check-mutated instances,
// zero disagreements; every response example in the fixtures passes its schema; loading repairs.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate, SpecError } from "../generator/index.ts";
import { differential } from "../scripts/differential.ts";
import { DIFFERENTIAL_SPECS, expectAgreement, FIXTURES, ROOT, render } from "./support/differential-specs.ts";

/**
 * Instances per component here; test/generator-differential.scale.test.ts runs the same specs with
 * many more. Each component still gets sampled and mutated instances of every kind the sampler makes.
 */
const PER_COMPONENT = 12;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(ROOT, ".tmp-gen-diff-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("generated zod agrees with ajv; response examples pass", () => {
  for (const [i, spec] of DIFFERENTIAL_SPECS.entries()) {
    it(spec.slice(ROOT.length), async () => {
      await expectAgreement(spec, join(work, `d${i}`), PER_COMPONENT);
    });
  }

  it("the comparison fails when a validator is wrong (a `not` that accepts everything)", async () => {
    const { model, schemas } = await render(join(FIXTURES, "keywords.yaml"), join(work, "broken"));
    const broken = { ...schemas, NotSchema: { safeParse: () => ({ success: true }) } };
    const result = differential(model, broken, { seed: 7, perComponent: PER_COMPONENT });
    expect(result.disagreements.length).toBeGreaterThan(0);
  });
});

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
