// The operations an OpenAPI document declares (one per HTTP method under each path), for tests that
// check that generation kept every one.
type Document = { paths?: Record<string, Record<string, unknown>> };
const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

export function countOperations(doc: Document): number {
  return Object.values(doc.paths ?? {}).reduce((n, item) => n + HTTP_METHODS.filter((m) => item[m]).length, 0);
}

/** The operationId of every operation. */
export function operationIds(doc: Document): string[] {
  return Object.values(doc.paths ?? {}).flatMap((item) =>
    HTTP_METHODS.filter((m) => item[m]).map((m) => (item[m] as { operationId?: string }).operationId ?? ""),
  );
}
