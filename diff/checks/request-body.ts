// The request body: added as required, made required, removed, a content type dropped, and each
// shared content type's schema in the request direction (what the client sends may only get looser).
import { SUBJECTS } from "../catalog.ts";
import type { DiffContext } from "../context.ts";
import { child, isObj, type At } from "../document.ts";
import type { OperationPair } from "./operations.ts";

export function checkRequestBody(ctx: DiffContext, pair: OperationPair): void {
  const o = ctx.old.deref(child(pair.old, "requestBody"));
  const n = ctx.next.deref(child(pair.next, "requestBody"));
  const { sink } = ctx;
  const w = pair.where;
  const oReq = isObj(o.node) && o.node.required === true;
  const nReq = isObj(n.node) && n.node.required === true;
  if (!isObj(o.node)) {
    if (isObj(n.node)) sink.check(nReq ? "added-required-request-body" : "added-optional-request-body", w, pair.old.ptr, n.ptr, `a${nReq ? " required" : "n optional"} request body was added`);
    return;
  }
  if (!isObj(n.node)) {
    sink.check("request-body-removed", w, o.ptr, pair.next.ptr, "the request body was removed");
    return;
  }
  if (!oReq && nReq) sink.check("request-body-became-required", w, o.ptr, n.ptr, "the request body became required");
  if (oReq && !nReq) sink.check("request-body-became-optional", w, o.ptr, n.ptr, "the request body became optional");
  compareContent(ctx, w, child(o, "content"), child(n, "content"), "request");
}

/** Content maps (request or response): removed/added media types, then each common one's schema. */
export function compareContent(ctx: DiffContext, where: string, o: At, n: At, side: "request" | "response" | "webhook", context = ""): void {
  const oc = isObj(o.node) ? o.node : {};
  const nc = isObj(n.node) ? n.node : {};
  const subject = side === "request" ? SUBJECTS.requestBody : side === "response" ? SUBJECTS.responseBody : SUBJECTS.webhookPayload;
  const removedId = side === "request" ? "request-body-media-type-removed" : side === "response" ? "response-media-type-removed" : "webhook-payload-media-type-removed";
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
  for (const type of Object.keys(nc)) if (!matched.has(type)) ctx.sink.check(addedId, where, o.ptr, child(n, type).ptr, `${label}: the content type ${type} was added`);
}

/** The same media type on the other side: exactly, else by its essence (`application/json; charset=utf-8` = `application/json`). */
function matcher(types: string[]): (type: string) => string | undefined {
  const essence = (t: string): string => t.split(";")[0].trim().toLowerCase();
  return (type) => (types.includes(type) ? type : types.find((t) => essence(t) === essence(type)));
}
