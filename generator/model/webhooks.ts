// The events of OpenAPI 3.1 `webhooks:`: one entry per event type, with the schema of its body.
import { toPointer } from "../load/json-pointer.ts";
import type { SpecProblem } from "../load/spec-error.ts";
import { type NameRegistry, toPascalCase } from "./names.ts";
import { HTTP_METHODS, pickMediaType, resolveObject } from "./operations.ts";
import { canonicalComponentRef, isRefSchema } from "./schema-utils.ts";
import type { NamedSchema, Schema, WebhookModel } from "./types.ts";

type Obj = Record<string, unknown>;

export function buildWebhooks(
  document: Obj,
  schemasByRef: ReadonlyMap<string, NamedSchema>,
  names: NameRegistry,
  problems: SpecProblem[],
): WebhookModel[] {
  const webhooks = (document.webhooks ?? {}) as Obj;
  const out: WebhookModel[] = [];
  for (const event of Object.keys(webhooks)) {
    const item = resolveObject(document, webhooks[event]);
    const method = item && HTTP_METHODS.find((m) => item[m] && typeof item[m] === "object");
    if (!item || !method) continue;
    const operation = item[method] as Obj;
    const body = resolveObject(document, operation.requestBody);
    const picked = body ? pickMediaType(body.content) : undefined;
    const schema = (picked?.[1].schema as Schema | undefined) ?? undefined;
    if (schema === undefined) {
      problems.push({
        pointer: toPointer(["webhooks", event, method]),
        problem: `webhook "${event}" has no request body schema`,
      });
      continue;
    }
    const canonical = isRefSchema(schema) ? canonicalComponentRef(schema.$ref) : undefined;
    const component = canonical === undefined ? undefined : schemasByRef.get(canonical);
    const base = component ? undefined : names.claim(`${toPascalCase(event)}Event`, ["", "Schema"]);
    out.push({
      event,
      operationId: typeof operation.operationId === "string" ? operation.operationId : undefined,
      summary: typeof operation.summary === "string" ? operation.summary : undefined,
      description: typeof operation.description === "string" ? operation.description : undefined,
      schema,
      typeName: component?.typeName ?? (base as string),
      schemaName: component?.schemaName ?? `${base}Schema`,
      componentRef: component?.ref,
    });
  }
  return out.sort((a, b) => (a.event < b.event ? -1 : a.event > b.event ? 1 : 0));
}

/** The default profile named by x-custody-webhook-signature, when the spec declares one. */
export function webhookProfile(document: Obj): string | undefined {
  const ext = document["x-custody-webhook-signature"] as Obj | undefined;
  return ext && typeof ext.default === "string" ? ext.default : undefined;
}

/**
 * The delivery guarantees of x-custody-webhook-delivery as plain data (its x-* annotations left out), so
 * that receivers and deployments read the spec's time-out, schedule and targets instead of restating them.
 */
export function webhookDelivery(document: Obj): Record<string, unknown> | undefined {
  const ext = document["x-custody-webhook-delivery"];
  return ext && typeof ext === "object" && !Array.isArray(ext)
    ? (withoutAnnotations(ext) as Record<string, unknown>)
    : undefined;
}

function withoutAnnotations(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutAnnotations);
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value as Obj)
      .filter(([k]) => !k.startsWith("x-"))
      .map(([k, v]) => [k, withoutAnnotations(v)]),
  );
}
