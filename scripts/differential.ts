// Differential check of generated zod schemas against ajv (JSON Schema 2020-12, ajv-formats): for
// every component schema, instances sampled from the schema (valid by construction where it can be)
// and mutated with fast-check, each judged by both; every disagreement is returned. OpenAPI 3.0
// documents are converted for ajv the way the generator reads them (nullable, boolean bounds).
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import fc from "fast-check";
import { mulberry32 } from "../conformance/fuzz/prng.ts";
import { resolvePointer } from "../generator/load/json-pointer.ts";
import type { ResolvedSchemas, Schema, SchemaObject, SpecModel } from "../generator/model/types.ts";

export interface Disagreement {
  component: string;
  instance: unknown;
  zod: boolean;
  ajv: boolean;
}

export interface DifferentialResult {
  components: number;
  instances: number;
  disagreements: Disagreement[];
  /** Instances where RFC 3339 and ajv-formats differ (see rfcStricter): zod rejects, ajv accepts. */
  rfcStricter: number;
  /** Components not compared: a $dynamicRef whose name has several $dynamicAnchors (see genericComponent). */
  generic: string[];
}

interface Checker {
  safeParse(value: unknown): { success: boolean };
}

/** The formats the generated validators assert (the rest are annotations for both sides). */
const FORMATS = ["date-time", "date", "time", "uuid", "email", "uri", "hostname", "ipv4", "ipv6"];

/** ajv over the document, with 3.0's nullable and boolean exclusive bounds in their 2020-12 form. */
export function ajvFor(
  document: Record<string, unknown>,
  version: "3.0" | "3.1",
): (ref: string) => (value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: false, validateFormats: true, allErrors: false, unicodeRegExp: true });
  // ajv-formats is CommonJS: its function is the default export's default under Node's ESM interop.
  const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
    a: unknown,
    f: string[],
  ) => void;
  addFormats(ajv, FORMATS);
  // Unknown formats are annotations (JSON Schema 2020-12 section 7.2.1).
  const known = new Set(FORMATS);
  const converted = convert(structuredClone(document), version, known) as Record<string, unknown>;
  closeComposites(converted);
  ajv.addSchema(converted as object, "doc");
  const cache = new Map<string, (value: unknown) => boolean>();
  return (ref) => {
    let fn = cache.get(ref);
    if (fn === undefined) {
      const validate = ajv.compile({ $ref: `doc${ref}` });
      fn = (value) => validate(value) === true;
      cache.set(ref, fn);
    }
    return fn;
  };
}

const DATA_KEYS = new Set(["example", "examples", "default", "enum", "const"]);

/**
 * Keys whose value maps names to schemas: a name there (a property called `nullable`, `default` or
 * `format`, as googleapis.com/datastream's columns have) is data, never the keyword.
 */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "dependentSchemas", "$defs", "definitions", "schemas"]);

function convert(node: unknown, version: "3.0" | "3.1", known: Set<string>, names = false): unknown {
  if (node === null || typeof node !== "object") return node;
  if (Array.isArray(node)) return node.map((n) => convert(n, version, known));
  const record = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (names) {
    for (const [name, value] of Object.entries(record)) out[name] = convert(value, version, known);
    return out;
  }
  for (const [key, value] of Object.entries(record))
    out[key] = DATA_KEYS.has(key) ? value : convert(value, version, known, SCHEMA_MAPS.has(key));
  if (typeof out.format === "string" && !known.has(out.format)) delete out.format;
  if (version === "3.0") {
    for (const [flag, bound] of [
      ["exclusiveMinimum", "minimum"],
      ["exclusiveMaximum", "maximum"],
    ] as const) {
      if (typeof out[flag] !== "boolean") continue;
      if (out[flag] === true && typeof out[bound] === "number") {
        out[flag] = out[bound];
        delete out[bound];
      } else delete out[flag];
    }
  }
  // 3.0 ignores a $ref's siblings (except nullable, below).
  const own = version === "3.0" && typeof out.$ref === "string" ? { $ref: out.$ref } : out;
  const nullable = out.nullable === true;
  delete own.nullable;
  // nullable: true admits null for the whole schema, in 3.0 and in 3.1 documents that use it (the
  // generator's reading: generator/model/resolve-schema.ts, admitNull). Left to ajv, its own
  // `nullable` keyword adds null to `type` only and fails to compile without one.
  return nullable ? { anyOf: [own, { type: "null" }] } : own;
}

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => v !== null && typeof v === "object" && !Array.isArray(v);
/** Keywords through which an object schema admits keys other than its `properties`. */
const OTHER_KEYS = ["patternProperties", "anyOf", "oneOf", "if", "dependentSchemas"];

