// An OpenAPI document's operations as MCP tools: the generator's model (the same one the SDK is
// generated from) turned into the tool table runtime/mcp serves. Inputs become one flat object (path,
// query and header parameters, then the body's members), names fit 64 characters and stay unique.
import { createHash } from "node:crypto";
import type { ToolArgument, ToolOperation } from "../../runtime/mcp/tool-table.ts";
import type { OperationModel, ParameterModel, SpecModel } from "../model/types.ts";
import { agentAllowed, effectOf } from "./effects.ts";
import { inlineSchema, loosen } from "./inline-schema.ts";
import { cleanText, titleFromName } from "./text.ts";

export const MAX_TOOL_NAME = 64;
type Json = Record<string, unknown>;

const IDEMPOTENCY_HEADER = /^idempotency-?key$/i;

/** [A-Za-z0-9_-] only, at most 64; a cut or taken name ends in a short hash of the operation id. */
export function toolNames(ids: readonly string[]): string[] {
  const used = new Set<string>();
  return ids.map((id) => {
    let name = id.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "") || "operation";
    if (name.length > MAX_TOOL_NAME || used.has(name)) {
      const hash = createHash("sha256").update(id).digest("hex").slice(0, 8);
      name = `${name.slice(0, MAX_TOOL_NAME - 9)}_${hash}`;
    }
    used.add(name);
    return name;
  });
}

interface Member {
  arg: ToolArgument;
  schema: Json | boolean;
  required: boolean;
}

function parameterMember(model: SpecModel, p: ParameterModel, taken: Set<string>): Member {
  const inlined = inlineSchema(model.resolver, p.schema, "input");
  // The parameter's own description says more than its type's (a shared id format, say).
  const schema =
    typeof inlined === "object" && p.description ? { ...inlined, description: cleanText(p.description, 300) } : inlined;
  const name = taken.has(p.name) ? `${p.in}_${p.name}` : p.name;
  taken.add(name);
  return {
    arg: { name, place: p.in as ToolArgument["place"], key: p.key },
    schema,
    required: p.required || p.in === "path",
  };
}

/** The body's members, each an argument; a body that is not one plain object is one `body` argument. */
function bodyMembers(model: SpecModel, op: OperationModel, taken: Set<string>): Member[] {
  if (op.body === undefined) return [];
  const schema = inlineSchema(model.resolver, op.body.schema, "input");
  const plain =
    typeof schema === "object" && schema.properties !== undefined && !schema.anyOf && !schema.oneOf && !schema.allOf;
  if (!plain || !/json/i.test(op.body.mediaType)) {
    const name = taken.has("body") ? "request_body" : "body";
    return [
      {
        arg: { name, place: "whole-body" },
        schema:
          typeof schema === "object" && op.body.description
            ? { ...schema, description: cleanText(op.body.description, 300) }
            : schema,
        required: op.body.required,
      },
    ];
  }
  const required = new Set(op.body.required ? (((schema as Json).required as string[] | undefined) ?? []) : []);
  return Object.entries((schema as Json).properties as Json).map(([key, member]) => {
    const name = taken.has(key) ? `body_${key}` : key;
    taken.add(name);
    return { arg: { name, place: "body" as const, key }, schema: member as Json, required: required.has(key) };
  });
}

function inputOf(model: SpecModel, op: OperationModel): { schema: Json; args: ToolArgument[] } {
  const taken = new Set<string>();
  const params = [
    ...op.params.path,
    ...op.params.query,
    ...op.params.header.filter((p) => !IDEMPOTENCY_HEADER.test(p.name)),
  ];
  const members = [...params.map((p) => parameterMember(model, p, taken)), ...bodyMembers(model, op, taken)];
  const required = members.filter((m) => m.required).map((m) => m.arg.name);
  const schema: Json = { type: "object", properties: Object.fromEntries(members.map((m) => [m.arg.name, m.schema])) };
  if (required.length > 0) schema.required = required;
  return { schema, args: members.map((m) => m.arg) };
}

function dataSchemaOf(model: SpecModel, op: OperationModel): Json | boolean {
  const success = op.success;
  const schema = success?.dataSchema ?? success?.schema;
  return schema === undefined ? true : loosen(inlineSchema(model.resolver, schema, "output"));
}

function toolOperation(model: SpecModel, op: OperationModel, tool: string): ToolOperation {
  const input = inputOf(model, op);
  const idempotencyHeader = op.params.header.find((p) => IDEMPOTENCY_HEADER.test(p.name))?.name;
  const pagination = op.pagination;
  return {
    tool,
    operationId: op.operationId,
    method: op.name,
    httpMethod: op.method,
    successStatus: op.successStatus,
    envelope: op.envelope,
    path: op.path,
    tag: op.tag,
    title: cleanText(op.summary, 120) || titleFromName(op.operationId),
    description: cleanText([op.summary, op.description].filter(Boolean).join("\n\n")),
    effect: effectOf(op.operationId, op.method, op.extensions),
    agent: agentAllowed(op.extensions),
    inputSchema: input.schema,
    dataSchema: dataSchemaOf(model, op),
    arguments: input.args,
    scopes: op.scopes,
    idempotent: op.idempotent,
    ...(idempotencyHeader ? { idempotencyHeader } : {}),
    ...(pagination
      ? {
          pagination: {
            offset: pagination.offset.name,
            limit: pagination.limit.name,
            itemsPath: pagination.itemsPath,
            ...(pagination.maxLimit ? { maxLimit: pagination.maxLimit } : {}),
          },
        }
      : {}),
  };
}

export function toolTable(model: SpecModel): ToolOperation[] {
  const names = toolNames(model.operations.map((op) => op.operationId));
  return model.operations.map((op, i) => toolOperation(model, op, names[i]));
}
