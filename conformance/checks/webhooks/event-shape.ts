// The body of a delivered event (seed 2.7, 6).
import { EVENT_TYPES } from "../../provision/util.ts";
import { eventIdOf } from "../../transport/receiver.ts";
import type { Check } from "../check.ts";
import { fail } from "../outcome.ts";
import { deliveryEvidence, ownedEvent } from "./received.ts";

export const eventShape: Check = {
  id: "webhooks.event-shape",
  skipsWithout: ["event"],
  statements: ["s6.webhook-delivery"],
  awaits: ["event"],
  group: "webhooks",
  title: "A delivered event is JSON {webhook_id, resource_id, url, payload, event} with its event id in a header",
  severity: "MUST",
  seedRef: "§6; assumed: event body",
  level: "full",
  requires: ["receiver"],
  sends: "nothing new: examines a delivery the receiver got",
  async run(ctx) {
    const event = await ownedEvent(ctx);
    const e = event.event;
    if (!e) fail("the delivery body is not a JSON object", deliveryEvidence(event));
    const problems: string[] = [];
    for (const field of ["webhook_id", "resource_id", "url"] as const)
      if (typeof e[field] !== "string" || !e[field]) problems.push(`${field} is not a string`);
    if (typeof e.event !== "string" || !(EVENT_TYPES as readonly string[]).includes(e.event))
      problems.push(`event ${JSON.stringify(e.event)} is not an event type`);
    if (typeof e.payload !== "object" || e.payload === null || Array.isArray(e.payload))
      problems.push("payload is not an object");
    if (eventIdOf(event) === undefined) problems.push("no event id (x-webhook-event-id or webhook-id header)");
    if (problems.length > 0) fail(`delivered event: ${problems.join("; ")}`, deliveryEvidence(event));
  },
};
