// --lenient: parameters written in Swagger 2.0's form (schema keywords such as `type` on the parameter
// itself) get them moved into their schema, or left out beside one, one warning each. Other members
// the OpenAPI schema does not allow are left out by lenient-members.ts.
import { toPointer } from "./json-pointer.ts";
import type { SpecProblem } from "./spec-error.ts";

type Obj = Record<string, unknown>;

const PARAMETER_MEMBERS = new Set([
  "name",
  "in",
  "description",
  "required",
  "deprecated",
  "allowEmptyValue",
  "style",
  "explode",
  "allowReserved",
  "schema",
  "example",
  "examples",
  "content",
]);

/** Swagger 2.0 put a parameter's schema keywords on the parameter itself. */
const SCHEMA_KEYWORDS = new Set([
  "type",
  "format",
  "items",
  "enum",
  "default",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "uniqueItems",
  "nullable",
]);

const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const names = (keys: string[]) => keys.map((k) => `'${k}'`).join(", ");

export function repairParameters(document: Obj): SpecProblem[] {
  const warnings: SpecProblem[] = [];
  const parameterLists: [unknown, string[]][] = [];
  for (const [path, item] of Object.entries(isObj(document.paths) ? document.paths : {})) {
    if (!isObj(item)) continue;
    parameterLists.push([item.parameters, ["paths", path, "parameters"]]);
    for (const [method, op] of Object.entries(item))
      if (isObj(op) && Array.isArray(op.parameters))
        parameterLists.push([op.parameters, ["paths", path, method, "parameters"]]);
  }
  for (const [list, path] of parameterLists)
    if (Array.isArray(list)) list.forEach((p, i) => repairParameter(p, [...path, String(i)], warnings));
  const components = isObj(document.components) ? document.components : {};
  for (const [name, p] of Object.entries(isObj(components.parameters) ? components.parameters : {}))
    repairParameter(p, ["components", "parameters", name], warnings);
  return warnings;
}

function repairParameter(value: unknown, path: string[], warnings: SpecProblem[]): void {
  if (!isObj(value)) return;
  // A Reference Object's other members are ignored (OpenAPI 3.0.3, Reference Object: "any properties added
  // SHALL be ignored"): valid as they are.
  if (typeof value.$ref === "string") return;
  const keywords = Object.keys(value).filter((k) => !PARAMETER_MEMBERS.has(k) && SCHEMA_KEYWORDS.has(k));
  if (keywords.length === 0) return;
  if (value.schema === undefined && value.content === undefined) {
    value.schema = Object.fromEntries(keywords.map((k) => [k, value[k]]));
    warnings.push({
      pointer: toPointer(path),
      problem: `${names(keywords)} on the parameter (Swagger 2.0's form): moved into its schema`,
    });
  } else {
    warnings.push({
      pointer: toPointer(path),
      problem: `${names(keywords)} beside the parameter's schema (Swagger 2.0's form): left out, the schema says what the value is`,
    });
  }
  // Other unknown members are lenient-members.ts's.
  for (const k of keywords) delete value[k];
}
