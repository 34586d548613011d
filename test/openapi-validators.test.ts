// The OpenAPI schemas' validators compiled ahead of time (generator/load/openapi-validators/, made by
// scripts/openapi-validators.ts) are what the script makes from the installed ajv and schemas, and judge
// documents as ajv compiling the schema does: the same verdict and the same errors.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { ValidateFunction } from "ajv";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { packageRoot } from "../lib/package-root.ts";
import { type OpenApiVersion, openapiSchema, staleValidators, validatorPath } from "../scripts/openapi-validators.ts";

const require = createRequire(import.meta.url);
const ROOT = packageRoot(import.meta.url);
const yamlFile = (path: string) => parse(readFileSync(join(ROOT, path), "utf8"));

const info = { title: "t", version: "1" };
/** Documents of each version: valid ones, and ones that break the schema in different places. */
const DOCUMENTS: Record<OpenApiVersion, unknown[]> = {
  "3.0": [
    yamlFile("test/fixtures/specs/public-apis-30.yaml"),
    { openapi: "3.0.3", info, paths: {} },
    { openapi: "3.0.3", paths: {} },
    { openapi: "3.0.3", info, paths: { "/a": { get: { responses: { 200: { content: "x" } } } } } },
    { openapi: "3.0.3", info, paths: {}, components: { schemas: { A: { type: "object", nullable: "yes" } } } },
  ],
  "3.1": [
    yamlFile("spec/openapi.yaml"),
    { openapi: "3.1.0", info, webhooks: {} },
    { openapi: "3.1.0", info },
    { openapi: "3.1.0", info, paths: { "/a": { get: { responses: { 200: { description: 1 } } } } } },
    { openapi: "3.1.0", info, paths: {}, servers: [{ description: "no url" }] },
  ],
};

describe("the OpenAPI validators compiled ahead of time", () => {
  it("are what scripts/openapi-validators.ts makes from the installed ajv and schemas", () => {
    expect(staleValidators()).toEqual([]);
  });

  for (const version of ["3.0", "3.1"] as const) {
    it(`${version}: give the verdict and the errors of ajv compiling the schema`, () => {
      const loaded = require(validatorPath(version)) as ValidateFunction;
      const { schema, ajv } = openapiSchema(version);
      const compiled = ajv.compile(schema);
      const verdicts = DOCUMENTS[version].map((doc) => {
        const valid = loaded(doc);
        expect(valid).toBe(compiled(doc));
        expect(loaded.errors ?? null).toEqual(compiled.errors ?? null);
        return valid;
      });
      expect(verdicts).toEqual([true, true, false, false, false]);
    });
  }
});
