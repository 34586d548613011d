// Each entry of the allOf merge table (generator/model/merge-keywords.ts) against ajv: for two members
// using the entry's keywords, the merged node accepts exactly what `allOf: [a, b]` accepts, on values
// either side of each constraint. Every keyword of the table must have a case here.
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { KEYWORD_MERGES, mergeNested } from "../generator/model/merge-keywords.ts";
import type { Schema } from "../generator/model/types.ts";

type Case = { a: Schema; b: Schema; values: unknown[] };
const obj = (properties: Record<string, Schema>, rest: Record<string, unknown> = {}): Schema => ({
  type: ["object"],
  properties,
  ...rest,
});

const CASES: Record<string, Case> = {
  allOf: { a: { allOf: [{ minimum: 2 }] }, b: { allOf: [{ maximum: 5 }] }, values: [1, 3, 6] },
  type: { a: { type: ["number", "string"] }, b: { type: ["integer", "null"] }, values: [1, 1.5, "x", null] },
  minLength: { a: { minLength: 2 }, b: { minLength: 4 }, values: ["a", "abc", "abcd"] },
  minItems: { a: { minItems: 1 }, b: { minItems: 2 }, values: [[], [1], [1, 2]] },
  minProperties: { a: { minProperties: 1 }, b: { minProperties: 2 }, values: [{}, { a: 1 }, { a: 1, b: 2 }] },
  minimum: { a: { minimum: 1 }, b: { minimum: 3 }, values: [0, 2, 3] },
  exclusiveMinimum: { a: { exclusiveMinimum: 1 }, b: { exclusiveMinimum: 3 }, values: [1, 3, 3.5] },
  maxLength: { a: { maxLength: 4 }, b: { maxLength: 2 }, values: ["ab", "abc", "abcde"] },
  maxItems: { a: { maxItems: 3 }, b: { maxItems: 1 }, values: [[1], [1, 2], [1, 2, 3, 4]] },
  maxProperties: { a: { maxProperties: 2 }, b: { maxProperties: 1 }, values: [{ a: 1 }, { a: 1, b: 2 }] },
  maximum: { a: { maximum: 5 }, b: { maximum: 3 }, values: [3, 4, 6] },
  exclusiveMaximum: { a: { exclusiveMaximum: 5 }, b: { exclusiveMaximum: 3 }, values: [2, 3, 4] },
  required: { a: { required: ["x"] }, b: { required: ["y"] }, values: [{ x: 1 }, { y: 1 }, { x: 1, y: 1 }] },
  uniqueItems: {
    a: { uniqueItems: false },
    b: { uniqueItems: true },
    values: [
      [1, 1],
      [1, 2],
    ],
  },
  enum: { a: { enum: ["a", "b", "c"] }, b: { enum: ["b", "c", "d"] }, values: ["a", "b", "d"] },
  const: { a: { const: 1 }, b: { const: 1, type: ["integer"] }, values: [1, 2] },
  dependentRequired: {
    a: { dependentRequired: { x: ["y"] } },
    b: { dependentRequired: { x: ["z"] } },
    values: [{ x: 1, y: 1 }, { x: 1, y: 1, z: 1 }, { y: 1 }],
  },
  properties: {
    a: obj({ x: { type: ["string"] } }),
    b: obj({ x: { minLength: 2 }, y: { type: ["integer"] } }),
    values: [{ x: "ab", y: 1 }, { x: "a" }, { x: 1 }, { y: "n" }],
  },
  additionalProperties: {
    a: obj({ x: {} }, { additionalProperties: false }),
    b: obj({ y: {} }),
    values: [{ x: 1 }, { x: 1, y: 2 }, { z: 1 }],
  },
  patternProperties: {
    a: { patternProperties: { "^a": { type: ["string"] } } },
    b: obj({ ab: { minLength: 3 } }),
    values: [{ ab: "abc" }, { ab: "a" }, { ab: 1 }, { ax: 1 }],
  },
  items: { a: { items: { type: ["integer"] } }, b: { items: { minimum: 0 } }, values: [[1, 2], [-1], [1.5]] },
  prefixItems: {
    a: { prefixItems: [{ type: ["string"] }] },
    b: { items: { type: ["string"] } },
    values: [["a", "b"], ["a", 1], [1]],
  },
  if: {
    a: { if: { type: ["string"] }, then: { minLength: 2 } },
    b: { if: { type: ["number"] }, then: { minimum: 0 }, else: { type: ["string"] } },
    values: ["a", "ab", -1, 1, true],
  },
  then: { a: { minimum: 0 }, b: { if: { maximum: 10 }, then: { multipleOf: 2 } }, values: [4, 5, 11, -2] },
  else: { a: { type: ["integer"] }, b: { if: { minimum: 5 }, else: { const: 1 } }, values: [1, 2, 6] },
  contains: { a: { contains: { const: 1 } }, b: { contains: { const: 2 } }, values: [[1], [2], [1, 2]] },
  minContains: {
    a: { contains: { const: 1 }, minContains: 2 },
    b: { contains: { type: ["integer"] }, minContains: 1 },
    values: [[1], [1, 1], [2]],
  },
  maxContains: {
    a: { contains: { const: 1 }, maxContains: 1 },
    b: { maxItems: 3 },
    values: [[1], [1, 1], [1, 2, 3, 4]],
  },
  oneOf: {
    a: { oneOf: [{ type: ["string"] }, { minLength: 2 }] },
    b: { oneOf: [{ maxLength: 3 }, { const: "abcd" }] },
    values: ["a", "ab", "abcd", 1],
  },
  discriminator: {
    a: { type: ["object"] },
    b: { oneOf: [obj({ k: { const: "a" } }, { required: ["k"] })], discriminator: { propertyName: "k" } },
    values: [{ k: "a" }, { k: "b" }],
  },
  // Keywords outside the table: taken when one member has them, kept apart when both differ.
  pattern: { a: { pattern: "^a" }, b: { pattern: "b$" }, values: ["ab", "a", "b"] },
  multipleOf: { a: { multipleOf: 2 }, b: { multipleOf: 3 }, values: [6, 4, 9] },
};

