// The resolved schema model both emitters print from: every schema rewritten once into plain JSON
// Schema 2020-12 with
//   - OpenAPI 3.0's `nullable` and boolean exclusiveMinimum/Maximum turned into their 2020-12 forms,
//   - `type` always an array of known type names (anything else is an error with its pointer),
//   - refs to places other than components/schemas inlined, component refs spelled one way,
//   - allOf merged as JSON Schema means it: every member's constraints hold (merge-keywords.ts: types
//     intersected, bounds tightened, properties merged keyword by keyword, another member's
//     additionalProperties applied to the properties it does not declare), except that a composite
//     closed by `additionalProperties: false` (its own, or every member's) is closed over the union of
//     the members' properties, as its authors mean (closedOver). What cannot be merged into one node
//     stays in `allOf` as the remaining members, which the emitters intersect.
// Keywords no emitter expresses are reported as warnings naming their pointer.
import { resolvePointer, toPointer } from "../load/json-pointer.ts";
import type { SpecProblem } from "../load/spec-error.ts";
import { ANNOTATIONS, mergeTwo } from "./merge-keywords.ts";
import { componentKey } from "./schema-utils.ts";
import type { NamedSchema, Schema, SchemaObject } from "./types.ts";

export const JSON_TYPES = ["string", "number", "integer", "boolean", "null", "array", "object"] as const;
const KNOWN_TYPES = new Set<string>(JSON_TYPES);

/** Keywords the emitters do not express: reported, then ignored (so the validator is looser there). */
const UNSUPPORTED = ["unevaluatedProperties", "unevaluatedItems", "$recursiveRef"];

export interface ResolveReport {
  errors: SpecProblem[];
  warnings: SpecProblem[];
}

export class SchemaResolver {
  readonly report: ResolveReport = { errors: [], warnings: [] };
  private readonly cache = new WeakMap<object, Schema>();
  private readonly resolved = new WeakSet<object>();
  private readonly inlining: string[] = [];
  private readonly reported = new Set<string>();

  constructor(
    readonly document: unknown,
    readonly version: "3.0" | "3.1",
    readonly components: ReadonlyMap<string, NamedSchema>,
  ) {}

  /**
   * $dynamicAnchor bindings in force, outermost first (JSON Schema 2020-12 section 8.2.3.2: a
   * $dynamicRef takes the outermost schema resource's anchor of its name). While any is in force,
   * schemas resolve afresh: the same schema means something else under another binding.
   */
  private readonly bindings: Map<string, { schema: Schema; pointer: string }>[] = [];

  /** The resolved form of `schema` (found at `pointer`, for messages); the same object every time. */
  resolve(schema: Schema | undefined, pointer = ""): Schema {
    if (schema === undefined || schema === null) return true;
    if (typeof schema !== "object") return schema !== false;
    if (this.resolved.has(schema)) return schema;
    const specialized = this.bindings.length > 0;
    const cached = specialized ? undefined : this.cache.get(schema);
    if (cached !== undefined) return cached;
    const frame = dynamicAnchors(schema, pointer);
    if (frame) this.bindings.push(frame);
    let out: Schema;
    try {
      out = this.normalize(schema, pointer);
    } finally {
      if (frame) this.bindings.pop();
    }
    if (typeof out === "object") this.resolved.add(out);
    if (!specialized && !frame) this.cache.set(schema, out);
    return out;
  }

  /** The resolved schema of a component ref, or undefined for other refs. */
  component(ref: string): NamedSchema | undefined {
    const key = componentKey(ref);
    return key === undefined ? undefined : this.components.get(key);
  }

