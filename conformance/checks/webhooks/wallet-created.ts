// The event that announces a new wallet is named wallet.created (§1, §4 "creates a wallet;
// completion emits wallet.created", §6). At seed level the request's body is not shown, so the
// smallest one that works is used: `{}`, then a name. A deployment that refuses both is not judged
// (the answer is named); one that creates a wallet must announce it under that event type.

import { firstString } from "../../provision/util.ts";
import type { CheckContext } from "../../run/context.ts";
import type { HttpExchange } from "../../transport/probe.ts";
import type { ReceivedDelivery } from "../../transport/receiver.ts";
import type { Check } from "../check.ts";
import { fail, skip } from "../outcome.ts";

const EVENT = "wallet.created";

export const walletCreatedName: Check = {
  id: "webhooks.wallet-created-name",
  statements: ["s1.wallet-created-event", "s4.partial-create-wallet", "s6.wallet-created"],
  group: "webhooks",
  title: "A wallet created with POST /api/v1/wallets is announced by an event named wallet.created",
  severity: "MUST",
  seedRef: "§1; §4 (POST /api/v1/wallets: completion emits wallet.created); §6",
  level: "seed",
  requires: ["receiver", "workspace"],
  awaits: ["event"],
  // Its delivery must not be taken for a requeued one, and the webhook must still be there.
  after: ["webhooks.resend-same-event"],
  timeoutScale: 2,
  sends:
    "createWallet with `{}`, then with a name when `{}` is refused (the wallet stays: the seed shows no way to remove one); waits for the delivery that mentions the new wallet",
  async run(ctx) {
    const receiver = await ctx.need("receiver");
    const since = Date.now();
    const { ex, walletId } = await createSmallest(ctx);
    const waitMs = ctx.timeoutMs;
    // The wallet's id as a whole value of the event (short ids are substrings of other values).
    const announced = await receiver.waitFor(
      (d) => d.receivedAt >= since && strings(d.event, 0).includes(walletId),
      waitMs,
      ctx.signal,
    );
    if (!announced) {
      skip(
        `no delivery mentioning wallet ${walletId} reached the receiver within ${waitMs} ms of its creation (--timeout-ms): the seed shows no subscriptions, so the webhook may not be sent it`,
      );
    }
    if (names(announced, EVENT)) return;
    const called = typeNames(announced);
    fail(
      `wallet ${walletId} was announced by an event named ${
        called.length ? called.map((n) => JSON.stringify(n)).join(" / ") : "(no name found)"
      }, not ${EVENT}`,
      {
        ...ex.evidence,
        details: { received_delivery: { headers: announced.headers, body: announced.body.slice(0, 4096) } },
      },
    );
  },
};

/** createWallet with `{}`, then with a name; skipped, naming the answers, when both are refused. */
async function createSmallest(ctx: CheckContext): Promise<{ ex: HttpExchange; walletId: string }> {
  const tried: string[] = [];
  for (const body of [{}, { name: ctx.suite.marker.name("wallet-created") }]) {
    const ex = await ctx.call("createWallet", { body });
    tried.push(`${JSON.stringify(body)} → HTTP ${ex.response.status}`);
    if (ex.response.status < 200 || ex.response.status > 299) continue;
    const walletId = walletIdIn(ex);
    if (!walletId)
      skip(
        `createWallet ${JSON.stringify(
          body,
        )} was accepted, but its answer names no wallet id, so the event that announces it cannot be told apart`,
      );
    ctx.fact("created", `wallet ${walletId} with ${JSON.stringify(body)}`);
    return { ex, walletId };
  }
  skip(
    `createWallet refused the smallest bodies (${tried.join(
      "; ",
    )}): the seed does not show its payload, so the event that announces a wallet is not judged`,
  );
}

function walletIdIn(ex: HttpExchange): string | undefined {
  try {
    const data = (JSON.parse(ex.response.text) as { data?: unknown }).data as Record<string, unknown> | undefined;
    return (
      firstString(data, "wallet_id", "id") ??
      firstString(data?.wallet as Record<string, unknown> | undefined, "id", "wallet_id")
    );
  } catch {
    return undefined;
  }
}

/** True when a header or a string anywhere in the body is exactly `name` (§6 does not show where the type is carried). */
function names(d: ReceivedDelivery, name: string): boolean {
  if (Object.values(d.headers).some((v) => v === name)) return true;
  return strings(d.event, 0).includes(name);
}

function strings(v: unknown, depth: number): string[] {
  if (typeof v === "string") return [v];
  if (depth > 6 || typeof v !== "object" || v === null) return [];
  return Object.values(v as Record<string, unknown>).flatMap((x) => strings(x, depth + 1));
}

/** What the delivery calls itself: top-level type-like members and event-type headers. */
function typeNames(d: ReceivedDelivery): string[] {
  const body = d.event ?? {};
  const fromBody = ["event", "event_type", "type", "eventType"]
    .map((k) => body[k])
    .filter((v): v is string => typeof v === "string");
  const fromHeaders = Object.entries(d.headers)
    .filter(([k, v]) => /event.?type/i.test(k) && typeof v === "string")
    .map(([, v]) => v as string);
  return [...fromBody, ...fromHeaders];
}