function ajvAccepts(schema: Schema): (value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  const validate = ajv.compile(typeof schema === "boolean" ? schema : { ...schema });
  return (value) => validate(value) === true;
}

describe("allOf merge table against ajv", () => {
  it("every keyword of the table has a case", () => {
    for (const key of KEYWORD_MERGES.flatMap((entry) => entry.keys)) expect(Object.keys(CASES), key).toContain(key);
  });

  for (const [keyword, { a, b, values }] of Object.entries(CASES)) {
    it(keyword, () => {
      const literal = ajvAccepts({ allOf: [a, b] });
      const merged = ajvAccepts(mergeNested(structuredClone(a), structuredClone(b)));
      for (const value of values) expect(merged(value), `${keyword}: ${JSON.stringify(value)}`).toBe(literal(value));
      // The values sit on both sides of the constraint, so a wrong merge shows.
      expect(new Set(values.map(literal)).size, `${keyword}: values on one side only`).toBe(2);
    });
  }

  it("contradictions merge to false: two consts, types with nothing in common", () => {
    expect(mergeNested({ const: 1 }, { const: 2 })).toBe(false);
    expect(mergeNested({ type: ["string"] }, { type: ["integer"] })).toBe(false);
  });

  it("fails when an entry is wrong (maximum merged as the larger bound)", () => {
    const { a, b, values } = CASES.maximum;
    const literal = ajvAccepts({ allOf: [a, b] });
    const wrong = ajvAccepts({ maximum: 5 });
    expect(values.some((v) => wrong(v) !== literal(v))).toBe(true);
  });
});