  private warn(pointer: string, problem: string): void {
    const key = `${pointer}\0${problem}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.report.warnings.push({ pointer, problem });
  }

  private normalize(raw: SchemaObject, pointer: string): Schema {
    if (typeof raw.$ref === "string") return this.refNode(raw as SchemaObject & { $ref: string }, pointer);
    if (typeof raw.$dynamicRef === "string") return this.dynamicRefNode(raw, pointer);
    const out: SchemaObject = {};
    const sub = (value: unknown, ...tokens: (string | number)[]) =>
      this.resolve(value as Schema, pointer + toPointer(tokens));
    for (const [key, value] of Object.entries(raw)) {
      switch (key) {
        case "type":
          out.type = this.types(value, pointer) as string[] | undefined;
          break;
        case "nullable":
          break;
        case "properties":
        case "patternProperties":
        case "dependentSchemas":
          if (value !== null && typeof value === "object") {
            const map: Record<string, Schema> = {};
            for (const [name, child] of Object.entries(value)) map[name] = sub(child, key, name);
            out[key] = map;
          }
          break;
        case "additionalProperties":
        case "items":
        case "contains":
        case "not":
        case "if":
        case "then":
        case "else":
        case "propertyNames":
          if (Array.isArray(value))
            this.warn(`${pointer}/${key}`, `${key} as an array is not JSON Schema 2020-12: ignored`);
          else if (value !== null && value !== undefined) out[key] = sub(value, key);
          break;
        case "prefixItems":
        case "allOf":
        case "anyOf":
        case "oneOf":
          if (Array.isArray(value)) out[key] = value.map((child, i) => sub(child, key, i));
          break;
        case "pattern":
          if (typeof value === "string" && patternFlags(value) === undefined) {
            this.warn(
              `${pointer}/pattern`,
              `pattern ${JSON.stringify(value)} is not an ECMAScript regular expression: not checked`,
            );
          } else out.pattern = value as string | undefined;
          break;
        default:
          if (UNSUPPORTED.includes(key))
            this.warn(`${pointer}/${key}`, `${key} is not expressed by the generated validators: ignored`);
          else out[key] = value;
      }
    }
    if (this.version === "3.0") this.openapi30(raw, out);
    // `type` restricts enum and const: values of other types can never match.
    if (out.type !== undefined && Array.isArray(out.enum))
      out.enum = out.enum.filter((v) => fitsTypes(v, out.type as string[]));
    const node = Array.isArray(out.allOf) ? this.mergeAllOf(out) : out;
    if (raw.nullable !== true) return node;
    const nullable = admitNull(node);
    return typeof nullable === "object" ? keepAccessFlags(nullable, raw) : nullable;
  }

  /** 3.0: boolean exclusive bounds become numbers. */
  private openapi30(raw: SchemaObject, out: SchemaObject): void {
    for (const [flag, bound] of [
      ["exclusiveMinimum", "minimum"],
      ["exclusiveMaximum", "maximum"],
    ] as const) {
      if (typeof raw[flag] !== "boolean") continue;
      delete out[flag];
      if (raw[flag] === true && typeof raw[bound] === "number") {
        out[flag] = raw[bound] as number;
        delete out[bound];
      }
    }
  }

  private types(value: unknown, pointer: string): string[] | undefined {
    const list = Array.isArray(value) ? value : [value];
    const bad = list.filter((t) => typeof t !== "string" || !KNOWN_TYPES.has(t));
    if (bad.length > 0 || list.length === 0) {
      this.report.errors.push({
        pointer: `${pointer}/type`,
        problem: `type ${JSON.stringify(value)} is not one of ${JSON_TYPES.join(", ")} (or an array of them)`,
      });
      return undefined;
    }
    if (this.version === "3.0" && Array.isArray(value)) {
      this.report.errors.push({ pointer: `${pointer}/type`, problem: "type must be a single string in OpenAPI 3.0" });
    }
    return [...new Set(list as string[])];
  }

  /** Component refs stay refs (siblings, 3.1 only, join as allOf; 3.0 honours `nullable` only); others are inlined. */
  private refNode(raw: SchemaObject & { $ref: string }, pointer: string): Schema {
    let target: Schema;
    const named = this.component(raw.$ref);
    if (named !== undefined && this.bindings.length > 0 && usesBoundDynamicRef(named.schema, this.bindings)) {
      // A generic component (PaginatedResource<T>) under a binding of its anchor: specialized in place.
      target = this.resolve(named.schema, named.pointer);
    } else if (named !== undefined) {
      target = { $ref: named.ref };
      this.resolved.add(target);
    } else {
      if (this.inlining.includes(raw.$ref)) {
        this.warn(pointer, `$ref ${raw.$ref} refers to itself outside components/schemas: not checked`);
        return true;
      }
      this.inlining.push(raw.$ref);
      try {
        target = this.resolve(resolvePointer(this.document, raw.$ref) as Schema, raw.$ref.slice(1));
      } finally {
        this.inlining.pop();
      }
    }
    const { $ref: _ref, ...siblings } = raw;
    if (this.version === "3.0") {
      // 3.0 ignores a $ref's siblings, except nullable (see admitNull).
      return raw.nullable === true ? admitNull(target) : target;
    }
    const assertions = Object.keys(siblings).filter((k) => !ANNOTATIONS.has(k) && !k.startsWith("x-"));
    if (assertions.length === 0) {
      if (typeof target === "object" && typeof target.$ref === "string" && Object.keys(siblings).length > 0) {
        const annotated = { ...siblings, $ref: target.$ref };
        this.resolved.add(annotated);
        return annotated;
      }
      return target;
    }
    return this.normalize(
      { ...siblings, allOf: [target, ...((siblings.allOf as Schema[] | undefined) ?? [])] },
      pointer,
    );
  }

  /**
   * $dynamicRef "#name": the outermost binding in force (a schema that $refs a generic component and
   * declares `$defs: {x: {$dynamicAnchor: name, ...}}`), else the anchor of that name in the same
   * component (its default), else the document's only anchor of that name.
   */
  private dynamicRefNode(raw: SchemaObject, pointer: string): Schema {
    const name = String(raw.$dynamicRef).replace(/^#/, "");
    const { $dynamicRef: _d, ...rest } = raw;
    const bound = this.bindings.find((frame) => frame.has(name))?.get(name);
    if (bound !== undefined) {
      const target = this.resolve(bound.schema, bound.pointer);
      return Object.keys(rest).length === 0
        ? target
        : this.normalize({ ...rest, allOf: [target] } as SchemaObject, pointer);
    }
    const component = /^\/components\/schemas\/[^/]+/.exec(pointer)?.[0];
    const anchors: string[] = [];
    findAnchors(this.document, [], name, anchors);
    const local = component === undefined ? [] : anchors.filter((a) => a.startsWith(`${component}/`));
    const chosen = local.length === 1 ? local[0] : anchors.length === 1 ? anchors[0] : undefined;
    if (chosen === undefined) {
      this.warn(
        `${pointer}/$dynamicRef`,
        `$dynamicRef ${JSON.stringify(raw.$dynamicRef)} has ${anchors.length} matching $dynamicAnchor: not checked`,
      );
      return true;
    }
    return this.normalize({ ...rest, $ref: `#${chosen}` }, pointer);
  }

