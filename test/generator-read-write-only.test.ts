// readOnly/writeOnly (generator/model/directions.ts): request bodies use a component's Writable variant
// (no readOnly property), responses and webhook events its Readable one (no writeOnly property), $refs
// inside a variant follow the variants, cycles terminate, and specs without the keywords get no variant.
// That the output compiles, hidden properties are type errors and every type (variants too) is z.infer
// of its schema: test/generator-compile.test.ts's tsc program, with test/support/read-write-only-probe.ts.
// A public spec using both (Rebilly's 1 MB document): test/generator-read-write-only.scale.test.ts.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { generate, renderFiles } from "../generator/index.ts";
import type { SpecModel } from "../generator/model/types.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SPEC = join(ROOT, "test/fixtures/specs/read-write-only.yaml");
let work: string;
let out: string;
let model: SpecModel;

beforeAll(async () => {
  work = await mkdtemp(join(ROOT, ".tmp-gen-rwonly-"));
  out = join(work, "out");
  model = (await renderFiles({ specPath: SPEC, outDir: out })).model;
  await generate({ specPath: SPEC, outDir: out });
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

it("gives a variant only to components whose closure hides a property, under names that never move the others", () => {
  const variants = Object.fromEntries(
    model.schemas.map((s) => [
      s.typeName,
      s.variants && { request: s.variants.request?.typeName, response: s.variants.response?.typeName },
    ]),
  );
  expect(variants).toEqual({
    Pet: { request: "PetWritable", response: "PetReadable" },
    Owner: { request: "OwnerWritable", response: "OwnerReadable" },
    Category: { request: "CategoryWritable", response: "CategoryReadable" },
    Tag: undefined,
  });
  expect(model.webhooks.map((h) => [h.typeName, h.schemaName])).toEqual([["PetReadable", "PetReadableSchema"]]);
});

it("the request schema accepts a body without id; the response schema requires id and drops password", async () => {
  type Parser = { safeParse(v: unknown): { success: boolean; data?: unknown } };
  const S = (await import(pathToFileURL(join(out, "schemas.ts")).href)) as Record<
    string,
    Parser & Record<number, Parser>
  >;
  expect(S.CreatePetBodySchema.safeParse({ name: "Rex", password: "s3cret" })).toMatchObject({
    success: true,
    data: { name: "Rex", password: "s3cret" },
  });
  // id is not asked for in a request, and one sent anyway is not passed on.
  expect(S.CreatePetBodySchema.safeParse({ id: "p1", name: "Rex" })).toEqual({ success: true, data: { name: "Rex" } });
  const answer = S.CreatePetResponseSchemas[201];
  expect(answer.safeParse({ id: "p1", name: "Rex" }).success).toBe(true);
  expect(answer.safeParse({ name: "Rex" }).success).toBe(false);
  expect(answer.safeParse({ id: "p1", name: "Rex", password: "leaked" })).toEqual({
    success: true,
    data: { id: "p1", name: "Rex" },
  });
  // Nested through the cycle and inside an inline body.
  expect(
    S.CreateCategoryBodySchema.safeParse({ name: "dogs", parent: { name: "animals", pets: [{ name: "Rex" }] } })
      .success,
  ).toBe(true);
  expect(
    S.CreateCategoryResponseSchemas[201].safeParse({
      name: "dogs",
      parent: { name: "animals", pets: [{ name: "Rex" }] },
    }).success,
  ).toBe(false);
  expect(S.PutOwnerBodySchema.safeParse({ owner: { name: "Ann", favourite: { name: "Rex" } } }).success).toBe(true);
  expect(
    S.PutOwnerResponseSchemas[200].safeParse({ owner: { name: "Ann", favourite: { id: "p1", name: "Rex" } } }).success,
  ).toBe(false);
  // The base schema is unchanged: id required.
  expect(S.PetSchema.safeParse({ name: "Rex" }).success).toBe(false);
});

it("a mutual cycle reaching a hidden property gives every member a variant, whatever the order", async () => {
  const spec = join(work, "cycle.yaml");
  const schemas = {
    A: { type: "object", properties: { b: { $ref: "#/components/schemas/B" } } },
    B: { type: "object", properties: { a: { $ref: "#/components/schemas/A" }, c: { $ref: "#/components/schemas/C" } } },
    C: { type: "object", properties: { secret: { type: "string", writeOnly: true }, note: { type: "string" } } },
    D: { type: "object", properties: { self: { $ref: "#/components/schemas/D" } } },
    // Takes the name C's variant would have had: the variant gets the next one.
    CReadable: { type: "object", properties: { note: { type: "string" } } },
  };
  const paths = {
    "/a": {
      get: {
        operationId: "getA",
        responses: {
          "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/A" } } } },
        },
      },
    },
  };
  await writeFile(
    spec,
    JSON.stringify({ openapi: "3.1.0", info: { title: "Cycle", version: "1" }, paths, components: { schemas } }),
  );
  const { model: cyclic } = await renderFiles({ specPath: spec, outDir: join(work, "cycle") });
  const variants = Object.fromEntries(cyclic.schemas.map((s) => [s.typeName, Object.keys(s.variants ?? {})]));
  expect(variants).toEqual({ A: ["response"], B: ["response"], C: ["response"], CReadable: [], D: [] });
  expect(cyclic.schemasByRef.get("#/components/schemas/C")?.variants?.response?.typeName).toBe("CReadable2");
});

it("OpenAPI 3.0: readOnly beside allOf [$ref], nullable or not, hides the property", async () => {
  const spec = join(work, "thirty.json");
  const person = { $ref: "#/components/schemas/Person" };
  const schemas = {
    Person: { type: "object", properties: { name: { type: "string" } } },
    Account: {
      type: "object",
      required: ["owner"],
      properties: {
        owner: { allOf: [person], readOnly: true },
        manager: { allOf: [person], nullable: true, readOnly: true },
        note: { type: "string" },
      },
    },
  };
  const content = { "application/json": { schema: { $ref: "#/components/schemas/Account" } } };
  const paths = {
    "/accounts": {
      post: {
        operationId: "createAccount",
        requestBody: { content },
        responses: { "201": { description: "ok", content } },
      },
    },
  };
  await writeFile(
    spec,
    JSON.stringify({ openapi: "3.0.3", info: { title: "Thirty", version: "1" }, paths, components: { schemas } }),
  );
  const { files } = await renderFiles({ specPath: spec, outDir: join(work, "thirty") });
  const types = files.find((f) => f.path === "types.ts")?.content ?? "";
  expect(types).toContain("export interface AccountWritable {\n  note?: string;\n}");
  expect(types).toContain("export type CreateAccountBody = AccountWritable;");
  expect(types).toMatch(/export interface Account \{\n {2}owner: Person;\n {2}manager\?: Person \| null;/);
});

it("a spec without readOnly/writeOnly gets no variant (our spec)", async () => {
  const { model: ours } = await renderFiles({ specPath: join(ROOT, "spec/openapi.yaml"), outDir: join(work, "ours") });
  expect(ours.schemas.filter((s) => s.variants !== undefined)).toEqual([]);
});

it("the generated README says which type goes where; a spec without the keywords gets no such section", async () => {
  const readme = await readFile(join(out, "README.md"), "utf8");
  expect(readme).toContain("## Request and response types (readOnly, writeOnly)");
  expect(readme).toContain("| `Pet` | `PetWritable` | `PetReadable` |");
  expect(readme).not.toContain("`Tag` |");
  expect(await readFile(join(ROOT, "generated", "README.md"), "utf8")).not.toContain("readOnly, writeOnly");
});
