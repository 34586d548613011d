// The zod emitter on small fixture specs: the text it writes (discriminatedUnion, z.lazy, merged
// allOf, nullable, additionalProperties, coercion) and how the generated schemas behave at run time.
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { generate } from "../generator/index.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FIXTURES = join(ROOT, "test/fixtures/specs");
let work: string;

type Schemas = Record<string, z.ZodType>;
const outputs = new Map<string, { dir: string; schemasText: string; typesText: string; schemas: Schemas }>();

/** Generates a fixture once (into a temp dir inside the repo, so imports resolve) and loads its schemas. */
async function fixture(name: string) {
  const cached = outputs.get(name);
  if (cached) return cached;
  const dir = join(work, name);
  await generate({ specPath: join(FIXTURES, `${name}.yaml`), outDir: dir });
  const { readFile } = await import("node:fs/promises");
  const entry = {
    dir,
    schemasText: await readFile(join(dir, "schemas.ts"), "utf8"),
    typesText: await readFile(join(dir, "types.ts"), "utf8"),
    schemas: (await import(pathToFileURL(join(dir, "schemas.ts")).href)) as Schemas,
  };
  outputs.set(name, entry);
  return entry;
}

/** The text of one `export const Name = ...;` declaration. */
function declaration(text: string, name: string): string {
  const start = text.indexOf(`export const ${name}`);
  expect(start, `${name} is declared`).toBeGreaterThanOrEqual(0);
  const end = text.indexOf("\n\n", start);
  return text.slice(start, end === -1 ? undefined : end);
}

