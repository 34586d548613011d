// Rules of the spec's request bodies that the generated zod schemas do not enforce, read from
// spec/openapi.yaml: arrays with uniqueItems (event types, scopes) and `format: uri` strings, which
// RFC 3986 limits to ASCII. A body that breaks one of them is invalid and must be refused (4xx).
import { readFileSync } from "node:fs";
import { CORE_SCHEMA, load } from "js-yaml";
import { packagePath } from "../../lib/package-root.ts";
import type { InputPart, JsonSchema } from "./json-schema-types.ts";

/** A location inside a body: property names, "*" for every array item. */
export type BodyPath = string[];

export interface SpecRules {
  unique: BodyPath[];
  uri: BodyPath[];
}

type Node = Record<string, unknown>;
const NONE: SpecRules = { unique: [], uri: [] };
let byOperation: Map<string, SpecRules> | undefined;
const inputs = new Map<string, Partial<Record<InputPart, JsonSchema>>>();

/** The extra rules of an operation's request body (none when the spec file cannot be read). */
export function specRules(operationId: string): SpecRules {
  byOperation ??= loadRules();
  return byOperation.get(operationId) ?? NONE;
}

/**
 * The operation's inputs as the spec writes them (refs resolved): path, query and header parameters
 * as objects, and the body. The generator draws from these (the compiled zod schemas keep lengths and
 * array rules in refinements, which JSON Schema export cannot show); zod still judges validity.
 */
export function specInputs(operationId: string): Partial<Record<InputPart, JsonSchema>> {
  byOperation ??= loadRules();
  return inputs.get(operationId) ?? {};
}

/**
 * js-yaml, core schema (no timestamps or other YAML 1.1 types): the same document as the `yaml`
 * package gives for this spec, in a fifth to a tenth of the time (certify parses it on every run).
 */
function readSpec(): Node | undefined {
  try {
    return load(readFileSync(packagePath(import.meta.url, "spec", "openapi.yaml"), "utf8"), {
      schema: CORE_SCHEMA,
    }) as Node;
  } catch {
    return undefined;
  }
}

/** A copy of `node` with every $ref replaced by its target (bounded depth: the spec has no cycles). */
function deref(node: unknown, resolve: (n: unknown) => Node | undefined, depth = 0): unknown {
  if (depth > 24 || node === null || typeof node !== "object") return node;
  if (Array.isArray(node)) return node.map((n) => deref(n, resolve, depth + 1));
  const target = (node as Node).$ref !== undefined ? resolve(node) : (node as Node);
  if (!target) return {};
  const out: Node = {};
  for (const [k, v] of Object.entries(target)) {
    if (k.startsWith("x-") || k === "description" || k === "example" || k === "examples") continue;
    // A properties map is keyed by field names (a field may be called "description"): keep every key.
    if (k === "properties" && v && typeof v === "object")
      out[k] = Object.fromEntries(Object.entries(v).map(([name, child]) => [name, deref(child, resolve, depth + 1)]));
    else out[k] = deref(v, resolve, depth + 1);
  }
  return out;
}

function parametersSchema(params: Node[], where: string, lowerCase: boolean): JsonSchema | undefined {
  const chosen = params.filter((p) => p.in === where);
  if (chosen.length === 0) return undefined;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const p of chosen) {
    const name = lowerCase ? String(p.name).toLowerCase() : String(p.name);
    properties[name] = (p.schema ?? { type: "string" }) as JsonSchema;
    if (p.required === true) required.push(name);
  }
  return { type: "object", properties, required };
}

function loadRules(): Map<string, SpecRules> {
  const rules = new Map<string, SpecRules>();
  const doc = readSpec();
  if (!doc) return rules;
  const resolve = (node: unknown): Node | undefined => {
    let n = node as Node | undefined;
    for (let hops = 0; n && typeof n.$ref === "string" && hops < 16; hops++) {
      n = (n.$ref as string)
        .replace(/^#\//, "")
        .split("/")
        .reduce<unknown>((at, key) => (at as Node | undefined)?.[key], doc) as Node | undefined;
    }
    return n;
  };
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Node>)) {
    const shared = ((item.parameters as unknown[] | undefined) ?? []).map((p) => deref(p, resolve) as Node);
    for (const op of Object.values(item)) {
      const o = op as Node;
      if (typeof o?.operationId !== "string") continue;
      const params = [
        ...shared,
        ...((o.parameters as unknown[] | undefined) ?? []).map((p) => deref(p, resolve) as Node),
      ];
      const parts: Partial<Record<InputPart, JsonSchema>> = {};
      const path = parametersSchema(params, "path", false);
      const query = parametersSchema(params, "query", false);
      const header = parametersSchema(params, "header", true);
      if (path) parts.params = path;
      if (query) parts.query = query;
      if (header) parts.headers = header;
      const rawBody = (
        ((o.requestBody as Node | undefined)?.content as Node | undefined)?.["application/json"] as Node | undefined
      )?.schema;
      if (rawBody) parts.body = deref(rawBody, resolve) as JsonSchema;
      inputs.set(o.operationId, parts);
      const body = resolve(
        (((o.requestBody as Node | undefined)?.content as Node | undefined)?.["application/json"] as Node | undefined)
          ?.schema,
      );
      if (!body) continue;
      const found: SpecRules = { unique: [], uri: [] };
      collect(body, [], found, resolve, 0);
      rules.set(o.operationId, found);
    }
  }
  return rules;
}

function collect(
  node: Node,
  path: BodyPath,
  out: SpecRules,
  resolve: (n: unknown) => Node | undefined,
  depth: number,
): void {
  if (depth > 12) return;
  if (node.uniqueItems === true) out.unique.push(path);
  if (node.format === "uri") out.uri.push(path);
  for (const part of (node.allOf as unknown[] | undefined) ?? []) {
    const sub = resolve(part);
    if (sub) collect(sub, path, out, resolve, depth + 1);
  }
  for (const [name, child] of Object.entries((node.properties ?? {}) as Record<string, unknown>)) {
    const sub = resolve(child);
    if (sub) collect(sub, [...path, name], out, resolve, depth + 1);
  }
  const items = resolve(node.items);
  if (items) collect(items, [...path, "*"], out, resolve, depth + 1);
}

/** Every value at `path` inside `value`. */
export function valuesAt(value: unknown, path: BodyPath): unknown[] {
  let current: unknown[] = [value];
  for (const key of path) {
    const next: unknown[] = [];
    for (const v of current) {
      if (key === "*" && Array.isArray(v)) next.push(...v);
      else if (v && typeof v === "object" && !Array.isArray(v) && Object.hasOwn(v, key)) next.push((v as Node)[key]);
    }
    current = next;
  }
  return current;
}

/** What the body breaks of these rules, or undefined. */
export function specProblem(rules: SpecRules, body: unknown): string | undefined {
  for (const path of rules.unique) {
    for (const list of valuesAt(body, path)) {
      if (!Array.isArray(list)) continue;
      const seen = new Set(list.map((x) => JSON.stringify(x)));
      if (seen.size !== list.length) return `${path.join(".")} has duplicate items (uniqueItems)`;
    }
  }
  for (const path of rules.uri) {
    for (const s of valuesAt(body, path)) {
      if (typeof s === "string" && /[^\x21-\x7e]/.test(s)) return `${path.join(".")} is not an ASCII URI`;
    }
  }
  return undefined;
}
