// --lenient: repairs the ways published documents are commonly invalid, one warning per repair, so
// they generate; without it these stay errors (file#/pointer). Repairs change only what is invalid.
import { toPointer } from "./json-pointer.ts";
import { repairParameters } from "./lenient-parameters.ts";
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
      warnings.push({ pointer: toPointer([...path, "schema"]), problem: "schema: null is not a schema: left out (any value)" });
    }
    if (version === "3.0") repairNullType(record, path, warnings);
    for (const [key, value] of Object.entries(record)) if (!DATA_KEYS.has(key)) visit(value, [...path, key]);
  };
  visit(document, []);
  repairSchemeNames(document, warnings);
  warnings.push(...repairParameters(document));
  return warnings;
}

/** HTTP auth scheme names are case-insensitive (RFC 9110 section 11.1); the OpenAPI schema wants "bearer". */
function repairSchemeNames(document: Record<string, unknown>, warnings: SpecProblem[]): void {
  const schemes = ((document.components ?? {}) as Record<string, unknown>).securitySchemes;
  if (schemes === null || typeof schemes !== "object") return;
  for (const [name, scheme] of Object.entries(schemes as Record<string, Record<string, unknown>>)) {
    if (scheme?.type !== "http" || typeof scheme.scheme !== "string" || scheme.scheme === scheme.scheme.toLowerCase()) continue;
    warnings.push({ pointer: toPointer(["components", "securitySchemes", name, "scheme"]), problem: `scheme ${JSON.stringify(scheme.scheme)} read as ${JSON.stringify(scheme.scheme.toLowerCase())} (scheme names are case-insensitive)` });
    scheme.scheme = scheme.scheme.toLowerCase();
  }
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
      warnings.push({ pointer, problem: `type ${JSON.stringify(type)} is not OpenAPI 3.0: read as ${JSON.stringify(others[0])}${others.length !== type.length ? ", nullable: true" : ""}` });
    }
  }
}
