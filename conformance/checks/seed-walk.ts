// Checks a payload against the seed's tables (seed-tables.ts) at every depth: required fields
// present, each field of the type its table gives, nested resources and array items walked in turn.
// One walker for every table, so a rule is never stricter in one check than in another.
import { SEED_TABLES, type SeedScalar, type SeedTableName, type SeedType } from "./seed-tables.ts";

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/i;
const INT64_MAX = 2 ** 63;

/**
 * What is wrong with `value` as a record of `table`, one phrase per problem, each naming where
 * (`data[0].asset.network.chain_id`) and the seed section. An optional field that is absent or null
 * is no problem: the seed marks it optional and does not say how absence is written.
 */
export function seedProblems(value: unknown, table: SeedTableName, where = "data"): string[] {
  const spec = SEED_TABLES[table];
  if (!isRecord(value)) return [`${where} is ${describe(value)}, not a ${table} object (§${spec.section})`];
  const problems: string[] = [];
  for (const [name, field] of Object.entries(spec.fields) as Array<[string, { type: SeedType; required?: boolean }]>) {
    const at = `${where}.${name}`;
    const v = value[name];
    if (v === undefined || v === null) {
      if (field.required)
        problems.push(`${at} is ${v === null ? "null" : "missing"}, but §${spec.section} requires ${table}.${name}`);
      continue;
    }
    problems.push(...typeProblems(v, field.type, at, `§${spec.section} ${table}.${name}`));
  }
  return problems;
}

/** The problems of a list whose every item must be a `table` record. */
export function seedListProblems(value: unknown, table: SeedTableName, where = "data"): string[] {
  if (!Array.isArray(value)) return [`${where} is ${describe(value)}, not an array of ${table}`];
  return value.flatMap((item, i) => seedProblems(item, table, `${where}[${i}]`));
}

function typeProblems(value: unknown, type: SeedType, at: string, source: string): string[] {
  if (typeof type === "string")
    return hasScalarType(value, type) ? [] : [`${at} is ${describe(value)}, not ${article(type)} (${source})`];
  if ("table" in type) return seedProblems(value, type.table, at);
  if (!Array.isArray(value)) return [`${at} is ${describe(value)}, not an array (${source})`];
  return value.flatMap((item, i) => typeProblems(item, type.arrayOf, `${at}[${i}]`, source));
}

function hasScalarType(value: unknown, type: SeedScalar): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return Number.isInteger(value);
    case "int64":
      return Number.isInteger(value) && Math.abs(value as number) < INT64_MAX;
    case "boolean":
      return typeof value === "boolean";
    case "object":
      return isRecord(value);
    case "date-time":
      return typeof value === "string" && DATE_TIME.test(value);
  }
}

function article(type: SeedScalar): string {
  switch (type) {
    case "int64":
      return "an integer (int64)";
    case "integer":
      return "an integer";
    case "object":
      return "an object";
    case "date-time":
      return "an ISO 8601 date-time";
    default:
      return `a ${type}`;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A value in a few characters, for a failure message. */
function describe(value: unknown): string {
  if (value === undefined) return "missing";
  if (Array.isArray(value)) return "an array";
  if (isRecord(value)) return "an object";
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
