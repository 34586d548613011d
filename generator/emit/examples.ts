// Examples of each operation taken from the spec: the input a call needs (path parameters, required
// query parameters, the request body's example) and the success answer's example. They feed the JSDoc
// @example of client methods, the README's per-operation examples and the wire tests shipped with --package.
import { resolvePointer } from "../load/json-pointer.ts";
import type { OperationModel, SpecModel } from "../model/types.ts";
import { codeJson } from "../spec-text.ts";

type Obj = Record<string, unknown>;

export interface OperationExample {
  /** The generated method's `input` argument. */
  input: { params?: Obj; query?: Obj; body?: unknown };
  /** The success status and the example body declared for it, when the spec gives one. */
  response?: { status: number; body: unknown };
}

/** Stands in for an id the spec gives no example of (ids are UUIDs). */
export const SAMPLE_ID = "3f1c2a9e-7b4d-4e0a-9c61-5d2b8f0e4a17";

function isObj(x: unknown): x is Obj {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** Follows local $refs (a bounded number of hops). */
function deref(document: Obj, node: unknown): unknown {
  let current = node;
  for (let hops = 0; hops < 10 && isObj(current) && typeof current.$ref === "string"; hops++)
    current = resolvePointer(document, current.$ref);
  return current;
}

/** `example`, else the first of `examples` (a value, or an Example object's value). */
function exampleOf(document: Obj, holder: unknown): unknown {
  const resolved = deref(document, holder);
  if (!isObj(resolved)) return undefined;
  if (resolved.example !== undefined) return resolved.example;
  if (isObj(resolved.examples)) {
    const first = Object.values(resolved.examples)[0];
    const example = deref(document, first);
    return isObj(example) && "value" in example ? example.value : undefined;
  }
  if (Array.isArray(resolved.examples)) return resolved.examples[0];
  return undefined;
}

function parameterExample(document: Obj, raw: unknown, name: string): unknown {
  const param = deref(document, raw);
  const direct = exampleOf(document, param);
  if (direct !== undefined) return direct;
  const schema = isObj(param) ? deref(document, param.schema) : undefined;
  if (isObj(schema)) {
    if (schema.example !== undefined) return schema.example;
    if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
    if (schema.default !== undefined) return schema.default;
    if (schema.type === "integer" || schema.type === "number") return 1;
    if (schema.type === "boolean") return true;
  }
  return /(^|_)id$/.test(name) ? SAMPLE_ID : name;
}

function jsonContent(document: Obj, holder: unknown): unknown {
  const resolved = deref(document, holder);
  if (!isObj(resolved) || !isObj(resolved.content)) return undefined;
  const entry = Object.entries(resolved.content).find(([type]) => /json/i.test(type));
  return entry?.[1];
}

export function operationExample(model: SpecModel, op: OperationModel): OperationExample {
  const document = model.document;
  const pointer = op.pointer.startsWith("#") ? op.pointer : `#${op.pointer}`;
  const raw = resolvePointer(document, pointer);
  const operation = isObj(raw) ? raw : {};
  const pathItem = resolvePointer(document, pointer.replace(/\/[^/]+$/, ""));
  const rawParams = [
    ...(isObj(pathItem) && Array.isArray(pathItem.parameters) ? pathItem.parameters : []),
    ...(Array.isArray(operation.parameters) ? operation.parameters : []),
  ];
  const rawParam = (name: string, location: string) =>
    rawParams.find((p) => {
      const param = deref(document, p);
      return isObj(param) && param.name === name && param.in === location;
    });
  const input: OperationExample["input"] = {};
  if (op.params.path.length > 0)
    input.params = Object.fromEntries(
      op.params.path.map((p) => [p.key, parameterExample(document, rawParam(p.name, "path"), p.name)]),
    );
  const query = op.params.query.filter((p) => p.required);
  if (query.length > 0)
    input.query = Object.fromEntries(
      query.map((p) => [p.key, parameterExample(document, rawParam(p.name, "query"), p.name)]),
    );
  if (op.body) {
    const body = exampleOf(document, jsonContent(document, operation.requestBody));
    input.body = body ?? (op.body.required ? {} : undefined);
    if (input.body === undefined) delete input.body;
  }
  const responses = isObj(operation.responses) ? operation.responses : {};
  const success = jsonContent(document, responses[String(op.successStatus)]);
  const body = exampleOf(document, success);
  return { input, response: body === undefined ? undefined : { status: op.successStatus, body } };
}

/** The example as TypeScript source of the input argument ("" when the method needs none). */
export function inputSource(example: OperationExample): string {
  const parts = Object.entries(example.input).filter(([, v]) => v !== undefined);
  if (parts.length === 0) return "";
  return codeJson(Object.fromEntries(parts), 2).replace(/"([A-Za-z_$][\w$]*)":/g, "$1:");
}
