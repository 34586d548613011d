// Plausible request values built from an operation's schemas, for requests whose exact content does
// not matter (the auth matrix) and as the base of requests that do (fixtures override fields).
import { type ZodType, z } from "zod";

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  minimum?: number;
  minItems?: number;
  format?: string;
  default?: unknown;
};

/** Each schema's JSON Schema, converted once: the auth matrix samples the same operations many times. */
const converted = new WeakMap<ZodType, JsonSchema | null>();

/** A value accepted by `schema` as far as a generic builder can tell; undefined when there is no schema. */
export function sampleFromZod(schema: ZodType | undefined): unknown {
  if (!schema) return undefined;
  let json = converted.get(schema);
  if (json === undefined) {
    try {
      json = z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) as JsonSchema;
    } catch {
      json = null;
    }
    converted.set(schema, json);
  }
  // A copy: a caller may change the sample, and a default or const value lives in the cached schema.
  return json === null ? {} : structuredClone(sampleFromJsonSchema(json, 0));
}

/** Sample query parameters (required ones only), as strings. */
export function sampleQuery(schema: ZodType | undefined): Record<string, string> {
  const value = sampleFromZod(schema);
  const out: Record<string, string> = {};
  if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) if (v !== undefined) out[k] = String(v);
  }
  return out;
}

function sampleFromJsonSchema(s: JsonSchema, depth: number): unknown {
  if (depth > 6) return null;
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined) return s.default;
  if (s.enum && s.enum.length > 0) return s.enum[0];
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives && alternatives.length > 0) {
    const nonNull = alternatives.find((a) => a.type !== "null") ?? alternatives[0];
    return sampleFromJsonSchema(nonNull, depth + 1);
  }
  if (s.allOf && s.allOf.length > 0) {
    return Object.assign({}, ...s.allOf.map((part) => sampleFromJsonSchema(part, depth + 1) as object));
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const name of s.required ?? []) {
        const prop = s.properties?.[name];
        out[name] = prop ? sampleFromJsonSchema(prop, depth + 1) : "x";
      }
      return out;
    }
    case "array":
      return Array.from({ length: Math.max(s.minItems ?? 0, s.items ? 1 : 0) }, () =>
        sampleFromJsonSchema(s.items ?? {}, depth + 1),
      );
    case "string":
      return sampleString(s);
    case "integer":
    case "number":
      return s.minimum ?? 1;
    case "boolean":
      return false;
    case "null":
      return null;
    default:
      return properties(s) ? sampleFromJsonSchema({ ...s, type: "object" }, depth) : "x";
  }
}

function properties(s: JsonSchema): boolean {
  return s.properties !== undefined;
}

function sampleString(s: JsonSchema): string {
  switch (s.format) {
    case "date-time":
      return new Date(0).toISOString();
    case "date":
      return "1970-01-01";
    case "uri":
    case "url":
      return "https://example.invalid/hook";
    case "uuid":
      return "00000000-0000-4000-8000-000000000000";
    case "email":
      return "certify@example.invalid";
  }
  return "certify".padEnd(Math.max(s.minLength ?? 1, 7), "x");
}
