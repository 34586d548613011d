// The shapes public documents got wrong in custody's validators, one instance each, judged by the
// generated zod schema and by ajv (scripts/differential.ts's reading of the document) against the
// expected verdict: nullable at $ref, allOf and enum positions (Plaid, Twilio, Codat), allOf members
// that close their objects (ShipEngine), array items under type unions, and Scalar's Galaxy's
// generic PaginatedResource<T> ($dynamicRef bound by the referrer's $dynamicAnchor).
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderFiles } from "../generator/index.ts";
import { ajvFor } from "../scripts/differential.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FIXTURES = join(ROOT, "test/fixtures/specs");
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(ROOT, ".tmp-gen-public-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** `zodOnly`: not for ajv (an operation's response; or ajv 8 not binding a referrer's $dynamicAnchor, see scripts/differential.ts genericComponent). */
type Case = [component: string, instance: unknown, valid: boolean, zodOnly?: true];

const CASES_30: Case[] = [
  ["IbanNullable", null, true],
  ["IbanNullable", "DE44500105175407324931", true],
  ["IbanNullable", "nope", false],
  ["AddressNullable", null, true],
  ["AddressNullable", { street: "a", extra: 1 }, true],
  ["AddressNullable", { city: "b" }, false],
  ["Credential", { type: null, sandbox: null, mode: null, count: null, tags: null, choice: null, address: null }, true],
  ["Credential", { type: "gcm", mode: "live", count: 1, tags: ["a", null], choice: 2 }, true],
  ["Credential", { type: "other" }, false],
  ["Credential", { mode: "other" }, false],
  ["Credential", { count: 0 }, false],
  ["ClosedAddress", {}, false],
  ["ClosedAddress", { name: "x" }, true],
  ["ClosedAddress", { name: "x", planet: "Mars" }, false],
  ["ClosedAndMore", { name: "x" }, true],
  ["ClosedAndMore", { name: "x", country: "FR" }, false],
  ["ClosedTwice", { name: "ab", phone: "1" }, true],
  ["ClosedTwice", { name: "a" }, false],
  ["ClosedTwice", { other: 1 }, false],
  ["TypedExtras", { a: "x", b: 1, c: 2 }, true],
  ["TypedExtras", { a: "x", c: "s" }, false],
  ["TypedExtras", { a: "x", b: "s" }, false],
];

const CASES_31: Case[] = [
  ["Satellites", null, true],
  ["Satellites", [{ id: 1 }], true],
  ["Satellites", [{ name: "x" }], false],
  ["Satellites", [null], false],
  ["ArrayOrString", "ab", true],
  ["ArrayOrString", "a", false],
  ["ArrayOrString", [0, 1, 2], true],
  ["ArrayOrString", [-1], false],
  ["ArrayOrString", [0, 1, 2, 3], false],
  ["ArrayOrObject", { n: 1 }, true],
  ["ArrayOrObject", ["a"], true],
  ["ArrayOrObject", [1], false],
  ["ArrayOrObject", {}, false],
  ["UntypedItems", [1, 2], true],
  ["UntypedItems", ["x"], false],
  ["UntypedItems", "x", true],
  ["NestedUnion", [null, ["a", 1]], true],
  ["NestedUnion", [[true]], false],
  ["TupleOrNull", ["a", 1], true],
  ["TupleOrNull", ["a", 1, 2], false],
  ["TupleOrNull", null, true],
  ["CurrencyRate", null, true],
  ["CurrencyRate", 1.5, true],
  ["RateOrRef", null, true],
  ["RateOrRef", { id: 1 }, true],
  ["RateOrRef", {}, false],
  // $dynamicRef: the component alone takes its own anchor (not: {}), a specialization takes its binding.
  ["Paginated", { data: [] }, true],
  ["Paginated", { data: [1] }, false],
  ["ListPlanetsResponseSchemas.200", { data: [{ id: 1 }] }, true, true],
  ["ListPlanetsResponseSchemas.200", { data: [{ name: "x" }] }, false, true],
  ["ListPlanetsResponseSchemas.200", { data: [1] }, false, true],
];

async function judge(
  fixture: string,
  cases: Case[],
): Promise<{ component: string; instance: unknown; expected: boolean; zod: boolean; ajv: boolean | "not compared" }[]> {
  const out = join(work, fixture);
  const { model, files } = await renderFiles({
    specPath: join(FIXTURES, `${fixture}.yaml`),
    outDir: out,
    runtime: "local",
  });
  await mkdir(out, { recursive: true });
  for (const f of files) await writeFile(join(out, f.path), f.content);
  const schemas = (await import(pathToFileURL(resolve(out, "schemas.ts")).href)) as Record<
    string,
    { safeParse(v: unknown): { success: boolean } }
  >;
  const ajv = ajvFor(model.document, model.version);
  return cases.map(([component, instance, expected, zodOnly]) => {
    if (component.includes(".")) {
      // An operation's response schema (zod only): "<Op>ResponseSchemas.<status>".
      const [table, status] = component.split(".");
      const zod = (schemas[table] as unknown as Record<string, { safeParse(v: unknown): { success: boolean } }>)[
        status
      ];
      return { component, instance, expected, zod: zod.safeParse(instance).success, ajv: "not compared" as const };
    }
    const named = model.schemas.find((s) => s.originalName === component)!;
    return {
      component,
      instance,
      expected,
      zod: schemas[named.schemaName].safeParse(instance).success,
      ajv: zodOnly ? ("not compared" as const) : ajv(named.ref)(instance),
    };
  });
}

describe("validators on the shapes public documents use", () => {
  for (const [fixture, cases] of [
    ["public-apis-30", CASES_30],
    ["public-apis-31", CASES_31],
  ] as const) {
    it(`${fixture}: zod and ajv give the expected verdict on every instance`, async () => {
      const verdicts = await judge(fixture, cases);
      const wrong = verdicts.filter((v) => v.zod !== v.expected || (v.ajv !== "not compared" && v.ajv !== v.expected));
      expect(wrong).toEqual([]);
    });
  }
});
