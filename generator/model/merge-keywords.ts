// allOf of two resolved schemas folded into one node, keyword by keyword: one entry per keyword (or per
// group of keywords that only mean something together) says how two members' values combine so that
// the result accepts exactly what both accept. What does not fold (two patterns, two oneOfs,
// pattern-keyed objects...) is handed back as a member of its own for the emitters to intersect.
// Adding a keyword is adding an entry; each is checked against ajv (test/generator-merge-keywords.test.ts).
import type { Schema, SchemaObject } from "./types.ts";

/** Keywords whose values are data or annotations, copied from the first member that has them. */
export const ANNOTATIONS = new Set([
  "description",
  "title",
  "default",
  "example",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "externalDocs",
  "xml",
  "$comment",
  "$id",
  "$schema",
  "$anchor",
  "$dynamicAnchor",
  "$defs",
  "definitions",
  "contentMediaType",
  "contentEncoding",
  "contentSchema",
]);

/** The node being built, the left-overs that become a member of their own, and the kept members. */
interface Fold {
  out: SchemaObject;
  rest: SchemaObject;
  kept: Schema[];
}

/** One keyword (or group): applies when the right member has any of `keys`; false = nothing can match. */
interface KeywordMerge {
  keys: readonly string[];
  merge(a: SchemaObject, b: SchemaObject, fold: Fold): boolean | void;
}

const numberFold = (key: string, pick: (x: number, y: number) => number): KeywordMerge => ({
  keys: [key],
  merge(a, b, fold) {
    if (typeof b[key] !== "number") return other(key, a, b[key], fold);
    fold.out[key] = typeof a[key] === "number" ? pick(a[key] as number, b[key] as number) : b[key];
  },
});

/** A group both members may hold only once: the second one's values become a member of their own. */
const firstComeGroup = (keys: readonly string[]): KeywordMerge => ({
  keys,
  merge(a, b, fold) {
    const target = keys.some((k) => Object.hasOwn(a, k)) ? fold.rest : fold.out;
    for (const k of keys) if (Object.hasOwn(b, k)) target[k] = b[k];
  },
});

export const KEYWORD_MERGES: readonly KeywordMerge[] = [
  { keys: ["allOf"], merge: (_a, b, fold) => void (Array.isArray(b.allOf) && fold.kept.push(...b.allOf)) },
  { keys: ["type"], merge: (a, b, fold) => mergeType(a, b, fold) },
  ...["minLength", "minItems", "minProperties", "minimum", "exclusiveMinimum"].map((k) => numberFold(k, Math.max)),
  ...["maxLength", "maxItems", "maxProperties", "maximum", "exclusiveMaximum"].map((k) => numberFold(k, Math.min)),
  {
    keys: ["required"],
    merge: (a, b, fold) =>
      void (fold.out.required = [...new Set([...(a.required ?? []), ...(b.required as string[])])]),
  },
  {
    keys: ["uniqueItems"],
    merge: (a, b, fold) => void (fold.out.uniqueItems = a.uniqueItems === true || b.uniqueItems === true),
  },
  {
    keys: ["enum"],
    merge(a, b, fold) {
      fold.out.enum = Array.isArray(a.enum)
        ? a.enum.filter((v) => (b.enum as unknown[]).some((w) => sameJson(v, w)))
        : b.enum;
    },
  },
  {
    keys: ["const"],
    merge(a, b, fold) {
      if (Object.hasOwn(a, "const") && !sameJson(a.const, b.const)) return false;
      fold.out.const = b.const;
    },
  },
  {
    keys: ["dependentRequired"],
    merge: (a, b, fold) => void (fold.out.dependentRequired = mergeDependentRequired(a, b)),
  },
  { keys: ["properties", "patternProperties", "additionalProperties"], merge: (a, b, fold) => mergeObject(a, b, fold) },
  { keys: ["items", "prefixItems"], merge: (a, b, fold) => mergeArray(a, b, fold) },
  firstComeGroup(["if", "then", "else"]),
  firstComeGroup(["contains", "minContains", "maxContains"]),
  firstComeGroup(["oneOf", "discriminator"]),
];

const HANDLED = new Set(KEYWORD_MERGES.flatMap((entry) => entry.keys));

/**
 * allOf of two resolved schemas as one node where JSON Schema allows it; what does not fold is pushed
 * onto `kept` as its own member.
 */
