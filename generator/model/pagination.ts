// x-custody-pagination on an operation: how a list is paged, declared once in the document.
//
//   x-custody-pagination: { style: offset-limit, offset: <query parameter>, limit: <query parameter>,
//                           items: <JSON pointer into the success response body, e.g. "/data"> }
//
// The default and maximum page size are not repeated here: they are the `default` and `maximum` of
// the limit parameter's schema (one source, which `custody diff` reads too). Every mistake is a
// problem at the extension's pointer, so `custody generate` names the file and the place.
import { escapeToken, toPointer, unescapeToken } from "../load/json-pointer.ts";
import type { SpecProblem } from "../load/spec-error.ts";
import { derefSchema, type FlatObject, flattenObject, typeInfo } from "./schema-utils.ts";
import type { OperationModel, PaginationModel, ParameterModel, Schema } from "./types.ts";

export const PAGINATION_EXTENSION = "x-custody-pagination";
/** What the generated client re-exports from runtime/http/paginate.ts when a list is paged. */
export const PAGING_EXPORTS = ["PagedOperation", "PageOptions", "Page"];

/** Whether any operation of the document carries the extension (names are reserved before operations are built). */
export function declaresPagination(document: Record<string, unknown>): boolean {
  for (const item of Object.values((document.paths ?? {}) as Record<string, unknown>)) {
    if (item === null || typeof item !== "object") continue;
    for (const op of Object.values(item as Record<string, unknown>)) {
      if (op !== null && typeof op === "object" && PAGINATION_EXTENSION in (op as object)) return true;
    }
  }
  return false;
}
const STYLES = ["offset-limit"];

/** The operation's paging, or undefined without the extension; problems are pushed for a broken one. */
export function buildPagination(
  document: unknown,
  op: OperationModel,
  problems: SpecProblem[],
): PaginationModel | undefined {
  const raw = op.extensions[PAGINATION_EXTENSION];
  if (raw === undefined) return undefined;
  const at = `${op.pointer}/${PAGINATION_EXTENSION}`;
  const problem = (where: string, text: string) =>
    problems.push({ pointer: where === "" ? at : `${at}/${where}`, problem: text });
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    problem("", "must be an object {style, offset, limit, items}");
    return undefined;
  }
  const ext = raw as Record<string, unknown>;
  const before = problems.length;
  if (!STYLES.includes(ext.style as string))
    problem("style", `style ${JSON.stringify(ext.style)} is not supported (only ${STYLES.join(", ")})`);
  const offset = queryParameter(document, op, ext.offset, "offset", problem);
  const limit = queryParameter(document, op, ext.limit, "limit", problem);
  const items = itemsPath(document, op, ext.items, problem);
  if (problems.length > before || !offset || !limit || !items) return undefined;
  const bounds = limitBounds(document, limit);
  return { style: "offset-limit", offset, limit, itemsPointer: ext.items as string, itemsPath: items, ...bounds };
}

/** The query parameter the extension names under `key`, which must be an integer. */
function queryParameter(
  document: unknown,
  op: OperationModel,
  name: unknown,
  key: string,
  problem: (where: string, text: string) => void,
): ParameterModel | undefined {
  if (typeof name !== "string" || name === "") {
    problem(key, `${key} must name a query parameter of the operation`);
    return undefined;
  }
  const param = op.params.query.find((p) => p.name === name);
  if (!param) {
    const declared = op.params.query.map((p) => p.name);
    problem(
      key,
      `${key} names "${name}", which is not a query parameter of this operation (${declared.length === 0 ? "it has none" : `it has ${declared.join(", ")}`})`,
    );
    return undefined;
  }
  const schema = derefSchema(document, param.schema);
  const numeric =
    typeof schema === "object" &&
    schema !== null &&
    typeInfo(schema).types.some((t) => t === "integer" || t === "number");
  if (!numeric) {
    problem(key, `${key} names "${name}", whose schema is not an integer`);
    return undefined;
  }
  return param;
}

/**
 * The property path from what the client returns to the items: the pointer resolved against the
 * success response's schema, without the leading "data" when the response is an envelope (the client
 * returns the envelope's data).
 */
function itemsPath(
  document: unknown,
  op: OperationModel,
  pointer: unknown,
  problem: (where: string, text: string) => void,
): string[] | undefined {
  if (typeof pointer !== "string" || (pointer !== "" && !pointer.startsWith("/"))) {
    problem(
      "items",
      `items must be a JSON pointer into the response body, such as "/data", got ${JSON.stringify(pointer)}`,
    );
    return undefined;
  }
  const success = op.success;
  if (success?.schema === undefined) {
    problem("items", `items cannot resolve: the operation has no success response body`);
    return undefined;
  }
  const tokens = pointer === "" ? [] : pointer.slice(1).split("/").map(unescapeToken);
  let schema: Schema | undefined = success.schema;
  for (const [i, token] of tokens.entries()) {
    const object: FlatObject | undefined = schema === undefined ? undefined : flattenObject(document, schema);
    schema = object && Object.hasOwn(object.properties, token) ? object.properties[token] : undefined;
    if (schema === undefined) {
      const reached = toPointer(tokens.slice(0, i)) || "the body";
      problem(
        "items",
        `items ${pointer} does not resolve against the ${success.status} response schema: ${reached} has no property "${escapeToken(token)}"`,
      );
      return undefined;
    }
  }
  const target = derefSchema(document, schema as Schema);
  const isArray =
    typeof target === "object" &&
    target !== null &&
    (typeInfo(target).types.includes("array") || target.items !== undefined);
  if (!isArray) {
    problem("items", `items ${pointer || "(the body)"} points at a schema that is not an array`);
    return undefined;
  }
  if (!op.envelope) return tokens;
  if (tokens[0] !== "data") {
    problem("items", `items ${pointer} must lie inside the envelope's data (the client returns data), e.g. "/data"`);
    return undefined;
  }
  return tokens.slice(1);
}

/** default and maximum of the limit parameter's schema, when they are integers. */
function limitBounds(document: unknown, limit: ParameterModel): { defaultLimit?: number; maxLimit?: number } {
  const schema = derefSchema(document, limit.schema);
  if (typeof schema !== "object" || schema === null) return {};
  const whole = (v: unknown) => (typeof v === "number" && Number.isInteger(v) && v > 0 ? v : undefined);
  const out: { defaultLimit?: number; maxLimit?: number } = {};
  const d = whole(schema.default);
  const m = whole(schema.maximum);
  if (d !== undefined) out.defaultLimit = d;
  if (m !== undefined) out.maxLimit = m;
  return out;
}
