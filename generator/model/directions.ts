// readOnly and writeOnly as OpenAPI 3.1 (section 4.8.24) and JSON Schema's meta-data vocabulary mean
// them: a readOnly value is managed by the server, so a request SHOULD NOT send it (and a required
// readOnly property is required in responses only); a writeOnly value (a password) is sent by clients
// and never returned. Values the server sends are responses and webhook events; clients send request
// bodies. A component gets a variant for a direction only when a property hidden in that direction is
// in its closure (through $ref, allOf, anyOf, oneOf, items, prefixItems, properties and
// additionalProperties: what the emitters print), so specs without these keywords print as before.
import type { NameRegistry } from "./names.ts";
import type { Direction, NamedSchema, ResolvedSchemas, Schema, SchemaObject } from "./types.ts";

const KEYWORD: Record<Direction, "readOnly" | "writeOnly"> = { request: "readOnly", response: "writeOnly" };
/** Type-name suffix of each direction's variant: what a client writes, what it reads. */
const SUFFIX: Record<Direction, string> = { request: "Writable", response: "Readable" };
export const DIRECTIONS: readonly Direction[] = ["request", "response"];

/** Whether a property (its schema under `properties`) is left out of values sent in `direction`. */
export function hiddenIn(direction: Direction, property: Schema | undefined, resolver: ResolvedSchemas): boolean {
  const keyword = KEYWORD[direction];
  const node = resolver.resolve(property);
  if (typeof node !== "object") return false;
  if (node[keyword] === true) return true;
  if (typeof node.$ref !== "string") return false;
  // A component that is itself readOnly/writeOnly makes the property so.
  const named = resolver.component(node.$ref);
  const target = named === undefined ? undefined : resolver.resolve(named.schema);
  return typeof target === "object" && target[keyword] === true;
}

/** Names of the declared properties of a resolved object node hidden in `direction` (none without one). */
export function hiddenProperties(
  direction: Direction | undefined,
  schema: SchemaObject,
  resolver: ResolvedSchemas,
): Set<string> {
  const out = new Set<string>();
  if (direction === undefined) return out;
  const props = (schema.properties as Record<string, Schema> | undefined) ?? {};
  for (const [name, property] of Object.entries(props)) if (hiddenIn(direction, property, resolver)) out.add(name);
  return out;
}

/** Claims variant names (after every other name, so existing names never move) and records them. */
export function assignDirectionVariants(
  schemas: readonly NamedSchema[],
  resolver: ResolvedSchemas,
  names: NameRegistry,
): void {
  const hiding = Object.fromEntries(DIRECTIONS.map((d) => [d, hidingComponents(d, schemas, resolver)])) as Record<
    Direction,
    Set<string>
  >;
  for (const named of schemas) {
    for (const direction of DIRECTIONS) {
      if (!hiding[direction].has(named.ref)) continue;
      const typeName = names.claim(named.typeName + SUFFIX[direction], ["", "Schema"]);
      named.variants = {
        ...named.variants,
        [direction]: {
          typeName,
          schemaName: `${typeName}Schema`,
          zodObject: variantIsZodObject(direction, named, resolver),
        },
      };
    }
  }
}

/**
 * Components whose closure hides a property in `direction`: those that hide one in their own tree,
 * and every component that reaches one of those through $refs (found backwards over the ref edges,
 * so cycles need no special case).
 */
function hidingComponents(
  direction: Direction,
  schemas: readonly NamedSchema[],
  resolver: ResolvedSchemas,
): Set<string> {
  const referrers = new Map<string, string[]>();
  const out = new Set<string>();
  for (const named of schemas) {
    const refs = new Set<string>();
    if (ownTreeHides(direction, resolver.resolve(named.schema), resolver, refs, new Set())) out.add(named.ref);
    for (const ref of refs) referrers.set(ref, [...(referrers.get(ref) ?? []), named.ref]);
  }
  const queue = [...out];
  while (queue.length > 0) {
    for (const referrer of referrers.get(queue.pop() as string) ?? []) {
      if (out.has(referrer)) continue;
      out.add(referrer);
      queue.push(referrer);
    }
  }
  return out;
}

/** Whether a schema tree hides a property itself (not counting other components); collects the component refs it holds. */
function ownTreeHides(
  direction: Direction,
  node: Schema,
  resolver: ResolvedSchemas,
  refs: Set<string>,
  seen: Set<object>,
): boolean {
  if (typeof node !== "object" || seen.has(node)) return false;
  seen.add(node);
  if (typeof node.$ref === "string") {
    const named = resolver.component(node.$ref);
    if (named !== undefined) refs.add(named.ref);
    return false;
  }
  let hides = hiddenProperties(direction, node, resolver).size > 0;
  const visit = (value: unknown) => {
    if (typeof value === "object" && value !== null && ownTreeHides(direction, value as Schema, resolver, refs, seen))
      hides = true;
  };
  for (const value of Object.values((node.properties as Record<string, Schema> | undefined) ?? {})) visit(value);
  visit(node.items);
  visit(node.additionalProperties);
  for (const key of ["prefixItems", "allOf", "anyOf", "oneOf"])
    if (Array.isArray(node[key])) for (const member of node[key] as unknown[]) visit(member);
  return hides;
}

/** The variant stays a plain z.object when its base is one and it keeps a key (else it prints as a record). */
function variantIsZodObject(direction: Direction, named: NamedSchema, resolver: ResolvedSchemas): boolean {
  if (!named.zodObject) return false;
  const target = resolver.resolve(named.schema);
  if (typeof target !== "object") return false;
  const hidden = hiddenProperties(direction, target, resolver);
  const keys = [
    ...Object.keys((target.properties as object | undefined) ?? {}),
    ...((target.required as string[] | undefined) ?? []),
  ];
  return keys.some((k) => !hidden.has(k));
}

/** The type and zod names a $ref to `named` prints as in `direction`. */
export function directedNames(
  named: NamedSchema,
  direction: Direction | undefined,
): { typeName: string; schemaName: string; zodObject: boolean } {
  const variant = direction === undefined ? undefined : named.variants?.[direction];
  return variant ?? named;
}
