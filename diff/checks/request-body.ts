// The request body: added as required, made required, removed, a content type dropped, and each
// shared content type's schema in the request direction (what the client sends may only get looser).
import type { DiffContext } from "../context.ts";
import { child, isObj } from "../document.ts";
import { compareContent } from "./content.ts";
import type { OperationPair } from "./operation-pair.ts";

export function checkRequestBody(ctx: DiffContext, pair: OperationPair): void {
  const o = ctx.old.deref(child(pair.old, "requestBody"));
  const n = ctx.next.deref(child(pair.next, "requestBody"));
  const { sink } = ctx;
  const w = pair.where;
  const oReq = isObj(o.node) && o.node.required === true;
  const nReq = isObj(n.node) && n.node.required === true;
  if (!isObj(o.node)) {
    if (isObj(n.node))
      sink.check(
        nReq ? "added-required-request-body" : "added-optional-request-body",
        w,
        pair.old.ptr,
        n.ptr,
        `a${nReq ? " required" : "n optional"} request body was added`,
      );
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