  /** allOf: the node's own keywords and every member folded into one node, leftovers kept in allOf. */
  private mergeAllOf(node: SchemaObject): Schema {
    const { allOf, ...own } = node;
    const members = allOf as Schema[];
    const ownAsserts = Object.keys(own).some((k) => !ANNOTATIONS.has(k) && !k.startsWith("x-"));
    // `allOf: [$ref]` alone (the 3.0 way to annotate a ref) is the ref: keep its name.
    if (!ownAsserts && members.length === 1 && typeof members[0] === "object" && typeof members[0].$ref === "string")
      return keepAccessFlags(members[0], own);
    const parts = members.map((member) => this.inlineable(member));
    const closedAsIs = closedOver(own, parts);
    const overRecursive = closedAsIs ? undefined : this.closedOverRecursive(own, members, parts);
    const closed = closedAsIs || overRecursive !== undefined;
    let merged: Schema = closed ? opened(own) : own;
    const kept: Schema[] = [];
    parts.forEach((part, i) => {
      if (part === undefined) kept.push(members[i]);
      else merged = mergeTwo(merged, closed ? opened(part) : part, kept);
    });
    if (merged === false) return false;
    if (closed && typeof merged === "object") merged.additionalProperties = false;
    // The recursive members' properties are declared beside them (any value: each member still
    // checks its own), so the composite's closing admits them.
    if (overRecursive !== undefined && typeof merged === "object")
      merged.properties = { ...Object.fromEntries(overRecursive.map((n) => [n, true])), ...(merged.properties ?? {}) };
    if (typeof merged === "object" && Array.isArray(merged.type) && Array.isArray(merged.enum)) {
      const types = merged.type;
      merged.enum = merged.enum.filter((v) => fitsTypes(v, types));
    }
    if (kept.length === 0) return merged;
    if (merged === true) merged = {};
    if (Object.keys(merged).length === 0 && kept.length === 1) return kept[0];
    return { ...merged, allOf: kept };
  }

