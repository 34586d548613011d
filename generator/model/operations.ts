// Operations of the paths: parameters (path-level merged with operation-level), body, responses,
// success status, envelope detection and the x-custody-* extensions.
import { resolvePointer, toPointer } from "../load/json-pointer.ts";
import type { SpecProblem } from "../load/spec-error.ts";
import { type NameRegistry, toCamelCase, toPascalCase, upperFirst } from "./names.ts";
import { envelopeDataSchema } from "./schema-utils.ts";
import type {
  BodyModel,
  OperationModel,
  OperationNames,
  ParameterModel,
  ParamLocation,
  ResponseModel,
  Schema,
} from "./types.ts";

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
const IDEMPOTENT = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);
const ROLES = new Set(["viewer", "admin", "owner"]);

type Obj = Record<string, unknown>;

export const OPERATION_SUFFIXES = {
  params: "Params",
  query: "Query",
  headers: "Headers",
  body: "Body",
  data: "Data",
  input: "Input",
  handlerInput: "HandlerInput",
  error: "Error",
  paramsSchema: "ParamsSchema",
  querySchema: "QuerySchema",
  headersSchema: "HeadersSchema",
  bodySchema: "BodySchema",
  responseSchemas: "ResponseSchemas",
} as const satisfies Record<keyof OperationNames, string>;

interface RawOperation {
  path: string;
  method: string;
  operation: Obj;
  pathItem: Obj;
  pointer: string;
}

/** Operations in document order: paths as written, methods in the OpenAPI order. */
export function listOperations(document: Obj): RawOperation[] {
  const out: RawOperation[] = [];
  const paths = (document.paths ?? {}) as Obj;
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = resolveObject(document, rawItem);
    if (!item) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation && typeof operation === "object") {
        out.push({
          path,
          method,
          operation: operation as Obj,
          pathItem: item,
          pointer: toPointer(["paths", path, method]),
        });
      }
    }
  }
  return out;
}

/** Follows a $ref (Reference Object) to the object it names. */
export function resolveObject(document: unknown, value: unknown, depth = 0): Obj | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const ref = (value as Obj).$ref;
  if (typeof ref === "string" && depth < 32) return resolveObject(document, resolvePointer(document, ref), depth + 1);
  return value as Obj;
}

/** "get /users/{id}/repos" → "getUsersByIdRepos", for operations without an operationId. */
export function deriveOperationId(method: string, path: string): string {
  const parts = path
    .split("/")
    .filter((s) => s !== "")
    .map((s) => {
      const param = /^\{(.+)\}$/.exec(s);
      return param ? `By${toPascalCase(param[1])}` : toPascalCase(s);
    });
  return method.toLowerCase() + parts.join("");
}

export interface OperationContext {
  document: Obj;
  /** Method/handler names (separate namespace from the exported declarations). */
  methodNames: NameRegistry;
  exportNames: NameRegistry;
  problems: SpecProblem[];
  globalSecurity: unknown;
}

export function buildOperation(ctx: OperationContext, raw: RawOperation, seenIds: Map<string, string>): OperationModel {
  const { document } = ctx;
  const op = raw.operation;
  const declaredId = typeof op.operationId === "string" && op.operationId !== "" ? op.operationId : undefined;
  const operationId = declaredId ?? deriveOperationId(raw.method, raw.path);
  const earlier = seenIds.get(operationId);
  if (earlier !== undefined) {
    ctx.problems.push({
      pointer: `${raw.pointer}/operationId`,
      problem: `operationId "${operationId}" is also used at ${earlier}`,
    });
  }
  seenIds.set(operationId, raw.pointer);

  const name = ctx.methodNames.claim(toCamelCase(operationId));
  const suffixes = Object.values(OPERATION_SUFFIXES);
  const typeBase = ctx.exportNames.claim(upperFirst(name), suffixes, "Operation");
  const names = Object.fromEntries(
    Object.entries(OPERATION_SUFFIXES).map(([k, s]) => [k, typeBase + s]),
  ) as unknown as OperationNames;

  const params = collectParameters(ctx, raw);
  const body = requestBody(document, op.requestBody);
  const responses = collectResponses(document, op.responses);
  const successStatus = pickSuccessStatus(responses);
  const success =
    responses.find((r) => r.code === successStatus) ??
    responses.find((r) => r.status === "2XX") ??
    responses.find((r) => r.status === "default");
  const extensions = Object.fromEntries(Object.entries(op).filter(([k]) => k.startsWith("x-")));
  const method = raw.method.toUpperCase();
  const minRole =
    typeof op["x-custody-min-role"] === "string" && ROLES.has(op["x-custody-min-role"])
      ? op["x-custody-min-role"]
      : "viewer";
  const tags = Array.isArray(op.tags) ? op.tags.filter((t): t is string => typeof t === "string") : [];

  return {
    operationId,
    name,
    typeBase,
    method,
    path: raw.path,
    tag: tags[0] ?? "default",
    summary: stringOr(op.summary),
    description: stringOr(op.description),
    deprecated: op.deprecated === true,
    pointer: raw.pointer,
    params,
    body,
    responses,
    successStatus,
    success,
    declaredStatuses: declaredStatuses(responses, successStatus),
    envelope: success?.dataSchema !== undefined,
    scopes: Array.isArray(op["x-custody-scopes"]) ? (op["x-custody-scopes"] as unknown[]).map(String) : [],
    minRole: minRole as OperationModel["minRole"],
    source: stringOr(op["x-source"]),
    idempotent: IDEMPOTENT.has(method) || params.header.some((p) => p.key === "idempotency-key"),
    security: securityRequirements(op.security ?? ctx.globalSecurity),
    extensions,
    names,
  };
}

