// One side of a diff: a parsed document plus cached $ref resolution and allOf flattening, so a schema
// shared by a hundred operations is resolved once. Every node keeps the JSON pointer it lives at.
import { escapeToken, refTokens } from "../generator/load/json-pointer.ts";

export type Obj = Record<string, unknown>;

/** A node of the document and where it is (after following $refs). */
export interface At {
  node: unknown;
  ptr: string;
}

export function child(at: At, ...tokens: (string | number)[]): At {
  let node = at.node;
  let ptr = at.ptr;
  for (const t of tokens) {
    node = node !== null && typeof node === "object" ? (node as Obj)[t as string] : undefined;
    const token = String(t);
    ptr += `/${token.includes("~") || token.includes("/") ? escapeToken(token) : token}`;
  }
  return { node, ptr };
}

export function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

const BOUNDS = ["maximum", "minimum", "maxLength", "minLength", "maxItems", "minItems"] as const;
export type Bound = (typeof BOUNDS)[number];

/** A schema with its allOf branches merged in: what an instance must satisfy, in one place. */
export interface Flat {
  ptr: string;
  /** The schema's own description (not its allOf members'). */
  description?: string;
  /** Non-null JSON types it allows; undefined = any. */
  types?: Set<string>;
  nullable: boolean;
  enum?: unknown[];
  hasConst: boolean;
  const?: unknown;
  format?: string;
  pattern?: string;
  bounds: Partial<Record<Bound, number>>;
  properties: Map<string, At>;
  required: Set<string>;
  readOnly: boolean;
  writeOnly: boolean;
  items?: At;
  additionalProperties?: At;
  oneOf?: At[];
  anyOf?: At[];
}

export class SpecDoc {
  private readonly flats = new Map<string, Flat>();
  private readonly refs = new Map<string, At>();

  constructor(
    readonly root: Obj,
    /** What messages call this document: a path or `git:REF:path`. */
    readonly display: string,
  ) {}

  at(ptr: string): At {
    const tokens = refTokens(`#${ptr}`) ?? [];
    return child({ node: this.root, ptr: "" }, ...tokens);
  }

  /** Follows $ref chains (local only) to the node they name; a cycle or a dangling ref stops the walk. */
  deref(at: At): At {
    let cur = at;
    for (let hops = 0; hops < 32 && isObj(cur.node) && typeof cur.node.$ref === "string"; hops++) {
      const ref = cur.node.$ref;
      if (!ref.startsWith("#")) break;
      let next = this.refs.get(ref);
      if (!next) {
        next = this.at(ref.slice(1));
        this.refs.set(ref, next);
      }
      if (next.node === undefined) break;
      cur = next;
    }
    return cur;
  }

  /** The schema at `at` with $refs followed and allOf merged; cached by pointer. */
  flat(at: At): Flat {
    const resolved = this.deref(at);
    const hit = this.flats.get(resolved.ptr);
    if (hit) return hit;
    const flat = emptyFlat(resolved.ptr);
    if (isObj(resolved.node) && typeof resolved.node.description === "string")
      flat.description = resolved.node.description;
    this.flats.set(resolved.ptr, flat); // set first: a recursive allOf sees the partial result, not a loop
    this.merge(flat, resolved, new Set());
    return flat;
  }

  private merge(flat: Flat, at: At, seen: Set<string>): void {
    const r = this.deref(at);
    if (seen.has(r.ptr) || !isObj(r.node)) return;
    seen.add(r.ptr);
    const s = r.node;
    const types = typesOf(s);
    if (types.types) flat.types = flat.types ? intersect(flat.types, types.types) : types.types;
    if (types.nullable) flat.nullable = true;
    if (Array.isArray(s.enum)) {
      const values = s.enum.filter((v) => v !== null);
      if (s.enum.includes(null)) flat.nullable = true;
      flat.enum = flat.enum ? flat.enum.filter((v) => values.some((w) => same(v, w))) : values;
    }
    if ("const" in s) {
      flat.hasConst = true;
      flat.const = s.const;
    }
    if (typeof s.format === "string") flat.format ??= s.format;
    if (typeof s.pattern === "string") flat.pattern ??= s.pattern;
    for (const b of BOUNDS) {
      const v = s[b];
      if (typeof v !== "number") continue;
      const cur = flat.bounds[b];
      flat.bounds[b] = cur === undefined ? v : b.startsWith("max") ? Math.min(cur, v) : Math.max(cur, v);
    }
    if (typeof s.exclusiveMaximum === "number")
      flat.bounds.maximum = Math.min(flat.bounds.maximum ?? Infinity, s.exclusiveMaximum);
    if (typeof s.exclusiveMinimum === "number")
      flat.bounds.minimum = Math.max(flat.bounds.minimum ?? -Infinity, s.exclusiveMinimum);
    if (s.readOnly === true) flat.readOnly = true;
    if (s.writeOnly === true) flat.writeOnly = true;
    if (isObj(s.properties)) {
      for (const name of Object.keys(s.properties)) {
        if (!flat.properties.has(name)) flat.properties.set(name, child(r, "properties", name));
      }
    }
    if (Array.isArray(s.required)) for (const name of s.required) if (typeof name === "string") flat.required.add(name);
    if (s.items !== undefined && !Array.isArray(s.items)) flat.items ??= child(r, "items");
    if (isObj(s.additionalProperties)) flat.additionalProperties ??= child(r, "additionalProperties");
    if (Array.isArray(s.oneOf)) flat.oneOf ??= s.oneOf.map((_, i) => child(r, "oneOf", i));
    if (Array.isArray(s.anyOf)) flat.anyOf ??= s.anyOf.map((_, i) => child(r, "anyOf", i));
    if (Array.isArray(s.allOf)) s.allOf.forEach((_, i) => this.merge(flat, child(r, "allOf", i), seen));
  }
}

function emptyFlat(ptr: string): Flat {
  return {
    ptr,
    nullable: false,
    hasConst: false,
    bounds: {},
    properties: new Map(),
    required: new Set(),
    readOnly: false,
    writeOnly: false,
  };
}

/** OpenAPI 3.0 `nullable: true` and 3.1 `type: [.., "null"]` both become `nullable`. */
function typesOf(s: Obj): { types?: Set<string>; nullable: boolean } {
  const raw = s.type;
  const list =
    typeof raw === "string"
      ? [raw]
      : Array.isArray(raw)
        ? raw.filter((t): t is string => typeof t === "string")
        : undefined;
  const nullable = s.nullable === true || (list?.includes("null") ?? false);
  if (!list) return { nullable };
  const types = new Set(list.filter((t) => t !== "null"));
  return { types: types.size > 0 ? types : undefined, nullable };
}

function intersect(a: Set<string>, b: Set<string>): Set<string> {
  const out = new Set([...a].filter((t) => b.has(t) || (t === "integer" && b.has("number"))));
  for (const t of b) if (t === "integer" && a.has("number")) out.add("integer");
  return out;
}

export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return JSON.stringify(a) === JSON.stringify(b);
}
