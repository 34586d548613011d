// Deliveries the run's receiver got, and their evidence.
import type { CheckContext } from "../../run/context.ts";
import type { ReceivedDelivery } from "../../transport/receiver.ts";
import { skip } from "../outcome.ts";
import type { Evidence } from "../types.ts";

export function deliveryEvidence(d: ReceivedDelivery, extra?: unknown): Evidence {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(d.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : v;
  return {
    details: { received_delivery: { channel: d.channel, headers, body: d.body.slice(0, 4096) }, ...(extra as object) },
  };
}

/** The signed delivery the run got (skipped with the reason when there is none). */
export async function ownedEvent(ctx: CheckContext): Promise<ReceivedDelivery> {
  const result = await ctx.settle("event");
  if (result.ok) return result.value;
  // No delivery arrived although everything it needs was there: that is this check's failure.
  if (result.failure) throw result.failure;
  skip(result.reason, result.needs);
}
