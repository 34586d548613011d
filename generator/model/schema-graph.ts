// Reference graph of the component schemas: emission order (dependencies first, so every zod const
// is defined before use) and recursion (members of a cycle become z.lazy with an explicit type).
import { resolvePointer } from "../load/json-pointer.ts";
import { dynamicAnchorRef } from "./resolve-schema.ts";
import { canonicalComponentRef, collectRefs } from "./schema-utils.ts";

/** The component key a ref names, or undefined when it names no component (see componentKey). */
export type ComponentOf = (ref: string) => string | undefined;

/** Component refs a schema reaches, looking through refs to non-component places. */
export function componentDependencies(
  document: unknown,
  schema: unknown,
  componentOf: ComponentOf = canonicalComponentRef,
): string[] {
  const found = new Set<string>();
  const visited = new Set<string>();
  const pending = [...collectRefs(schema)];
  while (pending.length > 0) {
    let ref = pending.pop() as string;
    // A $dynamicRef ("#name") reaches the one $dynamicAnchor of that name, as the resolver reads it.
    if (/^#[A-Za-z_]/.test(ref)) ref = dynamicAnchorRef(document, ref.slice(1)) ?? ref;
    const component = componentOf(ref);
    if (component !== undefined) {
      found.add(component);
      continue;
    }
    if (visited.has(ref)) continue;
    visited.add(ref);
    pending.push(...collectRefs(resolvePointer(document, ref)));
  }
  return [...found].sort();
}

export interface GraphOrder {
  /** Dependencies before dependents; ties in name order. */
  order: string[];
  recursive: Set<string>;
}

/** Tarjan's strongly connected components (iterative: deep specs must not overflow the stack). */
export function orderByDependencies(
  nodes: readonly string[],
  edges: ReadonlyMap<string, readonly string[]>,
): GraphOrder {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const order: string[] = [];
  const recursive = new Set<string>();
  let counter = 0;

  for (const root of nodes) {
    if (index.has(root)) continue;
    const work: { node: string; next: number }[] = [{ node: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const targets = (edges.get(frame.node) ?? []).filter((t) => edges.has(t));
      if (frame.next < targets.length) {
        const target = targets[frame.next++];
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        component.sort();
        const selfLoop = (edges.get(frame.node) ?? []).includes(frame.node);
        if (component.length > 1 || selfLoop) for (const m of component) recursive.add(m);
        order.push(...component);
      }
    }
  }
  return { order, recursive };
}

/**
 * Component refs a schema *is*, rather than contains: its own $ref, and the members of its allOf, oneOf
 * and anyOf, followed through non-component refs. A ref under properties, items or
 * additionalProperties is a contained value, which recursion may go through.
 */
export function directComponentRefs(
  document: unknown,
  schema: unknown,
  componentOf: ComponentOf = canonicalComponentRef,
): string[] {
  const found = new Set<string>();
  const visited = new Set<unknown>();
  const pending: unknown[] = [schema];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== "object" || visited.has(node)) continue;
    visited.add(node);
    const record = node as Record<string, unknown>;
    if (typeof record.$ref === "string") {
      const component = componentOf(record.$ref);
      if (component !== undefined) found.add(component);
      else pending.push(resolvePointer(document, record.$ref));
    }
    for (const key of ["allOf", "oneOf", "anyOf"])
      if (Array.isArray(record[key])) pending.push(...(record[key] as unknown[]));
  }
  return [...found].sort();
}

/**
 * Cycles no type can be built from: each step is a $ref or an allOf/oneOf/anyOf member, none is a
 * property or an item (`A: {$ref: B}`, `B: {allOf: [{$ref: A}]}`). TypeScript rejects the aliases as
 * circular and the z.lazy schemas would recurse forever. Returns each such cycle, members sorted.
 */
export function aliasCycles(
  document: unknown,
  refs: readonly string[],
  componentOf: ComponentOf = canonicalComponentRef,
): string[][] {
  const edges = new Map<string, string[]>();
  for (const ref of refs) edges.set(ref, directComponentRefs(document, resolvePointer(document, ref), componentOf));
  const { order, recursive } = orderByDependencies(refs, edges);
  // Group the recursive members into their cycles: members reachable from each other.
  const cycles: string[][] = [];
  const placed = new Set<string>();
  for (const ref of order) {
    if (!recursive.has(ref) || placed.has(ref)) continue;
    const reach = (from: string) => {
      const seen = new Set<string>([from]);
      const stack = [from];
      while (stack.length > 0)
        for (const t of edges.get(stack.pop() as string) ?? [])
          if (!seen.has(t) && edges.has(t)) seen.add(t), stack.push(t);
      return seen;
    };
    const fromRef = reach(ref);
    const cycle = [...fromRef].filter((m) => recursive.has(m) && reach(m).has(ref)).sort();
    for (const m of cycle) placed.add(m);
    cycles.push(cycle);
  }
  return cycles;
}