  /**
   * A composite whose only unmergeable members are recursive component refs is closed over them too
   * when it would be with their schemas in place (closedOver): the names those members declare, else
   * undefined (azure.com/logic's ExpressionRoot: `{properties: {path}, allOf: [$ref: Expression]}`,
   * Expression closed and recursive).
   */
  private closedOverRecursive(
    own: SchemaObject,
    members: readonly Schema[],
    parts: readonly (Schema | undefined)[],
  ): string[] | undefined {
    const names: string[] = [];
    const targets = parts.map((part, i) => {
      if (part !== undefined) return part;
      const member = members[i];
      const named =
        typeof member === "object" && typeof member.$ref === "string" ? this.component(member.$ref) : undefined;
      if (named === undefined || typeof named.schema !== "object") return undefined;
      names.push(...Object.keys((named.schema.properties as object | undefined) ?? {}));
      return named.schema;
    });
    return names.length > 0 && closedOver(own, targets) ? names : undefined;
  }

  /** A member's keywords for merging: component refs by their resolved schema unless recursive. */
  private inlineable(member: Schema): Schema | undefined {
    if (typeof member !== "object" || typeof member.$ref !== "string") return member;
    const named = this.component(member.$ref);
    if (named === undefined || named.recursive) return undefined;
    const target = this.resolve(named.schema, named.pointer);
    const { $ref: _r, ...siblings } = member;
    if (typeof target !== "object") return target;
    // The referenced schema's description is about it, not about the composition.
    const { description: _d, ...keywords } = target;
    return Object.keys(siblings).length === 0 ? keywords : { ...keywords, ...siblings };
  }
}

/** Keywords through which an object schema admits keys other than its `properties`. */
const OTHER_KEYS = ["patternProperties", "allOf", "anyOf", "oneOf", "if", "$ref", "$dynamicRef", "dependentSchemas"];

/**
 * Whether an allOf is read as closed over the union of its members' properties: it declares
 * properties somewhere, `additionalProperties: false` stands beside the allOf or in every member, and
 * every part admits keys only through `properties` (else the literal reading stays). Read literally,
 * JSON Schema lets such a composite accept no object with a property (each member's
 * additionalProperties refuses the others' properties); its authors mean JSON Schema 2019's
 * `unevaluatedProperties: false`, and every generator's types read it so.
 */
export function closedOver(own: SchemaObject, parts: readonly (Schema | undefined)[]): boolean {
  if (parts.some((part) => part === undefined || part === false)) return false;
  const objects = parts.filter((part): part is SchemaObject => typeof part === "object");
  const all = [own, ...objects];
  const plain = (s: SchemaObject) =>
    OTHER_KEYS.every((k) => s[k] === undefined) &&
    (s.additionalProperties === undefined || s.additionalProperties === false);
  if (!all.every(plain) || !all.some((s) => s.properties !== undefined)) return false;
  const closed = (s: SchemaObject) => s.additionalProperties === false;
  return closed(own) || (objects.length > 0 && objects.every(closed));
}

/** A part of a closed composite without its own closing (the composite closes over all of them). */
function opened(part: Schema): Schema {
  if (typeof part !== "object" || part.additionalProperties !== false) return part;
  const { additionalProperties: _closed, ...rest } = part;
  return rest;
}

/**
 * `nullable: true` (OpenAPI 3.0's keyword; also read in 3.1 documents that still use it, as ajv does)
 * admits null for the whole schema it stands in, whatever its other keywords say: beside `type` (null
 * joins the type, and the enum), `enum`, `$ref`, `allOf`, `oneOf`. OpenAPI 3.0.3 lets the other
 * keywords still refuse null; authors do not mean that (Plaid's 29 `*Nullable` components are
 * `{allOf: [$ref], nullable: true}`, often with a type), and openapi-typescript reads it as `| null` too.
 */
