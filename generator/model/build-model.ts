// Builds the one normalized model from a loaded document. Names are handed out in a fixed order
// (fixed exports, operations, component schemas, webhooks, rpc, then readOnly/writeOnly variants) so
// they are stable run to run.
import { escapeToken, refTokens, resolvePointer, toPointer } from "../load/json-pointer.ts";
import type { LoadedSpec } from "../load/load-spec.ts";
import { isSchemaAt } from "../load/schema-position.ts";
import { SpecError, type SpecProblem } from "../load/spec-error.ts";
import { CUSTODY_NAMES } from "./custody-names.ts";
import { assignDirectionVariants } from "./directions.ts";
import { NameRegistry, toPascalCase } from "./names.ts";
import { buildOperation, listOperations } from "./operations.ts";
import { buildPagination, declaresPagination, PAGING_EXPORTS } from "./pagination.ts";
import { SchemaResolver } from "./resolve-schema.ts";
import { aliasCycles, componentDependencies, orderByDependencies } from "./schema-graph.ts";
import { isPlainZodObject } from "./schema-shape.ts";
import { COMPONENT_SCHEMA_PREFIX, collectRefs, componentKey } from "./schema-utils.ts";
import { buildSecurity } from "./security.ts";
import type { NamedSchema, OperationModel, RpcModel, Schema, SpecModel, WebhookModel } from "./types.ts";
import { buildWebhooks, webhookDelivery, webhookProfile } from "./webhooks.ts";

export interface BuildOptions {
  rpc?: (names: NameRegistry) => RpcModel;
}

export function buildModel(loaded: LoadedSpec, options: BuildOptions = {}): SpecModel {
  const document = loaded.document;
  const problems: SpecProblem[] = [];
  const exportNames = new NameRegistry();
  const info = (document.info ?? {}) as Record<string, unknown>;
  const clientName = clientClassName(info);
  exportNames.reserveForCustody(...CUSTODY_NAMES, clientName);
  // client.ts re-exports the paging types when a list is paged: a schema does not take their names then.
  if (declaresPagination(document)) exportNames.reserveForCustody(...PAGING_EXPORTS);

  const methodNames = new NameRegistry({ allowReserved: true });
  // Members a method or table key must not be: the class's own, object plumbing, and `then`
  // (a client with a then() method would be mistaken for a promise).
  methodNames.reserve(
    "constructor",
    "transport",
    "toString",
    "valueOf",
    "hasOwnProperty",
    "__proto__",
    "prototype",
    "then",
  );
  const seenIds = new Map<string, string>();
  const ctx = { document, methodNames, exportNames, problems, globalSecurity: document.security };
  const operations = listOperations(document).map((raw) => buildOperation(ctx, raw, seenIds));
  for (const op of operations) op.pagination = buildPagination(document, op, problems);

  const schemas = buildComponentSchemas(document, exportNames);
  problems.push(...aliasCycleProblems(document, schemas));
  const schemasByRef = new Map(schemas.map((s) => [s.ref, s]));
  const resolver = new SchemaResolver(document, loaded.version, schemasByRef);
  if (problems.length === 0) resolveAll(resolver, schemas, operations);
  problems.push(...resolver.report.errors);
  const security = buildSecurity(document, problems);
  const webhooks = buildWebhooks(document, schemasByRef, exportNames, problems);
  const rpc = options.rpc?.(exportNames);
  // Last, so the names above never move when a spec gains a readOnly or writeOnly property.
  if (problems.length === 0) {
    assignDirectionVariants(schemas, resolver, exportNames);
    for (const hook of webhooks) useResponseVariant(hook, schemasByRef);
  }

  if (problems.length > 0) throw new SpecError(loaded.source.displayPath, problems);
  return {
    displayPath: loaded.source.displayPath,
    sha256: loaded.source.sha256,
    version: loaded.version,
    title: typeof info.title === "string" ? info.title : "API",
    apiVersion: typeof info.version === "string" ? info.version : "",
    clientName,
    document,
    schemas,
    schemasByRef,
    resolver,
    warnings: resolver.report.warnings,
    repairs: loaded.repairs,
    operations,
    security,
    webhooks,
    webhookProfile: webhookProfile(document),
    webhookDelivery: webhookDelivery(document),
    rpc,
  };
}

/** An event whose body is a component is that component as the server sends it. */
function useResponseVariant(hook: WebhookModel, schemasByRef: ReadonlyMap<string, NamedSchema>): void {
  const variant = hook.componentRef === undefined ? undefined : schemasByRef.get(hook.componentRef)?.variants?.response;
  if (variant === undefined) return;
  hook.typeName = variant.typeName;
  hook.schemaName = variant.schemaName;
}

/** Looks a ref up among the components (and shared subschemas) of `byRef`. */
function componentLookup(byRef: ReadonlyMap<string, NamedSchema>): (ref: string) => string | undefined {
  return (ref) => {
    const key = componentKey(ref);
    return key !== undefined && byRef.has(key) ? key : undefined;
  };
}

/** Keys of a shared subschema's pointer that say nothing of what it is (they go into no name). */
const STRUCTURAL = new Set([
  "properties",
  "items",
  "allOf",
  "anyOf",
  "oneOf",
  "definitions",
  "$defs",
  "additionalProperties",
  "patternProperties",
  "prefixItems",
]);

