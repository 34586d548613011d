// --lenient's repairs of what published documents get wrong that openapi-typescript generates from
// anyway: one small document per repair, refused in strict mode with file#pointer, generated with
// --lenient with exactly one warning line naming file, pointer and what was done. A document refused
// in both modes is refused with its pointer. (type 'null' in 3.0, schema: null and `Bearer` are in
// generator-differential.test.ts.)
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate, SpecError } from "../generator/index.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(ROOT, ".tmp-gen-lenient-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const ok = { "200": { description: "ok", content: { "application/json": { schema: { type: "string" } } } } };

function documentWith(
  parameters: unknown[],
  extra: Record<string, unknown> = {},
  components: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    openapi: "3.0.3",
    info: { title: "T", version: "1" },
    paths: { "/a": { get: { operationId: "getA", parameters, responses: ok } } },
    components,
    ...extra,
  };
}

const limit = { name: "limit", in: "query", schema: { type: "integer" } };

const REPAIRS: {
  name: string;
  document: Record<string, unknown>;
  warning: RegExp;
  check?: (schemas: string) => void;
}[] = [
  {
    name: "an unknown top-level member (Google Cloud Build's 'source')",
    document: documentWith([], { source: { url: {} } }),
    warning: /^top-level\.json#\/source: 'source' is not a member the OpenAPI schema allows here: left out$/,
  },
  {
    name: "a member an object does not have (openSUSE OBS's 'example' inside an xml object)",
    document: documentWith(
      [],
      {},
      {
        schemas: {
          A: { type: "object", properties: { ns: { type: "string", xml: { attribute: true, example: "x" } } } },
        },
      },
    ),
    warning:
      /^xml\.json#\/components\/schemas\/A\/properties\/ns\/xml\/example: 'example' is not a member the OpenAPI schema allows here: left out$/,
  },
  {
    name: "a JSON Schema keyword a 3.0 schema does not list ('const'): kept with its meaning",
    document: documentWith([], {}, { schemas: { A: { type: "string", const: "on" } } }),
    warning:
      /^const\.json#\/components\/schemas\/A\/const: 'const' is JSON Schema, not a member OpenAPI's schema allows here: kept with its JSON Schema meaning$/,
    check: (schemas) => expect(schemas).toMatch(/export const ASchema = z\.literal\("on"\);/),
  },
  {
    name: "a type that names no JSON type (Codat accounting's schema written where a type name belongs)",
    document: documentWith(
      [],
      {},
      { schemas: { A: { type: "object", properties: { kind: { type: { type: "string", enum: ["a"] } } } } } },
    ),
    warning:
      /^type\.json#\/components\/schemas\/A\/properties\/kind\/type: type \{"type":"string","enum":\["a"\]\} names no JSON type: left out \(any type\)$/,
    check: (schemas) => expect(schemas).toMatch(/kind: z\.unknown\(\)\.optional\(\)/),
  },
  {
    name: "Swagger 2.0's type 'file' left in a 3.0 document",
    document: documentWith([], {}, { schemas: { Upload: { type: "object", properties: { data: { type: "file" } } } } }),
    warning:
      /^file\.json#\/components\/schemas\/Upload\/properties\/data\/type: type 'file' \(Swagger 2\.0\) is not a JSON type: read as type string, format binary$/,
    check: (schemas) => expect(schemas).toMatch(/data: z\.string\(\)\.optional\(\)/),
  },
  {
    name: "a query string in a path key (staging-ecotaco.com, icons8)",
    document: {
      openapi: "3.0.3",
      info: { title: "T", version: "1" },
      paths: {
        "/rides?page={page}": {
          get: {
            operationId: "listRides",
            parameters: [{ name: "page", in: "query", required: true, schema: { type: "integer" } }],
            responses: ok,
          },
        },
      },
    },
    warning:
      /^query\.json#\/paths\/~1rides\?page=\{page\}: a query string is not part of a path: read as \/rides; page read as query parameters$/,
    check: (schemas) =>
      expect(schemas).toMatch(/export const ListRidesQuerySchema = z\.object\(\{\s*page: z\.coerce\.number\(\)/),
  },
  {
    name: "Swagger 2.0 schema keywords on a parameter without a schema",
    document: documentWith([{ name: "limit", in: "query", type: "integer", minimum: 1 }]),
    warning:
      /^keywords\.json#\/paths\/~1a\/get\/parameters\/0: 'type', 'minimum' on the parameter \(Swagger 2\.0's form\): moved into its schema$/,
    check: (schemas) =>
      expect(schemas).toMatch(/limit: z\.coerce\.number\(\)\.refine\(isInteger, "integer"\)\.min\(1\)\.optional\(\)/),
  },
  {
    name: "a schema keyword beside a parameter's schema",
    document: documentWith([{ name: "limit", in: "query", type: "string", schema: { type: "integer" } }]),
    warning:
      /^beside\.json#\/paths\/~1a\/get\/parameters\/0: 'type' beside the parameter's schema \(Swagger 2\.0's form\): left out, the schema says what the value is$/,
    check: (schemas) => expect(schemas).toMatch(/limit: z\.coerce\.number\(\)/),
  },
];

const FILES = [
  "top-level.json",
  "xml.json",
  "const.json",
  "type.json",
  "file.json",
  "query.json",
  "keywords.json",
  "beside.json",
];

describe("--lenient repairs, one warning each", () => {
  REPAIRS.forEach((repair, i) => {
    it(repair.name, async () => {
      const spec = join(work, FILES[i]);
      await writeFile(spec, JSON.stringify(repair.document));
      const strict = await generate({ specPath: spec, outDir: join(work, `strict-${i}`), runtime: "local" }).catch(
        (e: unknown) => e,
      );
      expect(strict).toBeInstanceOf(SpecError);
      expect((strict as Error).message).toContain(FILES[i]);
      const out = join(work, `lenient-${i}`);
      const result = await generate({ specPath: spec, outDir: out, runtime: "local", lenient: true });
      expect(result.warnings).toHaveLength(1);
      expect(result.warnings[0].replace(/^.*\.tmp-gen-lenient-[^/]*\//, "")).toMatch(repair.warning);
      repair.check?.(await readFile(join(out, "schemas.ts"), "utf8"));
    });
  });

  it("a member beside a parameter's $ref (Xero accounting's 'type') is valid OpenAPI 3.0, ignored as the specification says: strict generates", async () => {
    const spec = join(work, "ref-sibling.json");
    await writeFile(
      spec,
      JSON.stringify(
        documentWith([{ $ref: "#/components/parameters/limit", type: "string" }], {}, { parameters: { limit } }),
      ),
    );
    const out = join(work, "ref-sibling");
    const result = await generate({ specPath: spec, outDir: out, runtime: "local" });
    expect(result.warnings).toEqual([]);
    expect(await readFile(join(out, "schemas.ts"), "utf8")).toMatch(
      /limit: z\.coerce\.number\(\)\.refine\(isInteger, "integer"\)\.optional\(\)/,
    );
  });

  it("the CLI prints each repair as one warning line", () => {
    const spec = join(work, FILES[0]);
    const r = spawnSync(
      process.execPath,
      ["bin/custody.js", "generate", "--lenient", "--spec", spec, "--out", join(work, "cli")],
      { cwd: ROOT, encoding: "utf8" },
    );
    expect(r.status).toBe(0);
    expect(r.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(
        /^custody generate: warning: .*top-level\.json#\/source: 'source' is not a member the OpenAPI schema allows here: left out$/,
      ),
    ]);
  });

  it("a document refused in both modes is refused with file, pointer and problem", async () => {
    const spec = join(work, "both.json");
    await writeFile(
      spec,
      JSON.stringify(documentWith([{ name: "limit", in: "query", schema: { $ref: "#/components/schemas/Limit" } }])),
    );
    for (const lenient of [false, true]) {
      const error = await generate({ specPath: spec, outDir: join(work, "both"), runtime: "local", lenient }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SpecError);
      expect((error as Error).message).toBe(
        `${spec.slice(ROOT.length)}#/paths/~1a/get/parameters/0/schema/$ref: $ref "#/components/schemas/Limit" points to nothing`,
      );
    }
  });
});
