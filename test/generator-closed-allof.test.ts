// A document built like two published ones: closed allOf bodies with $ref members (a shipping API) and
// a parameter description naming a function `from "…"` (a design tool). It generates with a vendored
// runtime (the import check reads real imports) and its validators accept the real shapes and refuse an
// unknown member; zod agrees with ajv given unevaluatedProperties: false. That output compiles and its
// types do the same (test/support/closed-allof-shapes.ts) in test/generator-compile.test.ts's tsc program.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { generate, renderFiles } from "../generator/index.ts";
import { closedOver } from "../generator/model/resolve-schema.ts";
import { ajvFor, differential } from "../scripts/differential.ts";
import { ADDRESS } from "./support/closed-allof-shapes.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SPEC = join(ROOT, "test/fixtures/specs/closed-allof.yaml");
type Checker = { safeParse(value: unknown): { success: boolean } };
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(ROOT, ".tmp-gen-closed-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** address_create_request → AddressCreateRequestSchema, as the generator names it. */
function schemaName(component: string): string {
  return `${component.replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase())}Schema`;
}

// Each shape with the outcome JSON Schema 2019's unevaluatedProperties: false gives it.
const CASES: [component: string, value: unknown, valid: boolean][] = [
  ["address_create_request", ADDRESS, true],
  ["address_create_request", { street1: "1 Main St", country: "US" }, true],
  ["address_create_request", { ...ADDRESS, planet: "Mars" }, false],
  ["address_create_request", { street1: "1 Main St" }, false],
  ["address_create_request", { ...ADDRESS, country: "USA" }, false],
  ["address", { ...ADDRESS, id: "adr_1" }, true],
  ["address", { ...ADDRESS, id: "adr_1", planet: "Mars" }, false],
  ["parcel", { length: 10, width: 5, weight: 2 }, true],
  ["parcel", { length: 10, weight: 2, height: 1 }, false],
  ["parcel", { length: 10 }, false],
  ["us_address", { street1: "1 Main St", zip: "12345" }, true],
  ["us_address", { street1: "1 Main St", zip: "1234X" }, false],
  // Only some members closed: the literal reading, under which parcel_weight refuses `note`.
  ["some_closed", { weight: 1 }, true],
  ["some_closed", { weight: 1, note: "fragile" }, false],
];

it("generates with a vendored runtime, and validators read closed allOfs as meant", async () => {
  const out = join(work, "vendor");
  const result = await generate({ specPath: SPEC, outDir: out, runtime: "vendor" });
  expect(Object.keys(result.needs?.dependencies ?? {})).not.toContain("getPluginPaymentTokenAsync");
  expect(await readFile(join(out, "types.ts"), "utf8")).toContain('returned from "getPluginPaymentTokenAsync"');
  const schemas = (await import(pathToFileURL(resolve(out, "schemas.ts")).href)) as Record<string, Checker>;
  for (const [name, value, valid] of CASES)
    expect(schemas[schemaName(name)].safeParse(value).success, `${name} ${JSON.stringify(value)}`).toBe(valid);
});

it("zod agrees with ajv (unevaluatedProperties: false for the composite) on sampled and mutated instances", async () => {
  const out = join(work, "local");
  const { model } = await renderFiles({ specPath: SPEC, outDir: out });
  await generate({ specPath: SPEC, outDir: out });
  const schemas = (await import(pathToFileURL(resolve(out, "schemas.ts")).href)) as Record<string, Checker>;
  const result = differential(model, schemas, { seed: 11, perComponent: 60 });
  expect(result.components).toBe(model.schemas.length);
  expect(result.disagreements).toEqual([]);
  // ajv (given unevaluatedProperties: false) and the generator's zod on the real shapes.
  const ajv = ajvFor(model.document, model.version);
  for (const [name, value, valid] of CASES) {
    expect(ajv(`#/components/schemas/${name}`)(value), `ajv: ${name} ${JSON.stringify(value)}`).toBe(valid);
    expect(schemas[schemaName(name)].safeParse(value).success, `zod: ${name} ${JSON.stringify(value)}`).toBe(valid);
  }
  // The literal reading fails the same comparison: a closed composite refusing its members' properties.
  const literal = {
    ...schemas,
    AddressCreateRequestSchema: {
      safeParse: (v: unknown) => ({ success: v !== null && typeof v === "object" && Object.keys(v).length === 0 }),
    },
  };
  expect(differential(model, literal, { seed: 11, perComponent: 60 }).disagreements.length).toBeGreaterThan(0);
});

it("closedOver: own or every member closed, properties declared, no other way to admit keys", () => {
  const props = { properties: { a: { type: "string" } } };
  expect(closedOver({ additionalProperties: false }, [{ ...props, additionalProperties: false }])).toBe(true);
  expect(
    closedOver({}, [
      { ...props, additionalProperties: false },
      { additionalProperties: false, properties: {} },
    ]),
  ).toBe(true);
  expect(closedOver({}, [{ ...props, additionalProperties: false }, props])).toBe(false);
  expect(closedOver({ additionalProperties: false }, [{ ...props, patternProperties: { "^x": true } }])).toBe(false);
  expect(closedOver({ additionalProperties: false }, [props, undefined])).toBe(false);
  expect(closedOver({ additionalProperties: false }, [{ type: "object" }])).toBe(false);
});