/**
 * Schemas inside a component that other places $ref (`#/components/schemas/Server/properties/ipConfiguration`:
 * APIs.guru's bundling of shared external schemas, 39 such targets in Azure's applicationGateway): each is
 * emitted once as a component of its own, named after its pointer, so a ref to it is a name like any
 * other, never a copy at every use (which nested past TypeScript's instantiation depth), and a ref to
 * itself is a recursive component (Codat's `definitions`).
 */
function sharedSubschemas(
  document: Record<string, unknown>,
  names: NameRegistry,
  prefix: string,
  components: ReadonlyMap<string, NamedSchema>,
): NamedSchema[] {
  const keys = new Set<string>();
  for (const ref of collectRefs(document)) {
    const tokens = refTokens(ref);
    if (tokens === undefined || tokens.length <= 3 || tokens[0] !== "components" || tokens[1] !== "schemas") continue;
    if (!components.has(COMPONENT_SCHEMA_PREFIX + escapeToken(tokens[2])) || !isSchemaAt(tokens)) continue;
    const target = resolvePointer(document, ref);
    if (target !== null && typeof target === "object" && !Array.isArray(target)) keys.add(`#${toPointer(tokens)}`);
  }
  return [...keys].sort().map((key) => {
    const tokens = refTokens(key) as string[];
    const words = [tokens[2], ...tokens.slice(3).filter((t) => !STRUCTURAL.has(t) && !/^\d+$/.test(t))];
    const typeName = names.claim(prefix + words.map(toPascalCase).join(""), ["", "Schema"]);
    return {
      ref: key,
      originalName: tokens.slice(2).join("/"),
      typeName,
      schemaName: `${typeName}Schema`,
      schema: resolvePointer(document, key) as Schema,
      recursive: false,
      zodObject: false,
      pointer: key.slice(1),
    };
  });
}

/** One problem per cycle of components that only alias each other (see aliasCycles). */
function aliasCycleProblems(document: Record<string, unknown>, schemas: readonly NamedSchema[]): SpecProblem[] {
  const byRef = new Map(schemas.map((s) => [s.ref, s]));
  return aliasCycles(
    document,
    schemas.map((s) => s.ref),
    componentLookup(byRef),
  ).map((cycle) => {
    const names = cycle.map((ref) => byRef.get(ref)?.originalName ?? ref);
    return {
      pointer: byRef.get(cycle[0])?.pointer ?? "",
      problem: `${names.length === 1 ? `${names[0]} refers to itself` : `${names.join(", ")} refer to each other`} only through $ref, allOf, oneOf or anyOf, so no type can be built from ${names.length === 1 ? "it" : "them"}; the cycle needs an object property or an array item`,
    };
  });
}

/** info.x-custody-client-name when given, else the title in PascalCase without a trailing "Api", plus "Client". */
export function clientClassName(info: Record<string, unknown>): string {
  const declared = info["x-custody-client-name"];
  if (typeof declared === "string" && /^[A-Z][A-Za-z0-9_]*$/.test(declared) && !CUSTODY_NAMES.includes(declared))
    return declared;
  const title = typeof info.title === "string" ? info.title : "Api";
  const base = toPascalCase(title).replace(/(Api|API)$/, "") || "Api";
  // "Rpc API" would give RpcClient, which rpc.ts declares.
  return CUSTODY_NAMES.includes(`${base}Client`) ? `${base}ApiClient` : `${base}Client`;
}

/**
 * Resolves every schema the emitters will print, so a malformed `type` anywhere is an error before
 * anything is written, and marks the components whose zod const is a plain z.object.
 */
function resolveAll(
  resolver: SchemaResolver,
  schemas: readonly NamedSchema[],
  operations: readonly OperationModel[],
): void {
  for (const named of schemas) resolver.resolve(named.schema, named.pointer);
  for (const named of schemas) named.zodObject = !named.recursive && isPlainZodObject(named.schema, resolver);
  for (const op of operations) {
    for (const list of Object.values(op.params)) for (const p of list) resolver.resolve(p.schema, op.pointer);
    if (op.body) resolver.resolve(op.body.schema, `${op.pointer}/requestBody`);
    for (const r of op.responses)
      if (r.schema !== undefined) resolver.resolve(r.schema, `${op.pointer}/responses/${r.status}`);
  }
}

/** Component schemas, named (sorted by original name for stable suffixes) and ordered for emission. */
export function buildComponentSchemas(
  document: Record<string, unknown>,
  names: NameRegistry,
  prefix = "",
): NamedSchema[] {
  const components = ((document.components ?? {}) as Record<string, unknown>).schemas as
    | Record<string, Schema>
    | undefined;
  if (!components) return [];
  const originals = Object.keys(components).sort();
  const byRef = new Map<string, NamedSchema>();
  for (const original of originals) {
    const typeName = names.claim(prefix + toPascalCase(original), ["", "Schema"]);
    const ref = COMPONENT_SCHEMA_PREFIX + escapeToken(original);
    byRef.set(ref, {
      ref,
      originalName: original,
      typeName,
      schemaName: `${typeName}Schema`,
      schema: components[original],
      recursive: false,
      zodObject: false,
      pointer: toPointer(["components", "schemas", original]),
    });
  }
  for (const named of sharedSubschemas(document, names, prefix, byRef)) byRef.set(named.ref, named);
  const componentOf = componentLookup(byRef);
  const edges = new Map<string, string[]>();
  for (const [ref, named] of byRef) edges.set(ref, componentDependencies(document, named.schema, componentOf));
  const { order, recursive } = orderByDependencies([...byRef.keys()], edges);
  return order.map((ref) => {
    const named = byRef.get(ref) as NamedSchema;
    named.recursive = recursive.has(ref);
    return named;
  });
}