function stringOr(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function securityRequirements(value: unknown): string[][] {
  if (!Array.isArray(value)) return [];
  return value.filter((r) => r && typeof r === "object").map((r) => Object.keys(r as Obj).sort());
}

function collectParameters(ctx: OperationContext, raw: RawOperation): Record<ParamLocation, ParameterModel[]> {
  const byKey = new Map<string, ParameterModel>();
  const lists: [unknown, string][] = [
    [raw.pathItem.parameters, toPointer(["paths", raw.path, "parameters"])],
    [raw.operation.parameters, `${raw.pointer}/parameters`],
  ];
  for (const [list, pointer] of lists) {
    if (!Array.isArray(list)) continue;
    list.forEach((entry, i) => {
      const param = resolveObject(ctx.document, entry);
      if (!param || typeof param.name !== "string" || typeof param.in !== "string") return;
      const model = parameterModel(ctx.document, param);
      // By location and key: header names are case-insensitive (RFC 9110 section 5.1), so
      // X-Amz-Content-Sha256 on the path and x-amz-content-sha256 on the operation are one parameter,
      // the operation's (OpenAPI 3 lets an operation override a path-level parameter).
      if (model) byKey.set(`${model.in}:${model.key}`, model);
      else ctx.problems.push({ pointer: `${pointer}/${i}/in`, problem: `unknown parameter location "${param.in}"` });
    });
  }
  const out: Record<ParamLocation, ParameterModel[]> = { path: [], query: [], header: [], cookie: [] };
  for (const p of byKey.values()) out[p.in].push(p);

  const templated = [...raw.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  for (const name of templated) {
    if (!out.path.some((p) => p.name === name)) {
      ctx.problems.push({ pointer: raw.pointer, problem: `path parameter {${name}} of ${raw.path} is not declared` });
    }
  }
  for (const p of out.path) {
    if (!templated.includes(p.name))
      ctx.problems.push({ pointer: raw.pointer, problem: `path parameter "${p.name}" does not appear in ${raw.path}` });
  }
  // Path parameters follow the template; the others keep their declared order.
  out.path.sort((a, b) => templated.indexOf(a.name) - templated.indexOf(b.name));
  return out;
}

function parameterModel(_document: Obj, param: Obj): ParameterModel | undefined {
  const location = param.in as string;
  if (!["path", "query", "header", "cookie"].includes(location)) return undefined;
  const name = param.name as string;
  let schema = param.schema as Schema | undefined;
  if (schema === undefined && param.content && typeof param.content === "object") {
    const first = Object.values(param.content as Obj)[0] as Obj | undefined;
    schema = first?.schema as Schema | undefined;
  }
  const style = typeof param.style === "string" ? param.style : "form";
  return {
    name,
    key: location === "header" ? name.toLowerCase() : name,
    in: location as ParamLocation,
    required: location === "path" ? true : param.required === true,
    schema: schema ?? { type: "string" },
    description: stringOr(param.description),
    deprecated: param.deprecated === true,
    explode: typeof param.explode === "boolean" ? param.explode : style === "form",
  };
}

/** JSON first (application/json, then any +json), else the first media type declared. */
export function pickMediaType(content: unknown): [string, Obj] | undefined {
  if (!content || typeof content !== "object") return undefined;
  const entries = Object.entries(content as Obj);
  if (entries.length === 0) return undefined;
  const json =
    entries.find(([type]) => type.split(";")[0].trim().toLowerCase() === "application/json") ??
    entries.find(([type]) => /[/+]json\b/i.test(type));
  const [type, media] = json ?? entries[0];
  return [type, (media ?? {}) as Obj];
}

function requestBody(document: Obj, value: unknown): BodyModel | undefined {
  const body = resolveObject(document, value);
  if (!body) return undefined;
  const picked = pickMediaType(body.content);
  if (!picked) return undefined;
  const [mediaType, media] = picked;
  return {
    required: body.required === true,
    mediaType,
    schema: (media.schema as Schema | undefined) ?? {},
    description: stringOr(body.description),
  };
}

function collectResponses(document: Obj, value: unknown): ResponseModel[] {
  const responses = (value ?? {}) as Obj;
  const out: ResponseModel[] = [];
  for (const [status, raw] of Object.entries(responses)) {
    if (status.startsWith("x-")) continue;
    const response = resolveObject(document, raw);
    if (!response) continue;
    const code = /^\d{3}$/.test(status) ? Number(status) : undefined;
    const picked = pickMediaType(response.content);
    const schema = picked ? ((picked[1].schema as Schema | undefined) ?? {}) : undefined;
    out.push({
      status: status.toLowerCase() === "default" ? "default" : status.toUpperCase(),
      code,
      description: stringOr(response.description),
      mediaType: picked?.[0],
      schema,
      dataSchema: schema === undefined ? undefined : envelopeDataSchema(document, schema),
    });
  }
  return out.sort((a, b) => statusRank(a) - statusRank(b) || a.status.localeCompare(b.status));
}

function statusRank(r: ResponseModel): number {
  if (r.code !== undefined) return r.code;
  if (r.status === "default") return 10_000;
  return Number(r.status[0]) * 100 + 99;
}

/** Numeric statuses; the success status counts as declared when only `default` or `2XX` describes it. */
function declaredStatuses(responses: ResponseModel[], successStatus: number): number[] {
  const codes = responses.flatMap((r) => (r.code === undefined ? [] : [r.code]));
  if (!codes.includes(successStatus)) codes.push(successStatus);
  return codes.sort((a, b) => a - b);
}

/** The lowest declared 2xx; 200 when only a range or `default` describes success. */
function pickSuccessStatus(responses: ResponseModel[]): number {
  const ok = responses.find((r) => r.code !== undefined && r.code >= 200 && r.code < 300);
  return ok?.code ?? 200;
}
