// Compares two schemas (after $ref and allOf) and lists what changed, relative to the schema's top.
// Results are memoised by the pair of schema locations and the direction, so a shared component is
// compared once however many operations reach it; a cycle stops at the pair already on the stack.
import type { Direction } from "./catalog.ts";
import { type At, type Bound, type Flat, type SpecDoc, same } from "./document.ts";

export interface Finding {
  /** Check suffix from SCHEMA_CHECKS ("enum-value-removed"). */
  suffix: string;
  /** Property path below the compared schema; [] at its top. */
  path: string[];
  oldPtr?: string;
  newPtr?: string;
  detail: string;
}

const BOUND_NAMES: Record<Bound, [string, "max" | "min"]> = {
  maximum: ["max", "max"],
  minimum: ["min", "min"],
  maxLength: ["max-length", "max"],
  minLength: ["min-length", "min"],
  maxItems: ["max-items", "max"],
  minItems: ["min-items", "min"],
};

export class SchemaDiff {
  private readonly memo = new Map<string, Finding[]>();
  private readonly active = new Set<string>();

  constructor(
    readonly old: SpecDoc,
    readonly next: SpecDoc,
  ) {}

  compare(o: At, n: At, dir: Direction): Finding[] {
    const fo = this.old.flat(o);
    const fn = this.next.flat(n);
    const key = `${dir}|${fo.ptr}|${fn.ptr}`;
    const hit = this.memo.get(key);
    if (hit) return hit;
    if (this.active.has(key)) return [];
    this.active.add(key);
    const out: Finding[] = [];
    try {
      this.scalars(fo, fn, out);
      this.properties(fo, fn, dir, out);
      if (fo.items && fn.items) this.nested(fo.items, fn.items, dir, "items", out);
      if (fo.additionalProperties && fn.additionalProperties)
        this.nested(fo.additionalProperties, fn.additionalProperties, dir, "additionalProperties", out);
      this.alternatives("one-of", fo.oneOf, fn.oneOf, fo, fn, dir, out);
      this.alternatives("any-of", fo.anyOf, fn.anyOf, fo, fn, dir, out);
    } finally {
      this.active.delete(key);
    }
    this.memo.set(key, out);
    return out;
  }

  private nested(o: At, n: At, dir: Direction, segment: string, out: Finding[]): void {
    for (const f of this.compare(o, n, dir)) out.push({ ...f, path: [segment, ...f.path] });
  }

  private scalars(fo: Flat, fn: Flat, out: Finding[]): void {
    const at = { oldPtr: fo.ptr, newPtr: fn.ptr, path: [] as string[] };
    if (!sameTypes(fo.types, fn.types)) {
      const widened = fn.types === undefined || (fo.types !== undefined && subset(fo.types, fn.types));
      const narrowed = fo.types === undefined || subset(fn.types, fo.types);
      const suffix = widened ? "type-generalized" : narrowed ? "type-specialized" : "type-changed";
      out.push({ ...at, suffix, detail: `type changed from ${typeName(fo.types)} to ${typeName(fn.types)}` });
    }
    if (fo.description !== fn.description) out.push(descriptionFinding(fo, fn));
    if (fo.nullable !== fn.nullable)
      out.push({
        ...at,
        suffix: fn.nullable ? "became-nullable" : "became-not-nullable",
        detail: fn.nullable ? "null became allowed" : "null is no longer allowed",
      });
    if (fo.enum && fn.enum) {
      for (const v of fo.enum)
        if (!fn.enum.some((w) => same(v, w)))
          out.push({ ...at, suffix: "enum-value-removed", detail: `enum value ${JSON.stringify(v)} was removed` });
      for (const v of fn.enum)
        if (!fo.enum.some((w) => same(v, w)))
          out.push({ ...at, suffix: "enum-value-added", detail: `enum value ${JSON.stringify(v)} was added` });
    } else if (!fo.enum && fn.enum && !fo.hasConst) {
      out.push({ ...at, suffix: "became-enum", detail: `values became restricted to ${JSON.stringify(fn.enum)}` });
    }
    if (fo.hasConst && fn.hasConst && !same(fo.const, fn.const))
      out.push({
        ...at,
        suffix: "const-changed",
        detail: `const changed from ${JSON.stringify(fo.const)} to ${JSON.stringify(fn.const)}`,
      });
    if (fo.format !== undefined && fn.format !== undefined && fo.format !== fn.format)
      out.push({ ...at, suffix: "format-changed", detail: `format changed from ${fo.format} to ${fn.format}` });
    if (fo.pattern !== fn.pattern) {
      const suffix =
        fo.pattern === undefined ? "pattern-added" : fn.pattern === undefined ? "pattern-removed" : "pattern-changed";
      const detail =
        fo.pattern === undefined
          ? `pattern ${fn.pattern} was added`
          : fn.pattern === undefined
            ? `pattern ${fo.pattern} was removed`
            : `pattern changed from ${fo.pattern} to ${fn.pattern}`;
      out.push({ ...at, suffix, detail });
    }
    for (const [bound, [name, kind]] of Object.entries(BOUND_NAMES) as [Bound, [string, "max" | "min"]][]) {
      const ov = fo.bounds[bound];
      const nv = fn.bounds[bound];
      if (ov === nv) continue;
      let change: string;
      if (ov === undefined) change = "set";
      else if (nv === undefined) change = "unset";
      else if (kind === "max") change = nv < ov ? "decreased" : "increased";
      else change = nv > ov ? "increased" : "decreased";
      const detail =
        ov === undefined
          ? `${bound} ${nv} was set`
          : nv === undefined
            ? `${bound} ${ov} was removed`
            : `${bound} changed from ${ov} to ${nv}`;
      out.push({ ...at, suffix: `${name}-${change}`, detail });
    }
  }