beforeAll(async () => {
  work = await mkdtemp(join(ROOT, ".tmp-gen-schemas-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("discriminator", () => {
  it("becomes z.discriminatedUnion, extending members whose property is not a literal", async () => {
    const { schemasText } = await fixture("discriminator");
    const pet = declaration(schemasText, "PetSchema");
    expect(pet).toContain('z.discriminatedUnion("petType", [');
    expect(pet).toContain('CatSchema.extend({ petType: z.literal("cat") })'); // from the mapping
    expect(pet).toMatch(/^\s+DogSchema,$/m); // own const: used as it is
    expect(pet).toContain('LizardSchema.extend({ petType: z.literal("Lizard") })'); // implicit mapping: the component name
    expect(declaration(schemasText, "CreateShapeBodySchema")).toContain('z.discriminatedUnion("kind", [');
  });

  it("selects the member by the discriminator at run time", async () => {
    const { schemas } = await fixture("discriminator");
    expect(schemas.PetSchema.parse({ petType: "dog", name: "Rex" })).toEqual({ petType: "dog", name: "Rex", good: true });
    expect(schemas.PetSchema.safeParse({ petType: "cat", name: "Tom", lives: 7 }).success).toBe(true);
    expect(schemas.PetSchema.safeParse({ petType: "cat", name: "Tom", lives: 10 }).success).toBe(false);
    const unknown = schemas.PetSchema.safeParse({ petType: "cow", name: "Daisy" });
    expect(unknown.success).toBe(false);
    expect(JSON.stringify(unknown.error?.issues)).toContain("petType");
    expect(schemas.CreateShapeBodySchema.safeParse({ kind: "square", side: 2 }).success).toBe(true);
    expect(schemas.CreateShapeBodySchema.safeParse({ kind: "square", radius: 2 }).success).toBe(false);
  });

  it("falls back to z.union when a member is recursive (z.lazy is not an object)", async () => {
    const { schemasText, schemas } = await fixture("discriminator");
    const item = declaration(schemasText, "ItemSchema");
    expect(item).toContain("z.union([");
    expect(item).not.toContain("discriminatedUnion");
    const tree = { type: "folder", items: [{ type: "file", size: 1 }, { type: "folder", items: [] }] };
    expect(schemas.ItemSchema.parse(tree)).toEqual(tree);
    expect(schemas.ItemSchema.safeParse({ type: "folder", items: [{ type: "file", size: "big" }] }).success).toBe(false);
  });
});

describe("recursive refs", () => {
  it("emit z.lazy with an explicit type, after the schemas they depend on", async () => {
    const { schemasText } = await fixture("recursive");
    expect(schemasText).toContain("export const TreeNodeSchema: z.ZodType<T.TreeNode> = z.lazy(() => z.object({");
    expect(schemasText).toContain("export const PersonSchema: z.ZodType<T.Person> = z.lazy(");
    expect(schemasText).toContain("export const CompanySchema: z.ZodType<T.Company> = z.lazy(");
    expect(schemasText).toContain('import type * as T from "./types.js";');
    // Tag is not recursive and Company uses it outside a lazy wrapper's reach at load: declared first.
    expect(schemasText.indexOf("export const TagSchema")).toBeLessThan(schemasText.indexOf("export const CompanySchema"));
    expect(declaration(schemasText, "TagSchema")).not.toContain("z.lazy");
  });

  it("validate deep and mutually recursive values", async () => {
    const { schemas } = await fixture("recursive");
    const tree = { value: "a", children: [{ value: "b", children: [{ value: "c" }] }] };
    expect(schemas.TreeNodeSchema.parse(tree)).toEqual(tree);
    expect(schemas.TreeNodeSchema.safeParse({ value: "a", children: [{ value: 1 }] }).success).toBe(false);
    const person = { name: "Ada", employer: { title: "Analytical", staff: [{ name: "Charles" }], tags: "small" } };
    expect(schemas.PersonSchema.parse(person)).toEqual(person);
    expect(schemas.PersonSchema.safeParse({ name: "Ada", employer: { title: "x", tags: "huge" } }).success).toBe(false);
  });
});

describe("allOf, oneOf, anyOf and formats", () => {
  it("merges an allOf of objects into one z.object, and intersects otherwise", async () => {
    const { schemasText, typesText } = await fixture("allof");
    const thing = declaration(schemasText, "ThingSchema");
    expect(thing).toMatch(/^export const ThingSchema = z\.object\(\{/);
    expect(thing).toContain("id: z.uuid(),");
    expect(thing).toContain("label: z.string().min(1),");
    expect(declaration(schemasText, "MixedSchema")).toContain("z.intersection(BaseSchema, z.union([");
    expect(declaration(schemasText, "EitherSchema")).toContain("z.union([");
    expect(typesText).toContain("export type Thing = Base & {");
  });

  it("checks formats: uuid, date-time with offset, email, uri", async () => {
    const { schemas } = await fixture("allof");
    const ok = { id: "3f1c1e6e-6a4b-4b8e-9c0a-2f1d3c4b5a69", label: "x", created_at: "2025-01-02T03:04:05+02:00", email: "a@b.co", homepage: "https://x.test/" };
    expect(schemas.ThingSchema.parse(ok)).toEqual(ok);
    expect(schemas.ThingSchema.safeParse({ ...ok, id: "nope" }).success).toBe(false);
    expect(schemas.ThingSchema.safeParse({ ...ok, created_at: "yesterday" }).success).toBe(false);
    expect(schemas.ThingSchema.safeParse({ ...ok, email: "not-an-email" }).success).toBe(false);
    expect(schemas.ThingSchema.safeParse({ ...ok, label: "" }).success).toBe(false);
    expect(schemas.MixedSchema.safeParse({ id: ok.id, a: "x" }).success).toBe(true);
    expect(schemas.MixedSchema.safeParse({ id: ok.id }).success).toBe(false);
    // int64 is a safe integer: beyond 2^53 JSON has already lost the value, so it is refused.
    expect(schemas.EitherSchema.safeParse(2 ** 53 + 2).success).toBe(false);
    expect(schemas.EitherSchema.safeParse(42).success).toBe(true);
  });

  it("keeps an operation that declares only a default response", async () => {
    const { schemasText } = await fixture("allof");
    expect(declaration(schemasText, "ListThingsResponseSchemas")).toContain("default: MixedSchema,");
  });
});

describe("nullable", () => {
  it("3.0 nullable: true and boolean exclusive bounds", async () => {
    const { schemasText, typesText, schemas } = await fixture("nullable-30");
    const record = declaration(schemasText, "RecordSchema");
    expect(record).toContain("note: z.string().nullable(),");
    expect(record).toContain("ref: InnerSchema.nullable(),");
    expect(record).toContain("level: z.number().int().gt(0).lt(10).optional(),");
    expect(typesText).toContain("note: string | null;");
    expect(typesText).toContain("ref: Inner | null;");
    expect(schemas.RecordSchema.safeParse({ name: "n", note: null, ref: null }).success).toBe(true);
    expect(schemas.RecordSchema.safeParse({ name: "n", note: null, ref: null, level: 10 }).success).toBe(false);
    expect(schemas.RecordSchema.safeParse({ name: null, note: null, ref: null }).success).toBe(false);
  });

  it("3.1 type arrays, type null and exclusive numbers", async () => {
    const { schemasText, typesText, schemas } = await fixture("nullable-31");
    const record = declaration(schemasText, "RecordSchema");
    expect(record).toContain("note: z.string().nullable(),");
    expect(record).toContain("either: z.union([z.string(), z.number().int()]),");
    expect(record).toContain("nothing: z.null().optional(),");
    expect(record).toContain("level: z.number().int().gt(0).lt(10).optional(),");
    expect(typesText).toContain("either: string | number;");
    expect(typesText).toContain("ref?: Inner | null;");
    expect(schemas.RecordSchema.safeParse({ name: "n", note: null, either: 3, ref: null }).success).toBe(true);
    expect(schemas.RecordSchema.safeParse({ name: "n", note: null, either: true }).success).toBe(false);
  });
});

describe("additionalProperties", () => {
  it("false → strict, true → loose, schema → record or catchall", async () => {
    const { schemasText, typesText, schemas } = await fixture("additional-properties");
    expect(declaration(schemasText, "ClosedSchema")).toContain("z.strictObject({");
    expect(declaration(schemasText, "OpenSchema")).toContain("z.looseObject({");
    expect(declaration(schemasText, "CountsSchema")).toBe("export const CountsSchema = z.record(z.string(), z.number().int());");
    expect(declaration(schemasText, "MixedSchema")).toContain("}).catchall(z.number());");
    expect(typesText).toMatch(/export type Counts = \{\n {2}\[key: string\]: number;\n\};/);
    expect(schemas.ClosedSchema.safeParse({ a: "x", b: 1 }).success).toBe(false);
    expect(schemas.OpenSchema.parse({ a: "x", b: 1 })).toEqual({ a: "x", b: 1 });
    expect(schemas.CountsSchema.safeParse({ a: 1, b: 1.5 }).success).toBe(false);
    expect(schemas.MixedSchema.safeParse({ name: "x", extra: 2 }).success).toBe(true);
    expect(schemas.MixedSchema.safeParse({ name: "x", extra: "2" }).success).toBe(false);
  });
});

describe("parameters", () => {
  it("coerce query strings: numbers, booleans, arrays, defaults", async () => {
    const { schemasText, schemas } = await fixture("mini-custody");
    expect(declaration(schemasText, "ListWalletsQuerySchema")).toContain("limit: z.coerce.number().int().min(1).max(100).default(10),");
    const query = schemas.ListWalletsQuerySchema;
    expect(query.parse({})).toEqual({ limit: 10 });
    expect(query.parse({ limit: "5", include_archived: "false", ids: "a" })).toEqual({ limit: 5, include_archived: false, ids: ["a"] });
    expect(query.parse({ ids: ["a", "b"] })).toEqual({ limit: 10, ids: ["a", "b"] });
    expect(query.safeParse({ limit: "500" }).success).toBe(false);
    expect(query.safeParse({ limit: "many" }).success).toBe(false);
  });

  it("split non-exploded arrays, coerce path integers, lower-case header names", async () => {
    const defaults = await fixture("default-only");
    expect(defaults.schemas.GetUsersByIdReposQuerySchema.parse({ tags: "a,b" })).toEqual({ tags: ["a", "b"] });
    expect(defaults.schemas.GetUsersByIdReposParamsSchema.parse({ id: "42" })).toEqual({ id: 42 });
    const mini = await fixture("mini-custody");
    expect(declaration(mini.schemasText, "CreateWalletHeadersSchema")).toContain('"idempotency-key": z.string().min(1).max(255),');
    expect(mini.schemas.CreateWalletHeadersSchema.safeParse({ "idempotency-key": "" }).success).toBe(false);
  });

  it("gives request bodies their defaults and strictness", async () => {
    const { schemas } = await fixture("mini-custody");
    expect(schemas.CreateWalletBodySchema.parse({ name: "Treasury" })).toEqual({ name: "Treasury", wallet_type: "mpc" });
    expect(schemas.CreateWalletBodySchema.safeParse({ name: "Treasury", extra: 1 }).success).toBe(false);
    expect(schemas.CreateWalletBodySchema.safeParse({ name: "" }).success).toBe(false);
  });
});

describe("single nodes (zodSchema)", () => {
  const ctx = { document: {}, components: new Map(), version: "3.1" as const };
  it("patterns: u flag for unicode escapes; patterns JavaScript cannot compile are left out", async () => {
    const { zodSchema } = await import("../generator/emit/zod-schema.ts");
    expect(zodSchema({ type: "string", pattern: "^\\p{L}+$" }, ctx)).toBe('z.string().regex(new RegExp("^\\\\p{L}+$", "u"))');
    expect(zodSchema({ type: "string", pattern: "(?<!x" }, ctx)).toBe("z.string()");
  });

  it("defaults only when they fit the type; enums and consts as literals", async () => {
    const { zodSchema } = await import("../generator/emit/zod-schema.ts");
    expect(zodSchema({ type: "integer", default: "10" }, ctx)).toBe("z.number().int()");
    expect(zodSchema({ type: "integer", default: 10 }, ctx)).toBe("z.number().int().default(10)");
    expect(zodSchema({ type: "string", enum: ["a", "b"], default: "c" }, ctx)).toBe('z.enum(["a", "b"])');
    expect(zodSchema({ enum: [1, 2, null] }, ctx)).toBe("z.literal([1, 2]).nullable()");
    expect(zodSchema({ const: "x" }, ctx)).toBe('z.literal("x")');
    expect(zodSchema({ type: "array", items: { type: "string" }, minItems: 1, maxItems: 3 }, ctx)).toBe("z.array(z.string()).min(1).max(3)");
  });
});