export function mergeTwo(left: Schema, right: Schema, kept: Schema[]): Schema {
  if (left === false || right === false) return false;
  if (left === true) return right;
  if (right === true) return left;
  if (typeof left.$ref === "string") {
    kept.push(left);
    return right;
  }
  if (typeof right.$ref === "string") {
    kept.push(right);
    return left;
  }
  const fold: Fold = { out: { ...left }, rest: {}, kept };
  for (const entry of KEYWORD_MERGES) {
    if (!entry.keys.some((k) => Object.hasOwn(right, k))) continue;
    if (entry.merge(left, right, fold) === false) return false;
  }
  for (const [key, value] of Object.entries(right)) if (!HANDLED.has(key)) other(key, left, value, fold);
  if (Object.keys(fold.rest).length > 0) kept.push(fold.rest);
  return fold.out;
}

/** Any other keyword: taken when only the right member has it, kept apart when both differ. */
function other(key: string, a: SchemaObject, value: unknown, fold: Fold): void {
  if (!Object.hasOwn(a, key)) fold.out[key] = value;
  else if (!(ANNOTATIONS.has(key) || key.startsWith("x-") || sameJson(a[key], value))) fold.rest[key] = value;
}

/** Types intersected (integer is the number type's subset); none in common: nothing matches. */
function mergeType(a: SchemaObject, b: SchemaObject, fold: Fold): boolean {
  if (a.type === undefined) {
    fold.out.type = b.type;
    return true;
  }
  const right = b.type as string[];
  const both = new Set<string>();
  for (const t of a.type as string[]) {
    if (right.includes(t)) both.add(t);
    else if ((t === "integer" && right.includes("number")) || (t === "number" && right.includes("integer")))
      both.add("integer");
  }
  fold.out.type = [...both];
  return both.size > 0;
}

function mergeDependentRequired(a: SchemaObject, b: SchemaObject): Record<string, string[]> {
  const deps: Record<string, string[]> = { ...((a.dependentRequired as Record<string, string[]>) ?? {}) };
  for (const [k, names] of Object.entries(b.dependentRequired as Record<string, string[]>))
    deps[k] = [...new Set([...(deps[k] ?? []), ...names])];
  return deps;
}

const OBJECT_GROUP = ["properties", "patternProperties", "additionalProperties"];

/** Properties merged name by name; a member's additionalProperties governs the names it does not list. */
function mergeObject(a: SchemaObject, b: SchemaObject, fold: Fold): void {
  if (a.patternProperties !== undefined || b.patternProperties !== undefined) {
    const target = OBJECT_GROUP.some((k) => Object.hasOwn(a, k)) ? fold.rest : fold.out;
    for (const k of OBJECT_GROUP) if (Object.hasOwn(b, k)) target[k] = b[k];
    return;
  }
  const left = a.properties ?? {};
  const right = b.properties ?? {};
  const properties: Record<string, Schema> = {};
  for (const name of new Set([...Object.keys(left), ...Object.keys(right)])) {
    const x = Object.hasOwn(left, name) ? left[name] : a.additionalProperties;
    const y = Object.hasOwn(right, name) ? right[name] : b.additionalProperties;
    properties[name] = both(x, y);
  }
  if (Object.keys(properties).length > 0) fold.out.properties = properties;
  const extra = both(a.additionalProperties, b.additionalProperties);
  if (extra !== undefined) fold.out.additionalProperties = extra;
}

/** items merged when neither member has prefixItems; otherwise the second member's stay apart. */
function mergeArray(a: SchemaObject, b: SchemaObject, fold: Fold): void {
  const keys = ["items", "prefixItems"];
  if (!keys.some((k) => Object.hasOwn(a, k))) {
    for (const k of keys) if (Object.hasOwn(b, k)) fold.out[k] = b[k];
  } else if (a.prefixItems === undefined && b.prefixItems === undefined) {
    fold.out.items = mergeNested(a.items as Schema, b.items as Schema);
  } else for (const k of keys) if (Object.hasOwn(b, k)) fold.rest[k] = b[k];
}

/** Whichever of two optional schemas is present, or both merged. */
function both(x: Schema | undefined, y: Schema | undefined): Schema {
  return x === undefined ? (y as Schema) : y === undefined ? x : mergeNested(x, y);
}

/** Two resolved schemas that must both hold, as one schema (an allOf node when they do not fold). */
export function mergeNested(x: Schema, y: Schema): Schema {
  const kept: Schema[] = [];
  const merged = mergeTwo(x, y, kept);
  if (kept.length === 0 || merged === false) return merged;
  return merged === true
    ? kept.length === 1
      ? kept[0]
      : { allOf: kept }
    : { ...merged, allOf: [...((merged.allOf as Schema[]) ?? []), ...kept] };
}

export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every(
      (k) => Object.hasOwn(b, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    )
  );
}
