// OpenRPC methods (--rpc-old/--rpc-new): a method removed, params by position (what a by-position
// call depends on) and by name, params in the request direction and the result in the response one.
import { SUBJECTS } from "../catalog.ts";
import type { DiffContext } from "../context.ts";
import { type At, child, isObj, type SpecDoc } from "../document.ts";

interface Method {
  at: At;
  params: At[];
  result?: At;
}

function methods(doc: SpecDoc): Map<string, Method> {
  const list = doc.at("/methods");
  const out = new Map<string, Method>();
  if (!Array.isArray(list.node)) return out;
  list.node.forEach((_, i) => {
    const at = doc.deref(child(list, i));
    if (!isObj(at.node) || typeof at.node.name !== "string") return;
    const params = child(at, "params");
    const result = doc.deref(child(at, "result"));
    out.set(at.node.name, {
      at,
      params: Array.isArray(params.node) ? params.node.map((_, j) => doc.deref(child(params, j))) : [],
      result: isObj(result.node) ? result : undefined,
    });
  });
  return out;
}

const nameOf = (p: At): string => String((p.node as { name?: unknown }).name);
const requiredOf = (p: At): boolean => (p.node as { required?: unknown }).required === true;

export function checkRpc(ctx: DiffContext): void {
  const olds = methods(ctx.old);
  const news = methods(ctx.next);
  for (const [name, o] of olds) {
    const where = `rpc ${name}`;
    const n = news.get(name);
    if (!n) {
      ctx.sink.check("rpc-method-removed", where, o.at.ptr, "/methods", `the JSON-RPC method ${name} was removed`);
      continue;
    }
    o.params.forEach((op, i) => {
      const np = n.params[i];
      if (!np) {
        ctx.sink.check(
          "rpc-param-removed",
          where,
          op.ptr,
          child(n.at, "params").ptr,
          `param ${i + 1} \`${nameOf(op)}\` was removed`,
        );
        return;
      }
      if (nameOf(op) !== nameOf(np))
        ctx.sink.check(
          "rpc-param-renamed",
          where,
          op.ptr,
          np.ptr,
          `param ${i + 1} was renamed from \`${nameOf(op)}\` to \`${nameOf(np)}\``,
        );
      if (!requiredOf(op) && requiredOf(np))
        ctx.sink.check("rpc-param-became-required", where, op.ptr, np.ptr, `param \`${nameOf(np)}\` became required`);
      if (requiredOf(op) && !requiredOf(np))
        ctx.sink.check("rpc-param-became-optional", where, op.ptr, np.ptr, `param \`${nameOf(np)}\` became optional`);
      const os = child(op, "schema");
      const ns = child(np, "schema");
      if (os.node !== undefined && ns.node !== undefined)
        ctx.sink.schema(where, SUBJECTS.rpcParam, `param \`${nameOf(np)}\``, ctx.schemas.compare(os, ns, "request"));
    });
    n.params.slice(o.params.length).forEach((np) => {
      const required = requiredOf(np);
      ctx.sink.check(
        required ? "rpc-new-required-param" : "rpc-new-optional-param",
        where,
        child(o.at, "params").ptr,
        np.ptr,
        `a new ${required ? "required" : "optional"} param \`${nameOf(np)}\` was added`,
      );
    });
    if (o.result && !n.result)
      ctx.sink.check("rpc-result-removed", where, o.result.ptr, n.at.ptr, "the result was removed");
    if (o.result && n.result) {
      const os = child(o.result, "schema");
      const ns = child(n.result, "schema");
      if (os.node !== undefined && ns.node !== undefined)
        ctx.sink.schema(where, SUBJECTS.rpcResult, "result", ctx.schemas.compare(os, ns, "response"));
    }
  }
  for (const [name, n] of news)
    if (!olds.has(name))
      ctx.sink.check("rpc-method-added", `rpc ${name}`, "/methods", n.at.ptr, `the JSON-RPC method ${name} was added`);
}
