// The provider of each prerequisite (see registry.ts for how they are shared).
import type { Suite } from "../run/context.ts";
import { provideAsset, providePeerAsset } from "./asset.ts";
import { provideDelivery, provideEvent } from "./delivery.ts";
import { provideDeposit } from "./deposit.ts";
import { provideFaucet, provideScopedKey, provideViewerKey } from "./keys.ts";
import { provideMoneyFunds } from "./money.ts";
import { provideOtherTenant } from "./other-tenant.ts";
import { FixtureRegistry, type Providers } from "./registry.ts";
import { provideSeedDeposit } from "./seed-deposit.ts";
import { provideSolAsset, provideSolDeposit } from "./solana.ts";
import { provideWallet } from "./wallet.ts";
import { provideWebhook } from "./webhook.ts";
import { provideReceiver } from "./webhook-receiver.ts";
import { provideExecutedWithdrawal, provideWithdrawalId } from "./withdrawal.ts";
import { provideWorkspace } from "./workspace.ts";

export const PROVIDERS: Providers<Suite> = {
  workspace: provideWorkspace,
  receiver: provideReceiver,
  webhook: provideWebhook,
  wallet: provideWallet,
  asset: provideAsset,
  "peer-asset": providePeerAsset,
  withdrawal: provideWithdrawalId,
  delivery: provideDelivery,
  event: provideEvent,
  "viewer-key": provideViewerKey,
  "scoped-key": provideScopedKey,
  faucet: provideFaucet,
  deposit: provideDeposit,
  "seed-deposit": provideSeedDeposit,
  "withdrawal-executed": provideExecutedWithdrawal,
  "sol-asset": provideSolAsset,
  "sol-deposit": provideSolDeposit,
  "money-funds": provideMoneyFunds,
  "other-tenant": provideOtherTenant,
};

/** Any one prerequisite may take this many per-check time limits before it counts as stuck. */
const CAP_FACTOR = 8;

export function createFixtures(suite: Suite): FixtureRegistry<Suite> {
  return new FixtureRegistry(suite, PROVIDERS, CAP_FACTOR * suite.options.timeoutMs);
}
