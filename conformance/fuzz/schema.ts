// The request schemas the fuzzer draws from: each input of an operation (path, query, headers,
// body) as JSON Schema, converted once from the generated zod schemas (the spec, compiled). The zod
// schema stays the judge of what is valid; spec-only rules zod does not carry (uniqueItems, a URI
// being ASCII) are added from spec/openapi.yaml by constraints.ts.
import { type ZodType, z } from "zod";
import type { OperationInfo } from "../run/operations.ts";
import { specInputs as specInputsOf } from "./constraints.ts";

export type { InputPart, JsonSchema } from "./json-schema-types.ts";

import type { InputPart, JsonSchema } from "./json-schema-types.ts";

export const INPUT_PARTS: readonly InputPart[] = ["params", "query", "headers", "body"];

const cache = new WeakMap<ZodType, JsonSchema>();

/** JSON Schema of a zod schema as a request input (defaults optional), or undefined when it has none. */
export function jsonSchemaOf(schema: ZodType | undefined): JsonSchema | undefined {
  if (!schema) return undefined;
  let json = cache.get(schema);
  if (!json) {
    json = z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) as JsonSchema;
    cache.set(schema, json);
  }
  return json;
}

/** What the generator draws from: the spec's own schema of the input, else the zod schema's export. */
export function inputSchema(op: OperationInfo, part: InputPart): JsonSchema | undefined {
  const zod = zodOf(op, part);
  if (!zod) return undefined;
  return specInputsOf(op.operationId)[part] ?? jsonSchemaOf(zod);
}

export function zodOf(op: OperationInfo, part: InputPart): ZodType | undefined {
  return part === "params"
    ? op.paramsSchema
    : part === "query"
      ? op.querySchema
      : part === "headers"
        ? op.headersSchema
        : op.bodySchema;
}

/** The schema's types as a list ("integer" counts as a number too). */
export function typesOf(schema: JsonSchema): string[] {
  if (schema.type === undefined) return [];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}
