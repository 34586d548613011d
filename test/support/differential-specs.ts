// The generated zod schemas judged against ajv on the fixture specs that use every keyword the generator
// expresses, shared by test/generator-differential.test.ts (a default count of instances per component,
// in npm test) and test/generator-differential.scale.test.ts (a large count, in npm run test:scale).
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { expect } from "vitest";
import { renderFiles } from "../../generator/index.ts";
import type { SpecModel } from "../../generator/model/types.ts";
import { differential } from "../../scripts/differential.ts";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const FIXTURES = join(ROOT, "test/fixtures/specs");

export const DIFFERENTIAL_SPECS = [
  ...["keywords", "keywords-30", "allof", "discriminator", "recursive", "nullable-30", "nullable-31"],
  ...["additional-properties", "closed-composition", "keyword-names", "mini-custody", "names"],
  ...["public-apis-30", "public-apis-31"],
]
  .map((n) => join(FIXTURES, `${n}.yaml`))
  .concat(join(ROOT, "spec/openapi.yaml"));

export type Checker = { safeParse(value: unknown): { success: boolean } };

/** Writes the generated files under `out` and imports its schemas.ts. */
export async function render(
  specPath: string,
  out: string,
): Promise<{ model: SpecModel; schemas: Record<string, Checker> }> {
  const { model, files } = await renderFiles({ specPath, outDir: out });
  await mkdir(out, { recursive: true });
  for (const f of files) await writeFile(join(out, f.path), f.content);
  return { model, schemas: (await import(pathToFileURL(resolve(out, "schemas.ts")).href)) as Record<string, Checker> };
}

/**
 * Zero disagreements with ajv over `perComponent` instances of every component, and every response
 * example whose schema is a component passes it.
 */
export async function expectAgreement(spec: string, out: string, perComponent: number): Promise<void> {
  const { model, schemas } = await render(spec, out);
  const result = differential(model, schemas, { seed: 7, perComponent });
  expect(result.components + result.generic.length).toBe(model.schemas.length);
  expect(result.disagreements).toEqual([]);
  expect(result.instances).toBeGreaterThan(result.components * perComponent);
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
}

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
