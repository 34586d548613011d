// Whether a place in an OpenAPI document holds a Schema Object, from the keys on the way to it.

/** Keys under which a Schema Object stands. */
const SCHEMA_KEYS = new Set([
  "schema",
  "items",
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "additionalItems",
  "unevaluatedItems",
  "unevaluatedProperties",
]);
/** Maps whose members are Schema Objects. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "definitions", "$defs", "dependentSchemas"]);
/** Lists whose items are Schema Objects. */
const SCHEMA_LISTS = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);

export function isSchemaAt(path: readonly string[]): boolean {
  const [parent, key] = [path[path.length - 2], path[path.length - 1]];
  if (key === undefined) return false;
  if (SCHEMA_KEYS.has(key)) return true;
  if (parent === "schemas") return path[path.length - 3] === "components";
  return parent !== undefined && (SCHEMA_MAPS.has(parent) || SCHEMA_LISTS.has(parent));
}
