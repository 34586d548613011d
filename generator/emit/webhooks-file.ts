// generated/webhooks.ts: the event types of the spec's `webhooks:` with their zod schemas, a parser,
// and verifyWebhook for receivers (signature via runtime/webhooks/signature.ts, then the typed event).
import { directedNames } from "../model/directions.ts";
import { derefSchema, flattenObject } from "../model/schema-utils.ts";
import type { SpecModel, WebhookModel } from "../model/types.ts";
import { codeJson } from "../spec-text.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import { dialectOf, headerStatement, importStatement } from "./context.ts";
import { printStatements, type Statement } from "./print.ts";
import { indent } from "./ts-type.ts";

const PROFILES = new Set(["standard-webhooks", "canonical-json"]);

const FUNCTIONS = `export { WebhookVerificationError, type VerifyWebhookOptions };

const eventSchemas: EventSchemas = { byType: webhookEventSchemas, any: WebhookEventSchema };

/** Parses a delivery body (raw text, bytes or parsed JSON) into a typed event; the member that names the event type picks the schema. */
export function parseWebhookEvent(body: unknown): WebhookEvent {
  return parseEvent(body, eventSchemas) as WebhookEvent;
}

/** Checks the signature (and timestamp window) of a delivery, then returns its typed event. */
export function verifyWebhook(options: VerifyWebhookOptions): WebhookEvent {
  return verifyEvent(options, DEFAULT_PROFILE, eventSchemas) as WebhookEvent;
}`;

export function emitWebhooks(ctx: EmitContext): EmittedFile | undefined {
  const hooks = ctx.model.webhooks;
  if (hooks.length === 0) return undefined;
  const profile =
    ctx.model.webhookProfile !== undefined && PROFILES.has(ctx.model.webhookProfile)
      ? codeJson(ctx.model.webhookProfile)
      : "undefined";
  const eventList = hooks.map((h) => codeJson(h.event)).join(", ");
  const schemaRecord = `{\n${hooks.map((h) => indent(`${codeJson(h.event)}: S.${h.schemaName},`)).join("\n")}\n}`;
  const members = [...new Set(hooks.map((h) => `S.${h.schemaName}`))];
  const statements: Statement[] = [
    headerStatement(ctx.headerLines),
    importStatement(dialectOf(ctx).module, [], { namespace: "z" }),
    importStatement(ctx.runtime("webhooks/event"), [
      "parseEvent",
      "verifyEvent",
      "WebhookVerificationError",
      "type EventSchemas",
      "type VerifyWebhookOptions",
    ]),
    importStatement(ctx.runtime("webhooks/signature"), ["type WebhookProfile"]),
    importStatement("./schemas.js", [], { namespace: "S" }),
    importStatement("./types.js", [], { typeOnly: true, namespace: "T" }),
    variable("webhookEventTypes", `[${eventList}] as const`, "Every event type the spec declares."),
    {
      kind: "typeAlias",
      structure: { name: "WebhookEventType", isExported: true, type: "(typeof webhookEventTypes)[number]" },
    },
    {
      kind: "typeAlias",
      structure: {
        name: "WebhookEvent",
        isExported: true,
        type: [...new Set(hooks.map((h) => `T.${h.typeName}`))].join(" | "),
      },
    },
    variable("webhookEventSchemas", `${schemaRecord} as const`, "The zod schema of each event type's body."),
    variable("WebhookEventSchema", anyEventSchema(ctx.model, hooks, members), "Any declared event."),
    {
      kind: "variable",
      structure: {
        declarationKind: "const" as never,
        docs: [
          "The spec's default signature profile (x-custody-webhook-signature); undefined: detect from the headers.",
        ],
        declarations: [{ name: "DEFAULT_PROFILE", type: "WebhookProfile | undefined", initializer: profile }],
      },
    },
    ...deliveryStatement(ctx.model.webhookDelivery),
    { kind: "text", text: FUNCTIONS },
  ];
  return { path: "webhooks.ts", content: printStatements(statements) };
}

/**
 * z.discriminatedUnion on the member that names the event (`type`, or `event` as in the real service's
 * envelope) when every event is an object whose required member of that name is the literal event name,
 * else z.union.
 */
function anyEventSchema(model: SpecModel, hooks: WebhookModel[], members: string[]): string {
  if (members.length === 1) return members[0];
  const discriminator = DISCRIMINATORS.find((key) =>
    hooks.every((hook) => {
      const named = hook.componentRef === undefined ? undefined : model.schemasByRef.get(hook.componentRef);
      if (named === undefined || !directedNames(named, "response").zodObject) return false;
      const flat = flattenObject(model.document, named.schema);
      const prop = flat?.properties[key] === undefined ? undefined : derefSchema(model.document, flat.properties[key]);
      if (!flat?.required.has(key) || typeof prop !== "object" || prop === null) return false;
      return (
        prop.const === hook.event || (Array.isArray(prop.enum) && prop.enum.length === 1 && prop.enum[0] === hook.event)
      );
    }),
  );
  return discriminator
    ? `z.discriminatedUnion("${discriminator}", [${members.join(", ")}])`
    : `z.union([${members.join(", ")}])`;
}

/** `webhookDelivery`: the spec's x-custody-webhook-delivery as data, when the spec has one. */
function deliveryStatement(delivery: Record<string, unknown> | undefined): Statement[] {
  if (delivery === undefined) return [];
  const doc =
    "What the spec guarantees about delivery (x-custody-webhook-delivery): time-out, retry schedule, isolation, latency target, circuit breaker and disabling.";
  return [variable("webhookDelivery", `${codeJson(delivery, 2)} as const`, doc)];
}

/** Member names that may carry the event name, in the order they are tried. */
const DISCRIMINATORS = ["type", "event"] as const;

function variable(name: string, initializer: string, doc: string): Statement {
  return {
    kind: "variable",
    structure: {
      isExported: true,
      declarationKind: "const" as never,
      docs: [doc],
      declarations: [{ name, initializer }],
    },
  };
}