/**
 * The generator's reading of `additionalProperties: false` beside an allOf (its own, or every
 * member's: closed over the union of the members' properties; generator/model/resolve-schema.ts,
 * closedOver) in JSON Schema 2020-12's words, for ajv: the composite gets `unevaluatedProperties:
 * false` and its members lose their own closing (a $ref member becomes an opened copy of its target).
 */
function closeComposites(doc: Node): void {
  const deref = (node: unknown): unknown => {
    let cur = node;
    for (let hops = 0; hops < 16 && isNode(cur) && typeof cur.$ref === "string" && cur.$ref.startsWith("#"); hops++)
      cur = resolvePointer(doc, cur.$ref);
    return cur;
  };
  const plain = (s: unknown): s is Node =>
    isNode(s) &&
    OTHER_KEYS.every((k) => s[k] === undefined) &&
    (s.additionalProperties === undefined || s.additionalProperties === false);
  const closed = (s: Node, depth = 0): boolean =>
    s.additionalProperties === false ||
    (depth < 8 &&
      Array.isArray(s.allOf) &&
      s.allOf.length > 0 &&
      s.allOf.every((m) => plain(deref(m)) && closed(deref(m) as Node, depth + 1)));
  const open = (s: unknown, depth = 0): unknown => {
    const target = deref(s);
    if (!plain(target) || depth > 8) return s;
    const { additionalProperties: _a, unevaluatedProperties: _u, ...rest } = target;
    if (Array.isArray(rest.allOf)) rest.allOf = rest.allOf.map((m) => open(m, depth + 1));
    return rest;
  };
  const composites: Node[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!isNode(node)) return;
    if (Array.isArray(node.allOf) && plain(node) && node.allOf.every((m) => plain(deref(m))) && closed(node))
      composites.push(node);
    for (const [key, value] of Object.entries(node)) if (!DATA_KEYS.has(key)) walk(value);
  };
  walk(doc);
  for (const node of composites) {
    node.allOf = (node.allOf as unknown[]).map((m) => open(m));
    delete node.additionalProperties;
    node.unevaluatedProperties = false;
  }
}

/** Strings per format: valid ones, then edge cases either side of the RFC. */
export const FORMAT_SAMPLES: Record<string, string[]> = {
  "date-time": [
    "2025-01-02T03:04:05Z",
    "2025-01-02t03:04:05.123+02:00",
    "2016-12-31T23:59:60Z",
    "2025-01-02 03:04:05z",
    "2025-02-30T00:00:00Z",
    "2025-01-02T03:04:05",
    "2025-01-02T12:59:60Z",
    "2024-02-29T00:00:00-00:00",
  ],
  date: ["2025-01-02", "2024-02-29", "2025-02-29", "2025-13-01", "25-01-02"],
  time: ["07:08:09Z", "07:08:09.5+05:30", "23:59:60Z", "07:08:09", "24:00:00Z", "15:59:60-08:00"],
  uuid: [
    "3f1c1e6e-6a4b-4b8e-9c0a-2f1d3c4b5a69",
    "00000000-0000-0000-0000-000000000000",
    "3F1C1E6E-6A4B-1B8E-C90A-2F1D3C4B5A69",
    "3f1c1e6e6a4b4b8e9c0a2f1d3c4b5a69",
    "urn:uuid:3f1c1e6e-6a4b-4b8e-9c0a-2f1d3c4b5a69",
  ],
  email: ["a@b.co", "first.last+tag@example.org", "not-an-email", "a@b", "a..b@c.de"],
  uri: [
    "https://example.com/a?b=c#d",
    "urn:isbn:0451450523",
    "mailto:a@b.co",
    "https://[::1]:8080/",
    "https://Ï/",
    "https://x.test/\n",
    "relative/path",
    "http://a b/",
  ],
  hostname: ["example.com", "a-b.c", "-bad.com", `${"x".repeat(64)}.com`],
  ipv4: ["192.168.0.1", "256.1.1.1", "01.2.3.4"],
  ipv6: ["::1", "2001:db8::8a2e:370:7334", "::ffff:192.0.2.1", "1::2::3", "12345::"],
};

/** Builds valid-looking instances of resolved schemas, and mutations of them. */
class Sampler {
  private readonly random: () => number;
  private readonly pool: unknown[];

