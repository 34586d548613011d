// --lenient: repairs the ways published documents are commonly invalid, one warning per repair, so
// they generate; without it these stay errors (file#/pointer). Repairs change only what is invalid.
import { toPointer } from "./json-pointer.ts";
import { repairParameters } from "./lenient-parameters.ts";
import { isSchemaAt } from "./schema-position.ts";
import type { SpecProblem } from "./spec-error.ts";

/** Keys whose values are data, not schema: never repaired. */
const DATA_KEYS = new Set(["example", "examples", "default", "enum", "const", "x-examples"]);

/** Repairs `document` in place; returns one warning per repair. */
export function repairDocument(document: Record<string, unknown>, version: "3.0" | "3.1"): SpecProblem[] {
  const warnings: SpecProblem[] = [];
  const visit = (node: unknown, path: string[]): void => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      node.forEach((item, i) => visit(item, [...path, String(i)]));
      return;
    }
    const record = node as Record<string, unknown>;
    if (Object.hasOwn(record, "schema") && record.schema === null) {
      delete record.schema;
      warnings.push({
        pointer: toPointer([...path, "schema"]),
        problem: "schema: null is not a schema: left out (any value)",
      });
    }
    if (version === "3.0") repairNullType(record, path, warnings);
    repairUnknownType(record, path, warnings);
    for (const [key, value] of Object.entries(record)) if (!DATA_KEYS.has(key)) visit(value, [...path, key]);
  };
  visit(document, []);
  repairSchemeNames(document, warnings);
  warnings.push(...repairParameters(document));
  repairQueryInPaths(document, warnings);
  return warnings;
}

/** HTTP auth scheme names are case-insensitive (RFC 9110 section 11.1); the OpenAPI schema wants "bearer". */
function repairSchemeNames(document: Record<string, unknown>, warnings: SpecProblem[]): void {
  const schemes = ((document.components ?? {}) as Record<string, unknown>).securitySchemes;
  if (schemes === null || typeof schemes !== "object") return;
  for (const [name, scheme] of Object.entries(schemes as Record<string, Record<string, unknown>>)) {
    if (scheme?.type !== "http" || typeof scheme.scheme !== "string" || scheme.scheme === scheme.scheme.toLowerCase())
      continue;
    warnings.push({
      pointer: toPointer(["components", "securitySchemes", name, "scheme"]),
      problem: `scheme ${JSON.stringify(scheme.scheme)} read as ${JSON.stringify(scheme.scheme.toLowerCase())} (scheme names are case-insensitive)`,
    });
    scheme.scheme = scheme.scheme.toLowerCase();
  }
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/**
 * A path key with a query string of templates (`/rides?page={page}&per_page={per_page}`, icons8,
 * ecotaco): the path is what comes before `?`, and the template's names are query parameters (declared
 * `in: path` or `in: query`). Left as it is when the plain path already has one of its methods.
 */
function repairQueryInPaths(document: Record<string, unknown>, warnings: SpecProblem[]): void {
  const paths = document.paths;
  if (paths === null || typeof paths !== "object") return;
  const map = paths as Record<string, Record<string, unknown>>;
  for (const key of Object.keys(map)) {
    const at = key.indexOf("?");
    const item = map[key];
    if (at < 0 || item === null || typeof item !== "object" || typeof item.$ref === "string") continue;
    // Only a query made of templates alone (`a={a}&b={b}`): a literal pair (`?cmd=run`) tells one
    // operation from another, and the path as written sends it.
    const pairs = key.slice(at + 1).split("&");
    if (!pairs.every((pair) => /^([^=&{}]+)=\{\1\}$/.test(pair))) continue;
    const base = key.slice(0, at);
    const existing = map[base];
    if (existing !== undefined && METHODS.some((m) => m in item && m in existing)) continue;
    const names = new Set([...key.slice(at).matchAll(/\{([^}]+)\}/g)].map((m) => m[1]));
    const lists = [
      item.parameters,
      ...METHODS.map((m) => (item[m] as { parameters?: unknown } | undefined)?.parameters),
    ];
    for (const list of lists) {
      if (!Array.isArray(list)) continue;
      for (const p of list) if (p && typeof p === "object" && p.in === "path" && names.has(p.name)) p.in = "query";
    }
    map[base] = existing === undefined ? item : { ...existing, ...item };
    delete map[key];
    const moved = names.size > 0 ? `; ${[...names].join(", ")} read as query parameters` : "";
    warnings.push({
      pointer: toPointer(["paths", key]),
      problem: `a query string is not part of a path: read as ${base}${moved}`,
    });
  }
}

const TYPE_NAMES = new Set(["string", "number", "integer", "boolean", "null", "array", "object"]);

/**
 * A `type` that names no JSON type: Swagger 2.0's `file` becomes a binary string (what 3.0 says for
 * it); anything else (`integr`, a schema written where a type name belongs) is left out, so the value
 * may be of any type.
 */
function repairUnknownType(record: Record<string, unknown>, path: string[], warnings: SpecProblem[]): void {
  if (!Object.hasOwn(record, "type") || !isSchemaAt(path)) return;
  const type = record.type;
  const list = Array.isArray(type) ? type : [type];
  if (list.length > 0 && list.every((t) => typeof t === "string" && TYPE_NAMES.has(t))) return;
  const pointer = toPointer([...path, "type"]);
  if (type === "file") {
    record.type = "string";
    record.format = "binary";
    warnings.push({
      pointer,
      problem: "type 'file' (Swagger 2.0) is not a JSON type: read as type string, format binary",
    });
    return;
  }
  delete record.type;
  warnings.push({
    pointer,
    problem: `type ${JSON.stringify(type).slice(0, 60)} names no JSON type: left out (any type)`,
  });
}

/** 3.0 has no null type: `type: 'null'` becomes `nullable: true, enum: [null]`; `[T, 'null']` becomes T, nullable. */
function repairNullType(record: Record<string, unknown>, path: string[], warnings: SpecProblem[]): void {
  const type = record.type;
  const pointer = toPointer([...path, "type"]);
  if (type === "null") {
    delete record.type;
    record.nullable = true;
    record.enum = [null];
    warnings.push({ pointer, problem: "type 'null' is not OpenAPI 3.0: read as nullable: true, enum: [null]" });
  } else if (Array.isArray(type) && type.every((t) => typeof t === "string")) {
    const others = type.filter((t) => t !== "null");
    if (others.length === 1) {
      record.type = others[0];
      if (others.length !== type.length) record.nullable = true;
      warnings.push({
        pointer,
        problem: `type ${JSON.stringify(type)} is not OpenAPI 3.0: read as ${JSON.stringify(others[0])}${others.length !== type.length ? ", nullable: true" : ""}`,
      });
    }
  }
}
