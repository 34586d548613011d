// Values drawn from a JSON Schema: valid ones (typical, at the boundaries, non-ASCII) and, for each
// place in a value, the mutations that should make it invalid (past maxLength, empty, wrong type,
// missing required, outside the enum, huge numbers, duplicate items, a non-ASCII URI). Whether a
// drawn value really is valid is decided afterwards by the operation's zod schema (oracle.ts).
import type { Prng } from "./prng.ts";
import { type JsonSchema, typesOf } from "./schema.ts";

/** typical: everyday values; boundary: lengths and numbers at their limits; unicode: non-ASCII text. */
export type Flavor = "typical" | "boundary" | "unicode";

const ID_REST = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-";
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const HEX = "0123456789abcdef";
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
/** Letters outside ASCII, one UTF-16 unit each (so lengths count the same in every language). */
const UNICODE = "éüßøñçЖжλΩ漢字テスト한글";
const TEXT = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_";

type PatternGen = (prng: Prng, min: number, max: number) => string;

/** Generators for the patterns the spec uses; others fall back to plain text (and the oracle decides). */
function patternGenerator(pattern: string): PatternGen | undefined {
  if (pattern === "^[A-Za-z0-9][A-Za-z0-9_.-]*$") {
    return (p, min, max) =>
      p.chars(ALNUM, 1) + p.chars(ID_REST, Math.max(0, p.int(Math.max(min, 1), Math.min(max, 40)) - 1));
  }
  const fixedHex = /^\^0x\[0-9a-fA-F\]\{(\d+)\}\$$/.exec(pattern);
  if (fixedHex) return (p) => `0x${p.chars(HEX, Number(fixedHex[1]))}`;
  if (pattern === "^0x([0-9a-fA-F]{2})*$") return (p) => `0x${p.chars(HEX, 2 * p.int(0, 16))}`;
  const plainHex = /^\^\[0-9a-f\]\{(\d+)\}\$$/.exec(pattern);
  if (plainHex) return (p) => p.chars(HEX, Number(plainHex[1]));
  if (pattern === "^[0-9]+(\\.[0-9]+)?$")
    return (p) => (p.bool() ? `0.${p.chars("0123456789", p.int(1, 6))}1` : String(p.int(0, 1000)));
  if (pattern === "^[A-Za-z0-9+/]{43}=$") return (p) => `${p.chars(B64, 42)}${p.chars("AEIMQUYcgkosw048", 1)}=`;
  if (pattern === "^https?://" || pattern === "^https?:\\/\\/")
    return (p) => `https://example.invalid/certify/${p.chars(ALNUM, p.int(1, 12))}`;
  return undefined;
}

function stringValue(s: JsonSchema, prng: Prng, flavor: Flavor): string {
  if (s.enum) return String(prng.pick(s.enum));
  if (s.format === "date-time") return new Date(Date.UTC(2020, 0, 1) + prng.int(0, 5 * 365) * 86_400_000).toISOString();
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? Math.max(min, 64);
  if (s.pattern) {
    const gen = patternGenerator(s.pattern);
    if (gen) {
      const value = gen(prng, min, max);
      if (flavor === "boundary" && s.pattern.startsWith("^[A-Za-z0-9]") && s.maxLength)
        return value[0] + prng.chars(ID_REST, s.maxLength - 1);
      return value;
    }
  }
  if (flavor === "boundary") return prng.chars(TEXT, prng.bool() ? max : Math.max(min, 1));
  const length = prng.int(Math.max(min, 1), Math.max(Math.min(max, 24), Math.max(min, 1)));
  return flavor === "unicode" ? prng.chars(UNICODE, length) : prng.chars(TEXT, length).replace(/^ +| +$/g, "x");
}

function numberValue(s: JsonSchema, prng: Prng, flavor: Flavor, integer: boolean): number {
  const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1e6);
  const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : 1e6);
  if (flavor === "boundary") return prng.pick([min, max, 0].filter((n) => n >= min && n <= max));
  const lo = Math.max(min, -1e6);
  const hi = Math.min(max, 1e6);
  const n = lo + prng.next() * (hi - lo);
  return integer ? Math.round(n) : n;
}

/** A value the schema should accept. */
export function validValue(s: JsonSchema, prng: Prng, flavor: Flavor = "typical", depth = 0): unknown {
  if (s.const !== undefined) return s.const;
  if (s.enum) return prng.pick(s.enum);
  const union = s.anyOf ?? s.oneOf;
  if (union && union.length > 0) {
    const options = union.filter((o) => !typesOf(o).includes("null"));
    return validValue(prng.pick(options.length > 0 ? options : union), prng, flavor, depth + 1);
  }
  if (s.allOf && s.allOf.length > 0) return validValue(s.allOf[0], prng, flavor, depth + 1);
  const types = typesOf(s).filter((t) => t !== "null");
  const type = types.length > 0 ? prng.pick(types) : s.properties ? "object" : "string";
  switch (type) {
    case "string":
      return stringValue(s, prng, flavor);
    case "integer":
      return numberValue(s, prng, flavor, true);
    case "number":
      return numberValue(s, prng, flavor, false);
    case "boolean":
      return prng.bool();
    case "array": {
      const items = s.items ?? { type: "string" };
      const count =
        depth > 4
          ? (s.minItems ?? 0)
          : prng.int(s.minItems ?? 0, Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? 3, (s.minItems ?? 0) + 3)));
      const out: unknown[] = [];
      const seen = new Set<string>();
      for (let tries = 0; out.length < count && tries < count * 4; tries++) {
        const v = validValue(items, prng, flavor, depth + 1);
        const key = JSON.stringify(v);
        if (seen.has(key)) continue; // distinct items keep uniqueItems arrays valid
        seen.add(key);
        out.push(v);
      }
      return out;
    }
    case "object": {
      const out: Record<string, unknown> = {};
      const required = new Set(s.required ?? []);
      for (const [name, child] of Object.entries(s.properties ?? {})) {
        if (required.has(name) || (depth < 4 && prng.bool(flavor === "boundary" ? 0.8 : 0.5)))
          out[name] = validValue(child, prng, flavor, depth + 1);
      }
      return out;
    }
    default:
      return null;
  }
}