function admitNull(node: Schema): Schema {
  if (node === true) return true;
  if (node === false) return { type: ["null"] };
  const composed = ["$ref", "allOf", "anyOf", "oneOf", "not", "if", "const"].some((k) => node[k] !== undefined);
  if (!composed && Array.isArray(node.type)) {
    if (node.type.includes("null")) return node;
    const out: SchemaObject = { ...node, type: [...node.type, "null"] };
    if (Array.isArray(node.enum) && !node.enum.includes(null)) out.enum = [...node.enum, null];
    return out;
  }
  // No type and no enum: null passes already.
  if (!composed && node.type === undefined && !Array.isArray(node.enum)) return node;
  return { anyOf: [node, { type: ["null"] }] };
}

/**
 * `{allOf: [$ref], readOnly: true}` (and the nullable form of it) keeps its readOnly/writeOnly on the
 * node it becomes (the emitters leave such a property out of one direction's types, see
 * directions.ts); without either flag the node is returned as is.
 */
function keepAccessFlags(node: SchemaObject, own: SchemaObject): SchemaObject {
  const flags = (["readOnly", "writeOnly"] as const).filter((k) => own[k] === true);
  if (flags.length === 0) return node;
  return { ...node, ...Object.fromEntries(flags.map((k) => [k, true])) };
}

/** Whether a JSON value has one of the listed types. */
export function fitsTypes(value: unknown, types: readonly string[]): boolean {
  return types.some((t) => {
    switch (t) {
      case "null":
        return value === null;
      case "integer":
        return typeof value === "number" && Number.isInteger(value);
      case "number":
        return typeof value === "number";
      case "array":
        return Array.isArray(value);
      case "object":
        return typeof value === "object" && value !== null && !Array.isArray(value);
      default:
        return typeof value === t;
    }
  });
}

/** The flags a pattern compiles with: "u" as JSON Schema means it, else none; undefined when neither. */
export function patternFlags(pattern: string): string | undefined {
  for (const flags of ["u", ""]) {
    try {
      new RegExp(pattern, flags);
      return flags;
    } catch {
      // try the next
    }
  }
  return undefined;
}

/** "#/pointer" of the only $dynamicAnchor named `name`, or undefined. */
export function dynamicAnchorRef(document: unknown, name: string): string | undefined {
  const anchors: string[] = [];
  findAnchors(document, [], name, anchors);
  return anchors.length === 1 ? `#${anchors[0]}` : undefined;
}

/** The $dynamicAnchor bindings a schema declares in its $defs, or undefined when none. */
function dynamicAnchors(
  schema: SchemaObject,
  pointer: string,
): Map<string, { schema: Schema; pointer: string }> | undefined {
  const defs = schema.$defs;
  if (defs === null || typeof defs !== "object") return undefined;
  let frame: Map<string, { schema: Schema; pointer: string }> | undefined;
  for (const [key, def] of Object.entries(defs as Record<string, Schema>)) {
    if (typeof def !== "object" || def === null || typeof def.$dynamicAnchor !== "string") continue;
    const { $dynamicAnchor: anchor, ...body } = def;
    (frame ??= new Map()).set(anchor as string, { schema: body as Schema, pointer: `${pointer}/$defs/${key}` });
  }
  return frame;
}

/** Whether a component's schema holds a $dynamicRef to a name one of the bindings binds. */
function usesBoundDynamicRef(schema: unknown, bindings: readonly Map<string, unknown>[]): boolean {
  if (schema === null || typeof schema !== "object") return false;
  if (Array.isArray(schema)) return schema.some((s) => usesBoundDynamicRef(s, bindings));
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$dynamicRef" && typeof value === "string" && bindings.some((b) => b.has(value.replace(/^#/, ""))))
      return true;
    if (
      key !== "example" &&
      key !== "examples" &&
      key !== "enum" &&
      key !== "const" &&
      key !== "default" &&
      usesBoundDynamicRef(value, bindings)
    )
      return true;
  }
  return false;
}

function findAnchors(node: unknown, path: string[], name: string, out: string[]): void {
  if (node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    node.forEach((item, i) => findAnchors(item, [...path, String(i)], name, out));
    return;
  }
  const record = node as Record<string, unknown>;
  if (record.$dynamicAnchor === name) out.push(toPointer(path));
  for (const [key, value] of Object.entries(record)) {
    if (key !== "example" && key !== "examples" && key !== "enum" && key !== "const" && key !== "default")
      findAnchors(value, [...path, key], name, out);
  }
}