  constructor(
    private readonly resolver: ResolvedSchemas,
    seed: number,
  ) {
    this.random = mulberry32(seed);
    this.pool = fc.sample(fc.jsonValue({ maxDepth: 2 }), { seed, numRuns: 200 });
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)];
  }

  anyJson(): unknown {
    return structuredClone(this.pick(this.pool));
  }

  sample(input: Schema | undefined, depth = 0): unknown {
    const schema = this.resolver.resolve(input);
    if (schema === true || depth > 6) return depth > 6 ? null : this.anyJson();
    if (schema === false) return null;
    if (typeof schema.$ref === "string") return this.sample(this.resolver.component(schema.$ref)?.schema, depth + 1);
    if (Object.hasOwn(schema, "const")) return structuredClone(schema.const);
    if (Array.isArray(schema.enum)) return schema.enum.length === 0 ? null : structuredClone(this.pick(schema.enum));
    const parts: unknown[] = [];
    const typed = this.typed(schema, depth);
    if (typed !== undefined) parts.push(typed.value);
    for (const key of ["oneOf", "anyOf"])
      if (Array.isArray(schema[key]) && (schema[key] as Schema[]).length > 0)
        parts.push(this.sample(this.pick(schema[key] as Schema[]), depth + 1));
    for (const member of (schema.allOf as Schema[] | undefined) ?? []) parts.push(this.sample(member, depth + 1));
    if (parts.length === 0) return this.anyJson();
    // Parts that are objects are merged (allOf/oneOf of object shapes); otherwise the first wins.
    if (parts.every((p) => p !== null && typeof p === "object" && !Array.isArray(p)))
      return Object.assign({}, ...(parts as object[]));
    return parts[0];
  }

  private typed(schema: SchemaObject, depth: number): { value: unknown } | undefined {
    const types = schema.type as string[] | undefined;
    if (types === undefined) {
      if (schema.properties || schema.required) return { value: this.object(schema, depth) };
      if (schema.items || schema.prefixItems) return { value: this.array(schema, depth) };
      return undefined;
    }
    const type = this.pick(types);
    switch (type) {
      case "string":
        return { value: this.string(schema) };
      case "integer":
      case "number":
        return { value: this.number(schema, type === "integer") };
      case "boolean":
        return { value: this.random() < 0.5 };
      case "null":
        return { value: null };
      case "array":
        return { value: this.array(schema, depth) };
      default:
        return { value: this.object(schema, depth) };
    }
  }

  private string(schema: SchemaObject): string {
    const samples = typeof schema.format === "string" ? FORMAT_SAMPLES[schema.format] : undefined;
    if (samples) return this.pick(samples.slice(0, 2));
    const min = typeof schema.minLength === "number" ? schema.minLength : 0;
    const max = typeof schema.maxLength === "number" ? schema.maxLength : min + 8;
    return "é".repeat(Math.min(min + Math.floor(this.random() * 3), Math.max(max, min)));
  }

  private number(schema: SchemaObject, integer: boolean): number {
    const low =
      typeof schema.minimum === "number"
        ? schema.minimum
        : typeof schema.exclusiveMinimum === "number"
          ? schema.exclusiveMinimum + 1
          : 0;
    let n = low + Math.floor(this.random() * 5);
    if (typeof schema.multipleOf === "number") n = Math.ceil(low / schema.multipleOf) * schema.multipleOf;
    return integer ? Math.round(n) : n;
  }

  private array(schema: SchemaObject, depth: number): unknown[] {
    const min = typeof schema.minItems === "number" ? schema.minItems : 0;
    const prefix = (schema.prefixItems as Schema[] | undefined) ?? [];
    const length = Math.max(min, Math.min(prefix.length, 2));
    const out: unknown[] = [];
    for (let i = 0; i < Math.max(length, min + 1) && i < 4; i++)
      out.push(this.sample(i < prefix.length ? prefix[i] : (schema.items as Schema | undefined), depth + 1));
    return schema.uniqueItems ? out.slice(0, 1) : out;
  }

  private object(schema: SchemaObject, depth: number): Record<string, unknown> {
    const props = (schema.properties as Record<string, Schema> | undefined) ?? {};
    const out: Record<string, unknown> = {};
    for (const name of (schema.required as string[] | undefined) ?? [])
      out[name] = Object.hasOwn(props, name) ? this.sample(props[name], depth + 1) : this.anyJson();
    for (const [name, prop] of Object.entries(props))
      if (!Object.hasOwn(out, name) && this.random() < 0.5) out[name] = this.sample(prop, depth + 1);
    return out;
  }

  /** One change to a value: a leaf replaced by random JSON, a key dropped or added, a string edited. */
  mutate(value: unknown): unknown {
    const copy = structuredClone(value);
    const paths: (string | number)[][] = [];
    const walk = (node: unknown, path: (string | number)[]) => {
      paths.push(path);
      if (Array.isArray(node)) node.forEach((v, i) => walk(v, [...path, i]));
      else if (node !== null && typeof node === "object")
        for (const [k, v] of Object.entries(node)) walk(v, [...path, k]);
    };
    walk(copy, []);
    const path = this.pick(paths);
    const parent = path
      .slice(0, -1)
      .reduce<unknown>((n, k) => (n as Record<string | number, unknown>)[k], copy) as Record<string | number, unknown>;
    const key = path[path.length - 1];
    const target = path.length === 0 ? copy : parent[key];
    const choice = this.random();
    let next: unknown;
    if (typeof target === "string" && choice < 0.5) next = this.editString(target);
    else if (target !== null && typeof target === "object" && !Array.isArray(target) && choice < 0.75) {
      const obj = target as Record<string, unknown>;
      const keys = Object.keys(obj);
      if (keys.length > 0 && this.random() < 0.5) delete obj[this.pick(keys)];
      else obj[this.pick(["zz", "extra", "x-1"])] = this.anyJson();
      next = obj;
    } else if (typeof target === "number" && choice < 0.5)
      next = this.pick([target + 0.5, -target - 1, target * 1000, 2 ** 53 + 2]);
    else next = this.anyJson();
    if (path.length === 0) return next;
    parent[key] = next;
    return copy;
  }

  private editString(value: string): string {
    const edits = [
      () => value.toUpperCase(),
      () => value.slice(0, -1),
      () => `${value}\n`,
      () => value.replace(/T/, "t"),
      () => value.replace(/Z$/, ""),
      () => "",
      () => value.replace(/[a-f]/, "g"),
      () => value.replace(/^https:\/\/[^/]*/, "https://Ï"),
      () => value + value,
      () => this.pick(Object.values(FORMAT_SAMPLES).flat()),
    ];
    return this.pick(edits)();
  }
}

