// The operations the suite knows, read from generated/operations.ts (the spec, compiled) and
// normalized into the small shape the checks use. Tests may pass their own table.
import type { ZodType } from "zod";

export interface OperationInfo {
  operationId: string;
  method: string;
  /** Path template including /api/v1, with {param} placeholders. */
  path: string;
  tag: string;
  /** seed | partial | assumed: at --level seed only seed operations are driven. */
  source: string;
  successStatus: number;
  declaredStatuses: number[];
  scopes: string[];
  minRole: string;
  paramsSchema?: ZodType;
  querySchema?: ZodType;
  headersSchema?: ZodType;
  bodySchema?: ZodType;
  /** HTTP status → schema of the response (of `data` when `envelope` is true). */
  responseSchemas: Record<string, ZodType>;
  /** True when responses are wrapped in the envelope of seed 2.1. */
  envelope: boolean;
  /** How the list pages, when the spec declares x-custody-pagination (the items path is from `data`). */
  pagination?: Paging;
}

/** A paged list: the offset and limit parameter names, the items path, the limit's default and maximum. */
export interface Paging {
  offset: string;
  limit: string;
  items: readonly string[];
  defaultLimit?: number;
  maxLimit?: number;
}

/** Loads the generated operation table; a clear error when it is missing or malformed. */
export async function loadGeneratedOperations(): Promise<OperationInfo[]> {
  let mod: Record<string, unknown>;
  try {
    // Loaded on demand: tests and tools that bring their own table never pay for the schemas.
    mod = (await import("../../generated/operations.ts")) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`cannot load generated/operations.ts (run \`custody generate\`): ${(err as Error).message}`);
  }
  const raw = mod.operationList ?? (mod.operations && Object.values(mod.operations as object));
  if (!Array.isArray(raw) || raw.length === 0) throw new Error("generated/operations.ts exports no operations");
  return raw.map(normalizeOperation);
}

/** Accepts the generated entry and fills defaults; throws on an entry the checks cannot use. */
export function normalizeOperation(entry: unknown): OperationInfo {
  const e = entry as Record<string, unknown>;
  if (typeof e.operationId !== "string" || typeof e.method !== "string" || typeof e.path !== "string") {
    throw new Error(`generated operation without operationId/method/path: ${JSON.stringify(e).slice(0, 200)}`);
  }
  const responseSchemas: Record<string, ZodType> = {};
  const rs = (e.responseSchemas ?? e.responses ?? {}) as Record<string, unknown>;
  for (const [status, schema] of Object.entries(rs)) {
    if (isZod(schema)) responseSchemas[status] = schema;
  }
  const declared = Array.isArray(e.declaredStatuses)
    ? (e.declaredStatuses as unknown[]).map(Number)
    : Object.keys(responseSchemas).map(Number);
  return {
    operationId: e.operationId,
    method: e.method.toUpperCase(),
    path: e.path,
    tag: typeof e.tag === "string" ? e.tag : Array.isArray(e.tags) ? String(e.tags[0]) : "",
    source: typeof e.source === "string" ? e.source : "assumed",
    successStatus: Number(e.successStatus ?? 200),
    declaredStatuses: declared,
    scopes: Array.isArray(e.scopes) ? (e.scopes as string[]) : [],
    minRole: typeof e.minRole === "string" ? e.minRole : "viewer",
    paramsSchema: isZod(e.paramsSchema) ? e.paramsSchema : undefined,
    querySchema: isZod(e.querySchema) ? e.querySchema : undefined,
    headersSchema: isZod(e.headersSchema) ? e.headersSchema : undefined,
    bodySchema: isZod(e.bodySchema) ? e.bodySchema : undefined,
    responseSchemas,
    envelope: e.envelope !== false,
    ...(isPaging(e.pagination) ? { pagination: e.pagination } : {}),
  };
}

function isPaging(x: unknown): x is Paging {
  const p = x as Paging | undefined;
  return (
    typeof p === "object" &&
    p !== null &&
    typeof p.offset === "string" &&
    typeof p.limit === "string" &&
    Array.isArray(p.items)
  );
}

function isZod(x: unknown): x is ZodType {
  return typeof x === "object" && x !== null && typeof (x as { safeParse?: unknown }).safeParse === "function";
}

export function isRead(op: OperationInfo): boolean {
  return op.method === "GET" || op.method === "HEAD";
}

export function hasBody(op: OperationInfo): boolean {
  return op.bodySchema !== undefined || op.method === "POST" || op.method === "PUT" || op.method === "PATCH";
}

/** Path parameter names in template order. */
export function pathParams(op: OperationInfo): string[] {
  return [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
}

export function findOperation(ops: OperationInfo[], operationId: string): OperationInfo | undefined {
  return ops.find((op) => op.operationId === operationId);
}
