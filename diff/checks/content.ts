// Content maps (request bodies, responses, webhook payloads): a media type removed or added, then each
// media type both sides have compared as a schema in the direction the data flows.
import { SUBJECTS } from "../catalog.ts";
import type { DiffContext } from "../context.ts";
import { type At, child, isObj } from "../document.ts";

export function compareContent(
  ctx: DiffContext,
  where: string,
  o: At,
  n: At,
  side: "request" | "response" | "webhook",
  context = "",
): void {
  const oc = isObj(o.node) ? o.node : {};
  const nc = isObj(n.node) ? n.node : {};
  const subject =
    side === "request" ? SUBJECTS.requestBody : side === "response" ? SUBJECTS.responseBody : SUBJECTS.webhookPayload;
  const removedId =
    side === "request"
      ? "request-body-media-type-removed"
      : side === "response"
        ? "response-media-type-removed"
        : "webhook-payload-media-type-removed";
  const label = side === "request" ? "request body" : side === "response" ? `response ${context}` : "payload";
  const counterpart = matcher(Object.keys(nc));
  const matched = new Set<string>();
  for (const type of Object.keys(oc)) {
    const other = counterpart(type);
    if (other === undefined) {
      ctx.sink.check(removedId, where, child(o, type).ptr, n.ptr, `${label}: the content type ${type} was removed`);
      continue;
    }
    matched.add(other);
    const os = child(o, type, "schema");
    const ns = child(n, other, "schema");
    if (os.node === undefined || ns.node === undefined) continue;
    const findings = ctx.schemas.compare(os, ns, side === "request" ? "request" : "response");
    ctx.sink.schema(where, subject, Object.keys(oc).length > 1 ? `${label} (${type})` : label, findings);
  }
  if (side === "webhook") return;
  const addedId = side === "request" ? "request-body-media-type-added" : "response-media-type-added";
  for (const type of Object.keys(nc))
    if (!matched.has(type))
      ctx.sink.check(addedId, where, o.ptr, child(n, type).ptr, `${label}: the content type ${type} was added`);
}

/** The same media type on the other side: exactly, else by its essence (`application/json; charset=utf-8` = `application/json`). */
function matcher(types: string[]): (type: string) => string | undefined {
  const essence = (t: string): string => t.split(";")[0].trim().toLowerCase();
  return (type) => (types.includes(type) ? type : types.find((t) => essence(t) === essence(type)));
}
