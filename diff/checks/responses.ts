// Responses: a status removed (breaking for 2xx), a content type removed, and each schema in the
// response direction (what the client receives may only get tighter).
import type { DiffContext } from "../context.ts";
import { child, isObj } from "../document.ts";
import { compareContent } from "./content.ts";
import type { OperationPair } from "./operation-pair.ts";

const success = (status: string): boolean => /^2/.test(status);

export function checkResponses(ctx: DiffContext, pair: OperationPair): void {
  const o = child(pair.old, "responses");
  const n = child(pair.next, "responses");
  const oc = isObj(o.node) ? o.node : {};
  const nc = isObj(n.node) ? n.node : {};
  const w = pair.where;
  for (const status of Object.keys(oc)) {
    const ors = ctx.old.deref(child(o, status));
    if (!(status in nc)) {
      const id = success(status) ? "response-success-status-removed" : "response-non-success-status-removed";
      ctx.sink.check(id, w, ors.ptr, n.ptr, `the response status ${status} was removed`);
      continue;
    }
    const nrs = ctx.next.deref(child(n, status));
    compareContent(ctx, w, child(ors, "content"), child(nrs, "content"), "response", status);
  }
  for (const status of Object.keys(nc)) {
    if (status in oc) continue;
    const id = success(status) ? "response-success-status-added" : "response-non-success-status-added";
    ctx.sink.check(id, w, o.ptr, child(n, status).ptr, `the response status ${status} was added`);
  }
}
