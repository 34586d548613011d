// A wallet is created asynchronously and announced by wallet.created.

import { eventPayloadOf } from "../../transport/receiver.ts";
import type { Check } from "../check.ts";
import { fail } from "../outcome.ts";
import { owned } from "./owned.ts";

export const walletCreation: Check = {
  id: "lifecycle.wallet-creation",
  statements: [
    "s1.mpc-wallets-in-workspace",
    "s1.async-wallet-creation",
    "s2.6.wallet-creation-status",
    "s3.creation-status-pending",
    "s4.op5-wallet-creation-status",
    "s4.partial-create-wallet",
  ],
  awaits: ["wallet"],
  group: "lifecycle",
  title: "createWallet answers 202 pending; the creation status then reaches success",
  severity: "MUST",
  seedRef: "§1 (wallets are created asynchronously); §2.6; §3",
  level: "full",
  timeoutScale: 2,
  sends: "createWallet, then getWalletCreationStatus until success",
  async run(ctx) {
    const wallet = await owned(ctx, "wallet");
    const created = wallet.created!;
    const expected = ctx.operation("createWallet").successStatus;
    if (created.httpStatus !== expected)
      fail(`createWallet answered HTTP ${created.httpStatus}, not ${expected}`, created.evidence);
    if (created.status !== "pending")
      fail(`createWallet answered status ${JSON.stringify(created.status)}, not "pending"`, created.evidence);
    const last = wallet.statuses[wallet.statuses.length - 1];
    if (last !== "success") fail(`creation status went ${wallet.statuses.join(" → ")}`, wallet.finalEvidence);
  },
};

export const walletCreatedEvent: Check = {
  id: "lifecycle.wallet-created-event",
  statements: ["s1.wallet-created-event", "s4.partial-create-wallet", "s6.wallet-created"],
  awaits: ["event"],
  group: "lifecycle",
  title: "A wallet.created event is delivered once the wallet is created",
  severity: "MUST",
  seedRef: "§1; §6 (wallet.created)",
  level: "full",
  requires: ["receiver", "webhook", "wallet"],
  timeoutScale: 2,
  sends: "nothing new: waits for the created wallet's wallet.created at the receiver",
  async run(ctx) {
    const event = await owned(ctx, "event");
    const wallet = await ctx.need("wallet");
    const data = eventPayloadOf(event);
    if (data.wallet_id !== undefined && data.wallet_id !== wallet.walletId) {
      fail(`wallet.created names wallet ${String(data.wallet_id)}, created ${wallet.walletId}`);
    }
  },
};
