import { WebhookVerificationError } from "./errors.ts";
import { firstIssue } from "./schema-issue.ts";
export { WebhookVerificationError };
import { verifyWebhook as verifyWebhookSignature } from "./webhook-signature.ts";
/** Parses a delivery body (raw text, bytes or parsed JSON) into an event; its `type` or `event` member picks the schema. */
export function parseEvent(body, schemas) {
    let value = body;
    if (typeof body === "string" || body instanceof Uint8Array) {
        try {
            value = JSON.parse(typeof body === "string" ? body : new TextDecoder().decode(body));
        }
        catch {
            throw new WebhookVerificationError("invalid_event", "webhook body is not JSON");
        }
    }
    const record = typeof value === "object" && value !== null ? value : {};
    const type = [record.type, record.event].find((t) => typeof t === "string" && Object.hasOwn(schemas.byType, t));
    const schema = type !== undefined ? schemas.byType[type] : schemas.any;
    const result = schema.safeParse(value);
    if (!result.success)
        throw new WebhookVerificationError("invalid_event", `webhook event does not match the spec at ${firstIssue(result.error)}`);
    return result.data;
}
/** Checks the signature (and timestamp window) of a delivery, then parses its event. */
export function verifyEvent(options, defaultProfile, schemas) {
    const result = verifyWebhookSignature({ ...options, profile: options.profile ?? defaultProfile });
    if (!result.ok)
        throw new WebhookVerificationError(result.reason, `webhook signature rejected: ${result.reason}`);
    return parseEvent(options.body, schemas);
}
//# sourceMappingURL=webhook-event.js.map