/** ajv-formats accepts time offsets without a colon and any whitespace separator; RFC 3339 does not. */
export function rfcStricter(value: unknown): boolean {
  if (typeof value === "string")
    return /\d\d:\d\d:\d\d(\.\d+)?[+-]\d\d(\d\d)?$/.test(value) || /^\d{4}-\d\d-\d\d\s/.test(value);
  if (value !== null && typeof value === "object") return Object.values(value).some(rfcStricter);
  return false;
}

/** Runs the comparison for every component of `model`, `perComponent` instances each. */
export function differential(
  model: SpecModel,
  schemas: Record<string, Checker>,
  options: { seed?: number; perComponent?: number } = {},
): DifferentialResult {
  const ajvRef = ajvFor(model.document, model.version);
  const sampler = new Sampler(model.resolver, options.seed ?? 1);
  const per = options.perComponent ?? 40;
  const result: DifferentialResult = { components: 0, instances: 0, disagreements: [], rfcStricter: 0, generic: [] };
  for (const named of model.schemas) {
    const zod = schemas[named.schemaName];
    if (zod === undefined) continue;
    if (genericComponent(model.document, named.schema)) {
      result.generic.push(named.originalName);
      continue;
    }
    let ajv: (value: unknown) => boolean;
    try {
      ajv = ajvRef(named.ref);
    } catch {
      continue; // a schema ajv cannot compile (e.g. a pattern in another dialect) has nothing to compare
    }
    result.components++;
    const valid = Array.from({ length: Math.ceil(per / 2) }, () => sampler.sample(named.schema));
    const instances = [
      ...valid,
      ...valid.map((v) => sampler.mutate(v)),
      ...Object.values(FORMAT_SAMPLES).flat(),
      null,
      0,
      "x",
      [],
      {},
    ];
    for (const instance of instances) {
      result.instances++;
      const z = zod.safeParse(instance).success;
      const a = ajv(instance);
      if (z === a) continue;
      if (!z && a && rfcStricter(instance)) {
        result.rfcStricter++;
        continue;
      }
      result.disagreements.push({ component: named.originalName, instance, zod: z, ajv: a });
    }
  }
  return result;
}

/**
 * A generic component (Galaxy's PaginatedResource<T>): a $dynamicRef whose name several
 * $dynamicAnchors bind. ajv 8 does not follow JSON Schema 2020-12 section 8.2.3.2 there (it ignores a
 * referrer's binding: `{$defs: {t: {$dynamicAnchor: T, type: integer}}, $ref: P}` refuses [1] when P's
 * items are `$dynamicRef: "#T"`), so it is no reference for them; the generator's reading is tested
 * on its own (test/generator-validators-public.test.ts).
 */
export function genericComponent(document: unknown, schema: unknown): boolean {
  const names = new Set<string>();
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) return node.forEach(walk);
    for (const [key, value] of Object.entries(node)) {
      if (key === "$dynamicRef" && typeof value === "string") names.add(value.replace(/^#/, ""));
      else if (!DATA_KEYS.has(key)) walk(value);
    }
  };
  walk(schema);
  if (names.size === 0) return false;
  const counts = new Map<string, number>();
  const count = (node: unknown): void => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) return node.forEach(count);
    const anchor = (node as Record<string, unknown>).$dynamicAnchor;
    if (typeof anchor === "string") counts.set(anchor, (counts.get(anchor) ?? 0) + 1);
    for (const [key, value] of Object.entries(node)) if (!DATA_KEYS.has(key)) count(value);
  };
  count(document);
  return [...names].some((n) => (counts.get(n) ?? 0) > 1);
}
