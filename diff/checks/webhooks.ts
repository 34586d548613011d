// OpenAPI 3.1 `webhooks:` events. The client receives them, so a payload (the event's request body)
// is compared in the response direction: a removed event, a removed field or a new enum value breaks
// a receiver the way a narrowed response breaks a caller.
import type { DiffContext } from "../context.ts";
import { child, isObj } from "../document.ts";
import { compareContent } from "./content.ts";
import { METHODS } from "./operations.ts";

export function checkWebhooks(ctx: DiffContext): void {
  const o = ctx.old.at("/webhooks");
  const n = ctx.next.at("/webhooks");
  const oc = isObj(o.node) ? o.node : {};
  const nc = isObj(n.node) ? n.node : {};
  for (const name of Object.keys(oc)) {
    const oi = ctx.old.deref(child(o, name));
    const where = `webhook ${name}`;
    if (!(name in nc)) {
      ctx.sink.check(
        "webhook-removed",
        where,
        oi.ptr,
        n.node === undefined ? "" : n.ptr,
        `the webhook event ${name} is no longer sent`,
      );
      continue;
    }
    const ni = ctx.next.deref(child(n, name));
    for (const method of METHODS) {
      const oop = child(oi, method);
      const nop = child(ni, method);
      if (!isObj(oop.node)) continue;
      const at = method === "post" ? where : `${where} ${method.toUpperCase()}`;
      if (!isObj(nop.node)) {
        ctx.sink.check(
          "webhook-removed",
          at,
          oop.ptr,
          ni.ptr,
          `the webhook event ${name} is no longer sent with ${method.toUpperCase()}`,
        );
        continue;
      }
      const ob = ctx.old.deref(child(oop, "requestBody"));
      const nb = ctx.next.deref(child(nop, "requestBody"));
      compareContent(ctx, at, child(ob, "content"), child(nb, "content"), "webhook");
    }
  }
  for (const name of Object.keys(nc)) {
    if (!(name in oc))
      ctx.sink.check(
        "webhook-added",
        `webhook ${name}`,
        o.node === undefined ? "" : o.ptr,
        child(n, name).ptr,
        `the webhook event ${name} was added`,
      );
  }
}