/** One change meant to make a value invalid, at a place inside it. */
export interface Mutation {
  path: string[];
  what: string;
  apply(value: unknown): unknown;
}

/** Every mutation of `value` (drawn from `s`) worth trying, at every depth. */
export function mutations(
  s: JsonSchema,
  value: unknown,
  options: { textual?: boolean } = {},
  path: string[] = [],
  depth = 0,
): Mutation[] {
  const out: Mutation[] = [];
  const at = (what: string, replace: (old: unknown) => unknown) =>
    out.push({ path, what, apply: (root) => setAt(root, path, replace) });
  const union = s.anyOf ?? s.oneOf;
  const types = typesOf(s);
  if (s.enum) at("a value outside the enum", () => (typeof s.enum![0] === "number" ? 987654 : "certify-not-a-member"));
  if (!union && (types.includes("string") || (s.pattern && types.length === 0))) {
    if (s.maxLength !== undefined)
      at(`${s.maxLength + 1} characters (maxLength ${s.maxLength})`, (old) =>
        pad(String(old ?? "a"), s.maxLength! + 1),
      );
    if ((s.minLength ?? 0) >= 1 && path.length > 0) at("an empty string (minLength)", () => "");
    if (s.pattern) at(`a string breaking the pattern ${s.pattern}`, (old) => `${String(old ?? "")}é!`);
    if (s.format === "date-time") at("a date that is not RFC 3339", () => "31/12/2024 25:61");
    if (!options.textual) at("a number instead of a string", () => 12345);
    if (!options.textual) at("null instead of a string", () => null);
  }
  if (!union && (types.includes("integer") || types.includes("number"))) {
    at("a huge number (1e308)", () => 1e308);
    // biome-ignore lint/correctness/noPrecisionLoss: the literal is past 2^64 on purpose (the value under test)
    at("a number past 2^64", () => 18446744073709551617);
    if (s.maximum !== undefined) at(`maximum + 1 (${s.maximum})`, () => s.maximum! + 1);
    if (s.minimum !== undefined) at(`minimum - 1 (${s.minimum})`, () => s.minimum! - 1);
    if (types.includes("integer") && !types.includes("number")) at("a fraction for an integer", () => 1.5);
    if (!options.textual) at("a string instead of a number", () => "12");
  }
  if (!union && types.includes("boolean") && !options.textual) at("a string instead of a boolean", () => "true");
  if (types.includes("array")) {
    if ((s.minItems ?? 0) >= 1) at("an empty array (minItems)", () => []);
    at("an object instead of an array", () => ({}));
    if (Array.isArray(value) && value.length > 0)
      at("a duplicated item", (old) => [...(old as unknown[]), (old as unknown[])[0]]);
    if (Array.isArray(value) && value.length > 0 && s.items && depth < 4)
      out.push(...mutations(s.items, value[0], options, [...path, "0"], depth + 1));
  }
  if (types.includes("object") || (s.properties && types.length === 0)) {
    if (path.length > 0 || !options.textual) at("an array instead of an object", () => []);
    const obj = value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
    for (const name of s.required ?? [])
      out.push({
        path: [...path, name],
        what: `required ${name} missing`,
        apply: (root) => removeAt(root, [...path, name]),
      });
    if (!options.textual)
      out.push({
        path: [...path, "certify_unknown_field"],
        what: "an unknown field (ignored by policy)",
        apply: (root) => setAt(root, [...path, "certify_unknown_field"], () => "x"),
      });
    if (depth < 4) {
      for (const [name, child] of Object.entries(s.properties ?? {})) {
        if (Object.hasOwn(obj, name)) out.push(...mutations(child, obj[name], options, [...path, name], depth + 1));
      }
    }
  }
  return out;
}

/** The URI mutation for `format: uri` fields (known from the spec, see constraints.ts). */
export function nonAsciiUri(path: string[]): Mutation {
  return {
    path,
    what: "a non-ASCII URI",
    apply: (root) => setAt(root, path, () => "https://exämple.invalid/certify/é"),
  };
}

function pad(text: string, length: number): string {
  const base = text.length > 0 ? text : "a";
  return base.length >= length ? base.slice(0, length) : base + "a".repeat(length - base.length);
}

function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

export function setAt(root: unknown, path: string[], replace: (old: unknown) => unknown): unknown {
  if (path.length === 0) return replace(root);
  const copy = clone(root) as Record<string, unknown> | unknown[];
  let at: Record<string, unknown> = copy as Record<string, unknown>;
  for (const key of path.slice(0, -1)) {
    if (!at || typeof at !== "object") return copy;
    at = at[key] as Record<string, unknown>;
  }
  if (at && typeof at === "object") {
    const last = path[path.length - 1];
    at[last] = replace(at[last]);
  }
  return copy;
}

export function removeAt(root: unknown, path: string[]): unknown {
  const copy = clone(root);
  let at = copy as Record<string, unknown>;
  for (const key of path.slice(0, -1)) {
    if (!at || typeof at !== "object") return copy;
    at = at[key] as Record<string, unknown>;
  }
  if (at && typeof at === "object") delete at[path[path.length - 1]];
  return copy;
}
