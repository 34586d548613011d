// Rules of the spec's request bodies that the generated zod schemas do not enforce, read from
// spec/openapi.yaml: arrays with uniqueItems (event types, scopes) and `format: uri` strings, which
// RFC 3986 limits to ASCII. A body that breaks one of them is invalid and must be refused (4xx).
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { packagePath } from "../../lib/package-root.ts";

/** A location inside a body: property names, "*" for every array item. */
export type BodyPath = string[];

export interface SpecRules {
  unique: BodyPath[];
  uri: BodyPath[];
}

type Node = Record<string, unknown>;
const NONE: SpecRules = { unique: [], uri: [] };
let byOperation: Map<string, SpecRules> | undefined;

/** The extra rules of an operation's request body (none when the spec file cannot be read). */
export function specRules(operationId: string): SpecRules {
  byOperation ??= loadRules();
  return byOperation.get(operationId) ?? NONE;
}

function loadRules(): Map<string, SpecRules> {
  const rules = new Map<string, SpecRules>();
  let doc: Node;
  try {
    doc = parse(readFileSync(packagePath(import.meta.url, "spec", "openapi.yaml"), "utf8")) as Node;
  } catch {
    return rules;
  }
  const resolve = (node: unknown): Node | undefined => {
    let n = node as Node | undefined;
    for (let hops = 0; n && typeof n.$ref === "string" && hops < 16; hops++) {
      n = (n.$ref as string).replace(/^#\//, "").split("/").reduce<unknown>((at, key) => (at as Node | undefined)?.[key], doc) as Node | undefined;
    }
    return n;
  };
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Node>)) {
    for (const op of Object.values(item)) {
      const o = op as Node;
      if (typeof o?.operationId !== "string") continue;
      const body = resolve(((((o.requestBody as Node | undefined)?.content as Node | undefined)?.["application/json"] as Node | undefined)?.schema));
      if (!body) continue;
      const found: SpecRules = { unique: [], uri: [] };
      collect(body, [], found, resolve, 0);
      rules.set(o.operationId, found);
    }
  }
  return rules;
}

function collect(node: Node, path: BodyPath, out: SpecRules, resolve: (n: unknown) => Node | undefined, depth: number): void {
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
