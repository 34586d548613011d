// Output size on deeply referenced documents: linear in the document. Sizes are compared at three
// depths (never wall time): for linear growth the second step adds what the first did. A schema shared
// by two properties at every level, parameters that coerce it (sinao.app's shape, which inlined every
// component at every use and died at 3.4 GB), unions of arrays of unions, and refs into another
// component's property (Azure's applicationGateway: copied at every use before). allOf chains are merged
// into each member (exact, flat validators and types), which grows with chain depth times inherited
// properties: quadratic in the depth, asserted as at most that.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderFiles } from "../generator/index.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(ROOT, ".tmp-gen-bounded-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

type Family = "properties" | "unions" | "subschemas" | "allOf";
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** `depth` components, each referring to the next twice; the root used by a body, a response and two parameters. */
function deepDocument(family: Family, depth: number): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++) {
    const last = i === depth - 1;
    if (family === "properties") {
      schemas[`C${i}`] = {
        type: "object",
        properties: last
          ? { n: { type: "integer" } }
          : { a: ref(`C${i + 1}`), b: ref(`C${i + 1}`), n: { type: "integer" } },
      };
    } else if (family === "subschemas") {
      // Refs into another component's property (APIs.guru's bundling of shared external schemas).
      const next = { $ref: `#/components/schemas/C${i + 1}/properties/inner` };
      schemas[`C${i}`] = {
        type: "object",
        properties: {
          inner: last
            ? { type: "integer" }
            : { type: "object", properties: { a: next, b: next, n: { type: "integer" } } },
        },
      };
    } else if (family === "unions") {
      schemas[`C${i}`] = last
        ? { type: "integer" }
        : { anyOf: [ref(`C${i + 1}`), { type: "array", items: ref(`C${i + 1}`) }, { type: "boolean" }] };
    } else {
      schemas[`C${i}`] = last
        ? { type: "object", properties: { leaf: { type: "string" } } }
        : {
            allOf: [
              ref(`C${i + 1}`),
              ref(`D${i + 1}`),
              { type: "object", properties: { [`c${i}`]: { type: "integer" } } },
            ],
          };
      schemas[`D${i}`] = last
        ? { type: "object", properties: { leafD: { type: "string" } } }
        : { allOf: [ref(`C${i + 1}`), { type: "object", properties: { [`d${i}`]: { type: "integer" } } }] };
    }
  }
  const parameters = [
    { name: "q", in: "query", schema: { type: "array", items: ref("C0") } },
    ...(family === "subschemas"
      ? [{ name: "inner", in: "query", schema: { $ref: "#/components/schemas/C0/properties/inner" } }]
      : []),
    { name: "h", in: "header", schema: ref("C0") },
  ];
  const body = { content: { "application/json": { schema: ref("C0") } } };
  const responses = { "200": { description: "ok", content: { "application/json": { schema: ref("C0") } } } };
  return {
    openapi: "3.0.3",
    info: { title: "Deep", version: "1" },
    paths: { "/x": { post: { operationId: "x", parameters, requestBody: body, responses } } },
    components: { schemas },
  };
}

async function outputSize(family: Family, depth: number): Promise<number> {
  const spec = join(work, `${family}-${depth}.json`);
  await writeFile(spec, JSON.stringify(deepDocument(family, depth)));
  const { files } = await renderFiles({ specPath: spec, outDir: join(work, "out"), runtime: "local" });
  return files.reduce((sum, f) => sum + f.content.length, 0);
}

describe("output grows linearly with the document", () => {
  for (const family of ["properties", "unions", "subschemas"] as const) {
    it(`${family}: the step from depth 20 to 30 adds what the step from 10 to 20 did`, async () => {
      const [s10, s20, s30] = [
        await outputSize(family, 10),
        await outputSize(family, 20),
        await outputSize(family, 30),
      ];
      const first = s20 - s10;
      const second = s30 - s20;
      expect(first).toBeGreaterThan(0);
      // Linear: equal steps (a little slack for longer names: C10 is wider than C9).
      expect(second / first).toBeLessThan(1.15);
    });
  }

  it("allOf chains: merged into each member, at most quadratic in the depth", async () => {
    const [s10, s20, s30] = [
      await outputSize("allOf", 10),
      await outputSize("allOf", 20),
      await outputSize("allOf", 30),
    ];
    // Quadratic steps grow by (30²-20²)/(20²-10²) = 5/3; anything exponential far more.
    expect((s30 - s20) / (s20 - s10)).toBeLessThan(1.8);
  });
});
