// --lenient repairs of objects that carry members OpenAPI does not define there (repairs of schemas
// are in lenient.ts): the top level (Google Cloud Build's `source`), parameters in Swagger 2.0's form
// (Xero's `type` beside `$ref` or `schema`), and Reference Objects with siblings. One warning each.
import { toPointer } from "./json-pointer.ts";
import type { SpecProblem } from "./spec-error.ts";

type Obj = Record<string, unknown>;

const TOP_LEVEL = {
  "3.0": ["openapi", "info", "servers", "paths", "components", "security", "tags", "externalDocs"],
  "3.1": ["openapi", "info", "jsonSchemaDialect", "servers", "paths", "webhooks", "components", "security", "tags", "externalDocs"],
};

const PARAMETER_MEMBERS = new Set(["name", "in", "description", "required", "deprecated", "allowEmptyValue", "style", "explode", "allowReserved", "schema", "example", "examples", "content"]);

/** Swagger 2.0 put a parameter's schema keywords on the parameter itself. */
const SCHEMA_KEYWORDS = new Set(["type", "format", "items", "enum", "default", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "nullable"]);

/** What a Reference Object may hold besides $ref (3.1 adds summary and description; 3.0 ignores the rest). */
const REFERENCE_MEMBERS = new Set(["$ref", "summary", "description"]);

const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const names = (keys: string[]) => keys.map((k) => `'${k}'`).join(", ");

export function repairObjects(document: Obj, version: "3.0" | "3.1"): SpecProblem[] {
  const warnings: SpecProblem[] = [];
  const unknown = Object.keys(document).filter((k) => !TOP_LEVEL[version].includes(k) && !k.startsWith("x-"));
  for (const key of unknown) {
    delete document[key];
    warnings.push({ pointer: toPointer([key]), problem: `'${key}' is not a member of the OpenAPI object: left out` });
  }
  const parameterLists: [unknown, string[]][] = [];
  for (const [path, item] of Object.entries(isObj(document.paths) ? document.paths : {})) {
    if (!isObj(item)) continue;
    parameterLists.push([item.parameters, ["paths", path, "parameters"]]);
    for (const [method, op] of Object.entries(item)) if (isObj(op) && Array.isArray(op.parameters)) parameterLists.push([op.parameters, ["paths", path, method, "parameters"]]);
  }
  for (const [list, path] of parameterLists) if (Array.isArray(list)) list.forEach((p, i) => repairParameter(p, [...path, String(i)], warnings));
  const components = isObj(document.components) ? document.components : {};
  for (const [name, p] of Object.entries(isObj(components.parameters) ? components.parameters : {})) repairParameter(p, ["components", "parameters", name], warnings);
  return warnings;
}

function repairParameter(value: unknown, path: string[], warnings: SpecProblem[]): void {
  if (!isObj(value)) return;
  if (typeof value.$ref === "string") {
    const extra = Object.keys(value).filter((k) => !REFERENCE_MEMBERS.has(k) && !k.startsWith("x-"));
    if (extra.length === 0) return;
    for (const k of extra) delete value[k];
    warnings.push({ pointer: toPointer(path), problem: `${names(extra)} beside $ref: a Reference Object holds only $ref (the parameter it names says the rest): left out` });
    return;
  }
  const extra = Object.keys(value).filter((k) => !PARAMETER_MEMBERS.has(k) && !k.startsWith("x-"));
  if (extra.length === 0) return;
  const keywords = extra.filter((k) => SCHEMA_KEYWORDS.has(k));
  const others = extra.filter((k) => !SCHEMA_KEYWORDS.has(k));
  if (keywords.length > 0 && value.schema === undefined && value.content === undefined) {
    value.schema = Object.fromEntries(keywords.map((k) => [k, value[k]]));
    warnings.push({ pointer: toPointer(path), problem: `${names(keywords)} on the parameter (Swagger 2.0's form): moved into its schema` });
  } else if (keywords.length > 0) {
    warnings.push({ pointer: toPointer(path), problem: `${names(keywords)} beside the parameter's schema (Swagger 2.0's form): left out, the schema says what the value is` });
  }
  if (others.length > 0) warnings.push({ pointer: toPointer(path), problem: `${names(others)} is not a member of a Parameter Object: left out` });
  for (const k of extra) delete value[k];
}
