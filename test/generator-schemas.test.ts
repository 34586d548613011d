// The zod emitter on small fixture specs: the text it writes (discriminatedUnion, z.lazy, merged
// allOf, nullable, additionalProperties, coercion) and how the generated schemas behave at run time.
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { generate } from "../generator/index.ts";
import { SchemaResolver } from "../generator/model/resolve-schema.ts";

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
  it("oneOf is exclusive: z.xor, unless every member is a component with its own distinct literal", async () => {
    const { schemasText } = await fixture("discriminator");
    // Cat's and Lizard's petType is any string: the members overlap, the mapping validates nothing.
    expect(declaration(schemasText, "PetSchema")).toContain("z.xor([");
    expect(declaration(schemasText, "CreateShapeBodySchema")).toContain("z.xor([");
  });

  it("accepts a value only when exactly one member matches, as JSON Schema's oneOf", async () => {
    const { schemas } = await fixture("discriminator");
    // Cat, Dog and Lizard all match: not one of them.
    expect(schemas.PetSchema.safeParse({ petType: "dog", name: "Rex" }).success).toBe(false);
    // Cat refuses 10 lives, Dog refuses petType cat, Lizard (open) matches: exactly one.
    expect(schemas.PetSchema.safeParse({ petType: "cat", name: "Tom", lives: 10 }).success).toBe(true);
    expect(schemas.PetSchema.safeParse({ petType: "cow" }).success).toBe(false);
    expect(schemas.CreateShapeBodySchema.safeParse({ kind: "square", side: 2 }).success).toBe(true);
    expect(schemas.CreateShapeBodySchema.safeParse({ kind: "square", radius: 2 }).success).toBe(false);
  });

  it("uses z.xor when a member is recursive (z.lazy is not an object)", async () => {
    const { schemasText, schemas } = await fixture("discriminator");
    const item = declaration(schemasText, "ItemSchema");
    expect(item).toContain("z.xor([");
    expect(item).not.toContain("discriminatedUnion");
    const tree = {
      type: "folder",
      items: [
        { type: "file", size: 1 },
        { type: "folder", items: [] },
      ],
    };
    expect(schemas.ItemSchema.parse(tree)).toEqual(tree);
    expect(schemas.ItemSchema.safeParse({ type: "folder", items: [{ type: "file", size: "big" }] }).success).toBe(
      false,
    );
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
    expect(schemasText.indexOf("export const TagSchema")).toBeLessThan(
      schemasText.indexOf("export const CompanySchema"),
    );
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
    expect(thing).toContain('id: z.string().refine(isUuid, "format uuid"),');
    expect(thing).toContain('label: z.string().refine((s) => lengthWithin(s, 1, Infinity), "length"),');
    expect(declaration(schemasText, "MixedSchema")).toMatch(
      /^export const MixedSchema = z\.intersection\(z\.object\(\{[\s\S]*\}\), z\.xor\(\[/,
    );
    expect(declaration(schemasText, "EitherSchema")).toContain("z.union([");
    expect(typesText).toContain("export interface Thing {");
  });

  it("checks formats: uuid, date-time with offset, email, uri", async () => {
    const { schemas } = await fixture("allof");
    const ok = {
      id: "3f1c1e6e-6a4b-4b8e-9c0a-2f1d3c4b5a69",
      label: "x",
      created_at: "2025-01-02T03:04:05+02:00",
      email: "a@b.co",
      homepage: "https://x.test/",
    };
    expect(schemas.ThingSchema.parse(ok)).toEqual(ok);
    expect(schemas.ThingSchema.safeParse({ ...ok, id: "nope" }).success).toBe(false);
    expect(schemas.ThingSchema.safeParse({ ...ok, created_at: "yesterday" }).success).toBe(false);
    expect(schemas.ThingSchema.safeParse({ ...ok, email: "not-an-email" }).success).toBe(false);
    expect(schemas.ThingSchema.safeParse({ ...ok, label: "" }).success).toBe(false);
    expect(schemas.MixedSchema.safeParse({ id: ok.id, a: "x" }).success).toBe(true);
    expect(schemas.MixedSchema.safeParse({ id: ok.id }).success).toBe(false);
    // JSON Schema's integer has no bound: 2^53 + 2 is one (format int64 is an annotation).
    expect(schemas.EitherSchema.safeParse(2 ** 53 + 2).success).toBe(true);
    expect(schemas.EitherSchema.safeParse(1.5).success).toBe(false);
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
    expect(record).toContain('level: z.number().refine(isInteger, "integer").gt(0).lt(10).optional(),');
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
    expect(record).toContain('either: z.union([z.string(), z.number().refine(isInteger, "integer")]),');
    expect(record).toContain("nothing: z.null().optional(),");
    expect(record).toContain('level: z.number().refine(isInteger, "integer").gt(0).lt(10).optional(),');
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
    expect(declaration(schemasText, "CountsSchema")).toBe(
      'export const CountsSchema = z.record(z.string(), z.number().refine(isInteger, "integer"));',
    );
    expect(declaration(schemasText, "MixedSchema")).toContain("}).catchall(z.number());");
    expect(typesText).toContain("export type Counts = { [key: string]: number };");
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
    expect(declaration(schemasText, "ListWalletsQuerySchema")).toContain(
      'limit: z.coerce.number().refine(isInteger, "integer").min(1).max(100).default(10),',
    );
    const query = schemas.ListWalletsQuerySchema;
    expect(query.parse({})).toEqual({ limit: 10 });
    expect(query.parse({ limit: "5", include_archived: "false", ids: "a" })).toEqual({
      limit: 5,
      include_archived: false,
      ids: ["a"],
    });
    expect(query.parse({ ids: ["a", "b"] })).toEqual({ limit: 10, ids: ["a", "b"] });
    expect(query.safeParse({ limit: "500" }).success).toBe(false);
    expect(query.safeParse({ limit: "many" }).success).toBe(false);
  });

  it("split non-exploded arrays, coerce path integers, lower-case header names", async () => {
    const defaults = await fixture("default-only");
    expect(defaults.schemas.GetUsersByIdReposQuerySchema.parse({ tags: "a,b" })).toEqual({ tags: ["a", "b"] });
    expect(defaults.schemas.GetUsersByIdReposParamsSchema.parse({ id: "42" })).toEqual({ id: 42 });
    const mini = await fixture("mini-custody");
    expect(declaration(mini.schemasText, "CreateWalletHeadersSchema")).toContain(
      '"idempotency-key": z.string().refine((s) => lengthWithin(s, 1, 255), "length"),',
    );
    expect(mini.schemas.CreateWalletHeadersSchema.safeParse({ "idempotency-key": "" }).success).toBe(false);
  });

  it("keeps request bodies strict and applies no default to them (an annotation)", async () => {
    const { schemas } = await fixture("mini-custody");
    expect(schemas.CreateWalletBodySchema.parse({ name: "Treasury" })).toEqual({ name: "Treasury" });
    expect(schemas.CreateWalletBodySchema.safeParse({ name: "Treasury", extra: 1 }).success).toBe(false);
    expect(schemas.CreateWalletBodySchema.safeParse({ name: "" }).success).toBe(false);
  });
});

describe("single nodes (zodSchema)", () => {
  const resolver = new SchemaResolver({}, "3.1", new Map());
  const ctx = { document: {}, components: new Map(), resolver, version: "3.1" as const };
  it("patterns: u flag for unicode escapes; patterns JavaScript cannot compile are left out", async () => {
    const { zodSchema } = await import("../generator/emit/zod-schema.ts");
    expect(zodSchema({ type: "string", pattern: "^\\p{L}+$" }, ctx)).toBe(
      'z.string().regex(new RegExp("^\\\\p{L}+$", "u"))',
    );
    expect(zodSchema({ type: "string", pattern: "(?<!x" }, ctx)).toBe("z.string()");
  });

  it("no defaults (annotations); enums and consts as literals", async () => {
    const { zodSchema } = await import("../generator/emit/zod-schema.ts");
    expect(zodSchema({ type: "integer", default: 10 }, ctx)).toBe('z.number().refine(isInteger, "integer")');
    expect(zodSchema({ type: "string", enum: ["a", "b"], default: "c" }, ctx)).toBe('z.enum(["a", "b"])');
    expect(zodSchema({ enum: [1, 2, null] }, ctx)).toBe("z.literal([1, 2, null])");
    expect(zodSchema({ const: "x" }, ctx)).toBe('z.literal("x")');
    expect(zodSchema({ type: "array", items: { type: "string" }, minItems: 1, maxItems: 3 }, ctx)).toBe(
      "z.array(z.string()).min(1).max(3)",
    );
  });
});
