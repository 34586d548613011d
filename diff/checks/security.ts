// Security: a scheme the client must now use, a scope it must now hold, a scheme whose type or
// location changed; and ours: a scope added to x-custody-scopes or a role raised in x-custody-min-role
// (ordered by the document's x-custody-roles.order).
import type { DiffContext } from "../context.ts";
import { type At, child, isObj, type SpecDoc } from "../document.ts";
import type { OperationPair } from "./operation-pair.ts";

type Requirement = Map<string, Set<string>>;

/** The operation's security, or the document's when it declares none. */
function requirements(doc: SpecDoc, op: At): { at: At; alternatives: Requirement[] } {
  const own = child(op, "security");
  const at = Array.isArray(own.node) ? own : doc.at("/security");
  const list = Array.isArray(at.node) ? at.node : [];
  const alternatives = list
    .filter(isObj)
    .map((r) => new Map(Object.entries(r).map(([k, v]) => [k, new Set(Array.isArray(v) ? v.map(String) : [])])));
  return { at, alternatives };
}

/** `b` asks no more than `a`: a client able to meet `a` meets `b`. */
function covers(a: Requirement, b: Requirement): boolean {
  for (const [name, scopes] of b) {
    const have = a.get(name);
    if (!have || [...scopes].some((s) => !have.has(s))) return false;
  }
  return true;
}

export function checkSecurity(ctx: DiffContext, pair: OperationPair): void {
  const w = pair.where;
  const o = requirements(ctx.old, pair.old);
  const n = requirements(ctx.next, pair.next);
  // Every way a client could authenticate before still works when some new alternative asks no more.
  const stillWorks =
    o.alternatives.length === 0
      ? n.alternatives.length === 0 || n.alternatives.some((r) => r.size === 0)
      : o.alternatives.every((a) => n.alternatives.length === 0 || n.alternatives.some((b) => covers(a, b)));
  const oldNames = new Set(o.alternatives.flatMap((r) => [...r.keys()]));
  const newNames = new Set(n.alternatives.flatMap((r) => [...r.keys()]));
  for (const name of newNames) {
    if (oldNames.has(name)) continue;
    const id = stillWorks ? "api-security-alternative-added" : "api-security-added";
    ctx.sink.check(
      id,
      w,
      o.at.ptr,
      n.at.ptr,
      `the security scheme \`${name}\` was added${stillWorks ? " as an alternative" : ""}`,
    );
  }
  for (const name of oldNames)
    if (!newNames.has(name))
      ctx.sink.check(
        "api-security-removed",
        w,
        o.at.ptr,
        n.at.ptr,
        `the security scheme \`${name}\` is no longer needed`,
      );
  for (const name of oldNames) {
    if (!newNames.has(name)) continue;
    const before = new Set(o.alternatives.flatMap((r) => [...(r.get(name) ?? [])]));
    const after = new Set(n.alternatives.flatMap((r) => [...(r.get(name) ?? [])]));
    for (const s of after)
      if (!before.has(s) && !stillWorks)
        ctx.sink.check(
          "api-security-scope-added",
          w,
          o.at.ptr,
          n.at.ptr,
          `the security scheme \`${name}\` needs the scope \`${s}\``,
        );
    for (const s of before)
      if (!after.has(s))
        ctx.sink.check(
          "api-security-scope-removed",
          w,
          o.at.ptr,
          n.at.ptr,
          `the security scheme \`${name}\` no longer needs the scope \`${s}\``,
        );
    schemeChanged(ctx, w, name);
  }
  custodyScopes(ctx, pair);
  custodyRole(ctx, pair);
}

const SCHEME_FIELDS = ["type", "in", "name", "scheme"] as const;

function schemeChanged(ctx: DiffContext, where: string, name: string): void {
  const o = ctx.old.deref(ctx.old.at(`/components/securitySchemes/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`));
  const n = ctx.next.deref(ctx.next.at(`/components/securitySchemes/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`));
  if (!isObj(o.node) || !isObj(n.node)) return;
  for (const field of SCHEME_FIELDS) {
    const a = o.node[field];
    const b = n.node[field];
    if (a !== b)
      ctx.sink.check(
        "security-scheme-changed",
        where,
        child(o, field).ptr,
        child(n, field).ptr,
        `the security scheme \`${name}\` changed its ${field} from ${JSON.stringify(a)} to ${JSON.stringify(b)}`,
      );
  }
}

function custodyScopes(ctx: DiffContext, pair: OperationPair): void {
  const o = child(pair.old, "x-custody-scopes");
  const n = child(pair.next, "x-custody-scopes");
  const before = new Set(Array.isArray(o.node) ? o.node.map(String) : []);
  const after = new Set(Array.isArray(n.node) ? n.node.map(String) : []);
  for (const s of after)
    if (!before.has(s))
      ctx.sink.check(
        "api-custody-scope-added",
        pair.where,
        o.node === undefined ? pair.old.ptr : o.ptr,
        n.ptr,
        `the API key needs the scope \`${s}\` (x-custody-scopes)`,
      );
  for (const s of before)
    if (!after.has(s))
      ctx.sink.check(
        "api-custody-scope-removed",
        pair.where,
        o.ptr,
        n.node === undefined ? pair.next.ptr : n.ptr,
        `the API key no longer needs the scope \`${s}\` (x-custody-scopes)`,
      );
}

const DEFAULT_ROLE_ORDER = ["viewer", "admin", "owner"];

function roleOrder(doc: SpecDoc): string[] | undefined {
  const order = doc.at("/x-custody-roles/order").node;
  return Array.isArray(order) ? order.map(String) : undefined;
}

function custodyRole(ctx: DiffContext, pair: OperationPair): void {
  const o = child(pair.old, "x-custody-min-role");
  const n = child(pair.next, "x-custody-min-role");
  if (o.node === n.node) return;
  const order = roleOrder(ctx.next) ?? roleOrder(ctx.old) ?? DEFAULT_ROLE_ORDER;
  // No role named means the lowest one: any key with the scopes may call.
  const rank = (role: unknown): number => (role === undefined ? 0 : order.indexOf(String(role)));
  const a = rank(o.node);
  const b = rank(n.node);
  const oPtr = o.node === undefined ? pair.old.ptr : o.ptr;
  const nPtr = n.node === undefined ? pair.next.ptr : n.ptr;
  const show = (r: unknown): string => (r === undefined ? "none" : String(r));
  if (a < 0 || b < 0)
    ctx.sink.check(
      "api-custody-min-role-changed",
      pair.where,
      oPtr,
      nPtr,
      `the lowest role changed from ${show(o.node)} to ${show(n.node)}, not both in x-custody-roles.order`,
    );
  else if (b > a)
    ctx.sink.check(
      "api-custody-min-role-raised",
      pair.where,
      oPtr,
      nPtr,
      `the lowest role was raised from ${show(o.node)} to ${show(n.node)} (x-custody-min-role)`,
    );
  else if (b < a)
    ctx.sink.check(
      "api-custody-min-role-lowered",
      pair.where,
      oPtr,
      nPtr,
      `the lowest role was lowered from ${show(o.node)} to ${show(n.node)} (x-custody-min-role)`,
    );
}
