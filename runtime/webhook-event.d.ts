import type { z } from "zod";
import { WebhookVerificationError } from "./errors.ts";
export { WebhookVerificationError };
import { type HeadersInput, type WebhookProfile } from "./webhook-signature.ts";
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
}
/** The event schemas of a spec: one per type, and the union of all. */
export interface EventSchemas {
    byType: Readonly<Record<string, z.ZodType>>;
    any: z.ZodType;
}
/** Parses a delivery body (raw text, bytes or parsed JSON) into an event; its `type` or `event` member picks the schema. */
export declare function parseEvent(body: unknown, schemas: EventSchemas): unknown;
/** Checks the signature (and timestamp window) of a delivery, then parses its event. */
export declare function verifyEvent(options: VerifyWebhookOptions, defaultProfile: WebhookProfile | undefined, schemas: EventSchemas): unknown;
