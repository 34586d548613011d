// Paths and methods: removed (breaking unless deprecated first) and added; then every operation both
// versions have goes through the per-operation families. Paths match with their parameter names
// ignored, so renaming {id} to {wallet_id} is not a removal.

import type { DiffContext } from "../context.ts";
import { type At, child, isObj } from "../document.ts";
import { checkAgentEffect } from "./agent-effect.ts";
import { checkDescriptions } from "./descriptions.ts";
import type { OperationPair } from "./operation-pair.ts";
import { checkPagination } from "./pagination.ts";
import { checkParameters } from "./parameters.ts";
import { checkRequestBody } from "./request-body.ts";
import { checkResponses } from "./responses.ts";
import { checkSecurity } from "./security.ts";

export const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

export type { OperationPair };

type Item = At & { path: string };

function pathsByShape(ctx: DiffContext, side: "old" | "next"): Map<string, Item> {
  const doc = ctx[side];
  const paths = doc.at("/paths");
  const out = new Map<string, Item>();
  if (!isObj(paths.node)) return out;
  for (const path of Object.keys(paths.node)) {
    const item = { ...doc.deref(child(paths, path)), path };
    // A path item left without operations is a removed path.
    if (!METHODS.some((m) => isObj(child(item, m).node))) continue;
    const shape = path.replace(/\{[^}]*\}/g, "{}");
    if (!out.has(shape)) out.set(shape, item);
    out.set(`raw:${path}`, item);
  }
  return out;
}

export function checkOperations(ctx: DiffContext): void {
  const olds = pathsByShape(ctx, "old");
  const news = pathsByShape(ctx, "next");
  const oldPaths = isObj(ctx.old.at("/paths").node) ? Object.keys(ctx.old.at("/paths").node as object) : [];
  const newPaths = isObj(ctx.next.at("/paths").node) ? Object.keys(ctx.next.at("/paths").node as object) : [];
  const counterpart = (path: string, theirs: Map<string, Item>): Item | undefined =>
    theirs.get(`raw:${path}`) ?? theirs.get(path.replace(/\{[^}]*\}/g, "{}"));

  for (const path of oldPaths) {
    const oldItem = olds.get(`raw:${path}`);
    if (!oldItem) continue;
    const nextItem = counterpart(path, news);
    for (const method of METHODS) {
      const op = child(oldItem, method);
      if (!isObj(op.node)) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const deprecated = op.node.deprecated === true;
      const nop = nextItem ? child(nextItem, method) : undefined;
      if (!nextItem) {
        const id = deprecated ? "api-path-removed-with-deprecation" : "api-path-removed-without-deprecation";
        ctx.sink.check(id, where, op.ptr, undefined, `the path ${path} was removed, and with it ${where}`);
        continue;
      }
      if (!nop || !isObj(nop.node)) {
        const id = deprecated ? "api-removed-with-deprecation" : "api-removed-without-deprecation";
        ctx.sink.check(id, where, op.ptr, nextItem.ptr, `the operation ${where} was removed`);
        continue;
      }
      if (nop.node.deprecated === true && !deprecated)
        ctx.sink.check("endpoint-deprecated", where, op.ptr, nop.ptr, `${where} was marked deprecated`);
      const pair: OperationPair = {
        where,
        old: op,
        next: nop,
        oldItem,
        nextItem,
        oldPath: path,
        nextPath: nextItem.path,
      };
      checkParameters(ctx, pair);
      checkDescriptions(ctx, pair);
      checkRequestBody(ctx, pair);
      checkResponses(ctx, pair);
      checkSecurity(ctx, pair);
      checkAgentEffect(ctx, pair);
      checkPagination(ctx, pair);
    }
  }
  for (const path of newPaths) {
    const nextItem = news.get(`raw:${path}`);
    if (!nextItem) continue;
    const oldItem = counterpart(path, olds);
    for (const method of METHODS) {
      const op = child(nextItem, method);
      if (!isObj(op.node)) continue;
      if (oldItem && isObj(child(oldItem, method).node)) continue;
      const where = `${method.toUpperCase()} ${path}`;
      ctx.sink.check("endpoint-added", where, oldItem?.ptr, op.ptr, `the operation ${where} was added`);
    }
  }
}
