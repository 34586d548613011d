// The verification key and the signature of each delivery (seed 6).
import type { CheckContext } from "../../run/context.ts";
import type { ReceivedDelivery } from "../../transport/receiver.ts";
import type { Check } from "../check.ts";
import { expectSuccess, failWith } from "../expect.ts";
import { fail, skip } from "../outcome.ts";
import { deliveryEvidence, ownedEvent } from "./received.ts";
import { ed25519PublicKey, findSignatureScheme } from "./signature-scheme.ts";

/**
 * Operation 8, validated: its key's 32 raw bytes. The contract publishes base64 of the raw key; at
 * seed level base64 of the key's SPKI DER form is as much "a base64-encoded Ed25519 public key" (§2.9).
 */
export async function verificationKey(ctx: CheckContext): Promise<Uint8Array> {
  const workspaceId = await ctx.need("workspace");
  const ex = await ctx.call("getWebhookVerificationKey", { params: { workspace_id: workspaceId } });
  const data = expectSuccess(ex, ctx.operation("getWebhookVerificationKey")) as { public_key?: unknown };
  const key = data?.public_key;
  if (typeof key !== "string") failWith(ex, "public_key is not a string");
  const seed = ctx.level === "seed";
  const raw = ed25519PublicKey(key, seed);
  if (!raw) {
    const length = Buffer.from(key, "base64").length;
    failWith(
      ex,
      `public_key is not base64 of a 32-byte Ed25519 key${seed ? " or of its 44-byte SPKI DER form" : " (the contract's raw form)"} (decodes to ${length} bytes)`,
    );
  }
  return raw;
}

/** The scheme the delivery's signature verifies in: custody's profiles, and at seed level any it can find. */
function signatureScheme(ctx: CheckContext, key: Uint8Array, d: ReceivedDelivery) {
  return findSignatureScheme(key, d, { required: ctx.config.webhookProfile, search: ctx.level === "seed" });
}

export const verificationKeyCheck: Check = {
  id: "webhooks.verification-key",
  statements: [
    "s1.deliveries-signed",
    "s2.9.webhook-verification-key",
    "s4.op8-webhook-verification-key",
    "s6.signed-ed25519",
  ],
  group: "webhooks",
  title: "Operation 8 gives a base64 Ed25519 public key (32 raw bytes; at seed level its SPKI DER form too)",
  severity: "MUST",
  seedRef: "§2.9; §6",
  level: "seed",
  requires: ["workspace"],
  sends: "getWebhookVerificationKey",
  async run(ctx) {
    await verificationKey(ctx);
  },
};

export const deliverySignature: Check = {
  id: "webhooks.delivery-signature",
  skipsWithout: ["event"],
  statements: ["s1.deliveries-logged", "s1.deliveries-signed", "s6.webhook-delivery", "s6.signed-ed25519"],
  awaits: ["event"],
  group: "webhooks",
  title: "A real delivery verifies with the key of operation 8 (reports the signature profile)",
  severity: "MUST",
  seedRef: "§6 (deliveries are signed, Ed25519)",
  level: "seed",
  requires: ["receiver", "workspace"],
  sends:
    "nothing new: verifies a delivery the receiver got with the key of getWebhookVerificationKey (custody's two profiles; at seed level also an Ed25519 signature found in any header, over the body, its canonical JSON, `{t}.{body}`, `{t}{body}`, `{id}.{t}.{body}` or as a detached JWS)",
  async run(ctx) {
    const event = await ownedEvent(ctx);
    const key = await verificationKey(ctx);
    // With --webhook-profile the deployment must sign that way; otherwise the headers say which, and
    // at seed level (the seed shows neither header nor content) any scheme certify can find will do.
    const required = ctx.config.webhookProfile;
    const found = signatureScheme(ctx, key, event);
    if (!found.ok) {
      const why = `the delivery does not verify with the published key: ${found.reason}${found.profile ? ` (profile ${found.profile}${required ? ", required by --webhook-profile" : ""})` : ""}`;
      // A signature is there, in headers of no profile custody knows, over content certify cannot
      // name: not a seed break it can show. Headers of a known profile that do not verify are one.
      if (ctx.level === "seed" && !required && found.signatureSeen && found.profile === undefined)
        skip(
          `${why}. The seed shows neither the header nor the signed content; if yours is one of custody's profiles, name it with --webhook-profile`,
        );
      fail(why, deliveryEvidence(event));
    }
    ctx.fact("profile", found.scheme.profile ?? found.scheme.description);
  },
};

export const tamperedBodyRejected: Check = {
  id: "webhooks.tampered-body-rejected",
  skipsWithout: ["event"],
  statements: ["s1.deliveries-signed", "s6.signed-ed25519"],
  awaits: ["event"],
  group: "webhooks",
  title: "The delivery signature binds the body: a tampered body (or id, or timestamp) fails verification",
  severity: "MUST",
  seedRef: "§6 (the receiver verifies the signed payload)",
  level: "seed",
  requires: ["receiver", "workspace"],
  sends: "nothing: verifies a received delivery with its body, id or timestamp changed (guards the verifier)",
  async run(ctx) {
    const event = await ownedEvent(ctx);
    const key = await verificationKey(ctx);
    const found = signatureScheme(ctx, key, event);
    if (!found.ok)
      skip(`the untampered delivery does not verify either (${found.reason}); see webhooks.delivery-signature`);
    const { scheme } = found;
    const tampered = tamperBody(event.body);
    const attempts: Array<[string, boolean]> = [["a changed body", scheme.verifies(tampered)]];
    if (scheme.profile === "standard-webhooks") {
      const ts = Number(event.headers["webhook-timestamp"]);
      attempts.push([
        "a changed webhook-id",
        scheme.verifies(event.body, { ...event.headers, "webhook-id": `${String(event.headers["webhook-id"])}x` }),
      ]);
      attempts.push([
        "a changed webhook-timestamp",
        scheme.verifies(event.body, { ...event.headers, "webhook-timestamp": String(ts - 1) }),
      ]);
    }
    const accepted = attempts.filter(([, verified]) => verified).map(([what]) => what);
    if (accepted.length > 0)
      fail(
        `the signature still verifies with ${accepted.join(", ")}`,
        deliveryEvidence(event, { tampered_body: tampered, scheme: scheme.description }),
      );
  },
};

/** The body with one character of a string value changed, still valid JSON. */
export function tamperBody(body: string): string {
  const at = body.search(/"[^"]*[a-zA-Z0-9]/);
  if (at === -1) return `${body} `;
  const index = body.slice(at + 1).search(/[a-zA-Z0-9]/) + at + 1;
  const ch = body[index];
  const swapped = ch === "a" ? "b" : ch === "0" ? "1" : /[0-9]/.test(ch) ? "0" : "a";
  return body.slice(0, index) + swapped + body.slice(index + 1);
}
