// Parameters (path-level merged with operation-level): added as required, removed, made required,
// moved to another location, and their schemas in the request direction. Path parameters match by
// their position in the path, so a renamed one is the same parameter.
import { SUBJECTS } from "../catalog.ts";
import type { DiffContext } from "../context.ts";
import { type At, child, isObj, type Obj, type SpecDoc } from "../document.ts";
import type { OperationPair } from "./operation-pair.ts";
import { pagedLimitParameter } from "./pagination.ts";

export interface Param {
  at: At;
  name: string;
  in: string;
  required: boolean;
  schema?: At;
}

export function paramsOf(doc: SpecDoc, item: At, op: At, path: string): Map<string, Param> {
  const out = new Map<string, Param>();
  const slots = [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  for (const list of [child(item, "parameters"), child(op, "parameters")]) {
    if (!Array.isArray(list.node)) continue;
    list.node.forEach((_, i) => {
      const at = doc.deref(child(list, i));
      if (!isObj(at.node)) return;
      const p = at.node as Obj;
      const name = String(p.name);
      const where = String(p.in);
      const slot = slots.indexOf(name);
      const key =
        where === "path" && slot >= 0 ? `path#${slot}` : `${where}:${where === "header" ? name.toLowerCase() : name}`;
      out.set(key, { at, name, in: where, required: p.required === true || where === "path", schema: schemaOf(at) });
    });
  }
  return out;
}

/** A parameter's schema: `schema`, or the one media type of `content`. */
function schemaOf(at: At): At | undefined {
  const p = at.node as Obj;
  if (p.schema !== undefined) return child(at, "schema");
  if (isObj(p.content)) {
    const first = Object.keys(p.content)[0];
    if (first !== undefined && isObj(p.content[first]) && (p.content[first] as Obj).schema !== undefined)
      return child(at, "content", first, "schema");
  }
  return undefined;
}

export function checkParameters(ctx: DiffContext, pair: OperationPair): void {
  const olds = paramsOf(ctx.old, pair.oldItem, pair.old, pair.oldPath);
  const news = paramsOf(ctx.next, pair.nextItem, pair.next, pair.nextPath);
  const { sink, schemas } = ctx;
  const w = pair.where;
  const moved = new Set<string>();
  // A paged list's limit: its default and maximum are reported by pagination.ts, once.
  const pagedLimit = pagedLimitParameter(ctx, pair);
  const isPagedLimit = (p: Param) => p.in === "query" && p.name === pagedLimit;
  for (const [key, o] of olds) {
    const n = news.get(key);
    if (n) {
      if (!o.required && n.required)
        sink.check(
          "request-parameter-became-required",
          w,
          o.at.ptr,
          n.at.ptr,
          `the ${o.in} parameter \`${o.name}\` became required`,
        );
      if (o.required && !n.required)
        sink.check(
          "request-parameter-became-optional",
          w,
          o.at.ptr,
          n.at.ptr,
          `the ${o.in} parameter \`${o.name}\` became optional`,
        );
      if (o.schema && n.schema && !n.required && !isPagedLimit(o)) defaults(ctx, w, o, n);
      if (o.schema && n.schema) {
        const findings = schemas
          .compare(o.schema, n.schema, "request")
          .filter((f) => !(isPagedLimit(o) && f.path.length === 0 && /^max-/.test(f.suffix)));
        sink.schema(w, SUBJECTS.parameter, `the ${o.in} parameter \`${o.name}\``, findings);
      }
      continue;
    }
    const elsewhere = [...news.entries()].find(
      ([k, p]) => !olds.has(k) && p.name.toLowerCase() === o.name.toLowerCase(),
    );
    if (elsewhere) {
      moved.add(elsewhere[0]);
      sink.check(
        "request-parameter-location-changed",
        w,
        o.at.ptr,
        elsewhere[1].at.ptr,
        `the parameter \`${o.name}\` moved from ${o.in} to ${elsewhere[1].in}`,
      );
      continue;
    }
    sink.check(
      "request-parameter-removed",
      w,
      o.at.ptr,
      pair.next.ptr,
      `the ${o.in} parameter \`${o.name}\` was removed`,
    );
  }
  for (const [key, n] of news) {
    if (olds.has(key) || moved.has(key)) continue;
    const id = n.required ? "new-required-request-parameter" : "new-optional-request-parameter";
    sink.check(
      id,
      w,
      pair.old.ptr,
      n.at.ptr,
      `a new ${n.required ? "required" : "optional"} ${n.in} parameter \`${n.name}\` was added`,
    );
  }
}

/** The server assumes a parameter's default when the client omits it: changing it changes behaviour. */
function defaults(ctx: DiffContext, where: string, o: Param, n: Param): void {
  const os = ctx.old.deref(o.schema as At).node as Obj | undefined;
  const ns = ctx.next.deref(n.schema as At).node as Obj | undefined;
  const a = isObj(os) ? os.default : undefined;
  const b = isObj(ns) ? ns.default : undefined;
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  const id =
    a === undefined
      ? "request-parameter-default-value-added"
      : b === undefined
        ? "request-parameter-default-value-removed"
        : "request-parameter-default-value-changed";
  ctx.sink.check(
    id,
    where,
    child(o.schema as At, "default").ptr,
    child(n.schema as At, "default").ptr,
    `the default of the ${o.in} parameter \`${o.name}\` changed from ${JSON.stringify(a) ?? "none"} to ${JSON.stringify(b) ?? "none"}`,
  );
}
