// Receiving a webhook: verify the signature (runtime/webhooks/signature.ts), then parse the body into
// one of the spec's declared events. Generated webhooks.ts binds these to its event schemas.
import { WebhookVerificationError } from "../errors.ts";
import { firstIssue, type ParsingSchema } from "../schema/issue.ts";

export { WebhookVerificationError };

import { type HeadersInput, verifyWebhook as verifyWebhookSignature, type WebhookProfile } from "./signature.ts";

export interface VerifyWebhookOptions {
  /** base64 of the raw 32-byte Ed25519 public key. */
  publicKeyBase64: string;
  headers: HeadersInput;
  /** The raw body exactly as received. */
  body: string | Uint8Array;
  /** Unix seconds or a Date; defaults to now. */
  now?: number | Date;
  /** Defaults to the spec's profile. */
  profile?: WebhookProfile;
  toleranceSeconds?: number;
  /** The API secret: also require the canonical profile's x-webhook-hmac-signature to match (constant-time). */
  hmacSecret?: string;
}

/** The event schemas of a spec: one per type, and the union of all. */
export interface EventSchemas {
  byType: Readonly<Record<string, ParsingSchema>>;
  any: ParsingSchema;
}

/** Parses a delivery body (raw text, bytes or parsed JSON) into an event; its `type` or `event` member picks the schema. */
export function parseEvent(body: unknown, schemas: EventSchemas): unknown {
  let value: unknown = body;
  if (typeof body === "string" || body instanceof Uint8Array) {
    try {
      value = JSON.parse(typeof body === "string" ? body : new TextDecoder().decode(body));
    } catch {
      throw new WebhookVerificationError("invalid_event", "webhook body is not JSON");
    }
  }
  const record = typeof value === "object" && value !== null ? (value as { type?: unknown; event?: unknown }) : {};
  const type = [record.type, record.event].find(
    (t): t is string => typeof t === "string" && Object.hasOwn(schemas.byType, t),
  );
  const schema = type !== undefined ? schemas.byType[type] : schemas.any;
  const result = schema.safeParse(value);
  if (!result.success)
    throw new WebhookVerificationError(
      "invalid_event",
      `webhook event does not match the spec at ${firstIssue(result.error)}`,
    );
  return result.data;
}

/** Checks the signature (and timestamp window) of a delivery, then parses its event. */
export function verifyEvent(
  options: VerifyWebhookOptions,
  defaultProfile: WebhookProfile | undefined,
  schemas: EventSchemas,
): unknown {
  const result = verifyWebhookSignature({ ...options, profile: options.profile ?? defaultProfile });
  if (!result.ok) throw new WebhookVerificationError(result.reason, `webhook signature rejected: ${result.reason}`);
  return parseEvent(options.body, schemas);
}