  private properties(fo: Flat, fn: Flat, dir: Direction, out: Finding[]): void {
    // A client never sends readOnly properties and never receives writeOnly ones.
    const skipOld = (at: At): boolean => (dir === "request" ? this.old.flat(at).readOnly : this.old.flat(at).writeOnly);
    const skipNew = (at: At): boolean =>
      dir === "request" ? this.next.flat(at).readOnly : this.next.flat(at).writeOnly;
    for (const [name, oat] of fo.properties) {
      const nat = fn.properties.get(name);
      const wasRequired = fo.required.has(name);
      if (!nat) {
        if (skipOld(oat)) continue;
        out.push({
          suffix: wasRequired ? "removed-required" : "removed-optional",
          path: [name],
          oldPtr: oat.ptr,
          newPtr: fn.ptr,
          detail: `the ${wasRequired ? "required" : "optional"} property was removed`,
        });
        continue;
      }
      if (skipOld(oat) && skipNew(nat)) continue;
      const isRequired = fn.required.has(name);
      if (wasRequired !== isRequired) {
        out.push({
          suffix: isRequired ? "became-required" : "became-optional",
          path: [name],
          oldPtr: oat.ptr,
          newPtr: nat.ptr,
          detail: isRequired ? "became required" : "became optional",
        });
      }
      this.nested(oat, nat, dir, name, out);
    }
    for (const [name, nat] of fn.properties) {
      if (fo.properties.has(name) || skipNew(nat)) continue;
      const required = fn.required.has(name);
      out.push({
        suffix: required ? "added-required" : "added-optional",
        path: [name],
        oldPtr: fo.ptr,
        newPtr: nat.ptr,
        detail: `a ${required ? "required" : "optional"} property was added`,
      });
    }
  }

  /** oneOf/anyOf alternatives, matched by the component they name, else by position. */
  private alternatives(
    kind: string,
    olds: At[] | undefined,
    news: At[] | undefined,
    fo: Flat,
    fn: Flat,
    dir: Direction,
    out: Finding[],
  ): void {
    if (!olds && !news) return;
    const o = olds ?? [];
    const n = news ?? [];
    const oNames = o.map((a) => this.old.deref(a).ptr);
    const nNames = n.map((a) => this.next.deref(a).ptr);
    const byRef = (ptr: string): string | undefined => (/^\/components\//.test(ptr) ? ptr : undefined);
    const matched = new Set<number>();
    o.forEach((alt, i) => {
      const ref = byRef(oNames[i]);
      let j = ref !== undefined ? nNames.indexOf(ref) : -1;
      if (j < 0 && ref === undefined && i < n.length && byRef(nNames[i]) === undefined && !matched.has(i)) j = i;
      if (j < 0 || matched.has(j)) {
        out.push({
          suffix: `${kind}-removed`,
          path: [],
          oldPtr: alt.ptr,
          newPtr: fn.ptr,
          detail: `${kind === "one-of" ? "oneOf" : "anyOf"} alternative ${label(oNames[i], i)} was removed`,
        });
        return;
      }
      matched.add(j);
      for (const f of this.compare(alt, n[j], dir)) out.push({ ...f, path: [`(${label(oNames[i], i)})`, ...f.path] });
    });
    n.forEach((alt, j) => {
      if (!matched.has(j))
        out.push({
          suffix: `${kind}-added`,
          path: [],
          oldPtr: fo.ptr,
          newPtr: alt.ptr,
          detail: `${kind === "one-of" ? "oneOf" : "anyOf"} alternative ${label(nNames[j], j)} was added`,
        });
    });
  }
}

function label(ptr: string, i: number): string {
  const m = /^\/components\/schemas\/([^/]+)$/.exec(ptr);
  return m ? m[1].replace(/~1/g, "/").replace(/~0/g, "~") : `#${i}`;
}

function sameTypes(a: Set<string> | undefined, b: Set<string> | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.size === b.size && [...a].every((t) => b.has(t));
}

/** Every value of `a` is a value of `b` (an integer is a number). */
function subset(a: Set<string> | undefined, b: Set<string>): boolean {
  if (a === undefined) return false;
  return [...a].every((t) => b.has(t) || (t === "integer" && b.has("number")));
}

function typeName(t: Set<string> | undefined): string {
  return t === undefined ? "any" : [...t].join("|");
}

/** A description added, removed or reworded, at the description's own pointer where it has one. */
function descriptionFinding(fo: Flat, fn: Flat): Finding {
  const detail =
    fo.description === undefined
      ? "a description was added"
      : fn.description === undefined
        ? "the description was removed"
        : "the description changed";
  const at = (flat: Flat) => (flat.description === undefined ? flat.ptr : `${flat.ptr}/description`);
  return { suffix: "description-changed", path: [], oldPtr: at(fo), newPtr: at(fn), detail };
}
