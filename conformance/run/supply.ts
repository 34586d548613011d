// The fixture supply table: for each prerequisite, the flag that supplies it and whether the run may
// create it by driving operations the seed does not specify. Decided here once; providers ask
// `supplied` / `missing` instead of re-deciding from the level.

import { CheckSkipped } from "../checks/outcome.ts";
import type { Prerequisite, SupplyMode } from "../checks/types.ts";
import { isLoopbackUrl, type Target } from "./config.ts";

export interface SupplyRule {
  /** The flag(s) that supply it on the command line. */
  flag?: string;
  /** True when it can be created by driving assumed operations (--level full, or --sandbox). */
  creatable: boolean;
  /** What it is, for the skip message. */
  what: string;
  /** True when the target's settings hand it over as it is (its provider returns it without a request). */
  given?: (target: Target, mode: SupplyMode) => boolean;
  /**
   * What its provider needs first when it is not given, per mode: absent for a mode in which the
   * provider cannot make it. certify --plan (plan.ts) walks these; the providers in fixtures/ follow them.
   */
  from?: { given?: Prerequisite[]; create?: Prerequisite[] };
  /** A setting (its flag) without which it cannot be made in any mode. */
  setting?: (target: Target) => boolean;
}

export const SUPPLY: Record<Prerequisite, SupplyRule> = {
  workspace: {
    flag: "--workspace-id",
    creatable: true,
    what: "workspace id",
    given: (t) => !!t.workspaceId,
    from: { create: [] },
  },
  receiver: {
    flag: "--webhook-receiver-url",
    creatable: true,
    what: "webhook receiver the deployment can reach",
    // Without a public URL, only a deployment on this machine reaches the receiver on 127.0.0.1.
    given: (t, mode) => !!t.webhookReceiverUrl || (mode === "create" && isLoopbackUrl(t.baseUrl)),
  },
  webhook: {
    flag: "--webhook-id",
    creatable: true,
    what: "webhook id",
    given: (t, mode) => mode === "given" && !!t.fixtureIds.webhookId,
    from: { create: ["workspace", "receiver"] },
  },
  wallet: {
    flag: "--wallet-id",
    creatable: true,
    what: "wallet id",
    given: (t) => !!t.fixtureIds.walletId,
    from: { create: [] },
  },
  asset: {
    flag: "--wallet-id and --asset-id",
    creatable: true,
    what: "wallet and asset ids",
    given: (t) => !!t.fixtureIds.walletId && !!t.fixtureIds.assetId,
    from: { create: ["wallet"] },
  },
  "peer-asset": { creatable: true, what: "second wallet with the asset attached", from: { create: [] } },
  withdrawal: {
    flag: "--withdrawal-id",
    creatable: true,
    what: "withdrawal id",
    given: (t) => !!t.fixtureIds.withdrawalId,
    from: { create: ["withdrawal-executed"] },
  },
  delivery: {
    flag: "--delivery-id",
    creatable: true,
    what: "delivery id",
    given: (t, mode) => mode === "given" && !!t.fixtureIds.deliveryId,
    from: { create: ["workspace", "webhook", "event"] },
  },
  event: {
    flag: "--webhook-receiver-url and --delivery-id (of a webhook registered to that URL)",
    creatable: true,
    what: "signed delivery",
    // At seed level the given delivery is requeued (operation 6) and must reach the receiver.
    from: { given: ["receiver", "workspace", "delivery"], create: ["receiver", "webhook", "wallet"] },
  },
  "viewer-key": {
    flag: "--viewer-api-key/--viewer-api-secret",
    creatable: true,
    what: "viewer key",
    given: (t) => !!t.viewer,
    from: { create: ["workspace"] },
  },
  "scoped-key": {
    flag: "--scoped-api-key/--scoped-api-secret",
    creatable: true,
    what: "scoped key (balances:read)",
    given: (t) => !!t.scoped,
    from: { create: ["workspace"] },
  },
  // The key is given in every mode; the full-level deposit is driven only when the run creates fixtures,
  // the seed-level one also to --wallet-id/--asset-id at seed level.
  faucet: {
    flag: "--faucet-private-key",
    creatable: false,
    what: "funded chain key",
    given: (t) => !!t.faucetPrivateKey,
  },
  deposit: { flag: "--faucet-private-key", creatable: true, what: "deposit", from: { create: ["faucet", "asset"] } },
  // Never made without the key, at any level (so no "or --level full"); when the run creates fixtures,
  // its provider deposits to a wallet of its own, which needs nothing more than creating the asset.
  "seed-deposit": {
    flag: "--faucet-private-key",
    creatable: false,
    what: "deposit through the node access",
    from: { given: ["faucet", "asset"] },
  },
  "withdrawal-executed": {
    flag: "--faucet-private-key",
    creatable: true,
    what: "executed withdrawal",
    from: { create: ["deposit", "asset", "peer-asset"] },
  },
  "sol-asset": { creatable: true, what: "wallet with the Solana native asset attached", from: { create: ["wallet"] } },
  "sol-deposit": {
    flag: "--solana-rpc-url",
    creatable: true,
    what: "SOL deposit (made through the Solana RPC, funded by requestAirdrop)",
    setting: (t) => !!t.solanaRpcUrl,
    from: { create: ["sol-asset"] },
  },
  "money-funds": {
    flag: "--faucet-private-key",
    creatable: true,
    what: "funded wallet for the money path",
    from: { create: ["faucet"] },
  },
  "other-tenant": {
    flag: "--other-api-key/--other-api-secret",
    creatable: false,
    what: "key of another workspace",
    given: (t) => !!t.other,
  },
};

/**
 * At seed level a requeued delivery that never reaches the receiver: certify cannot see where the
 * webhook points nor whether the deployment reaches this runner, so its checks are skipped with this.
 */
export const RECEIVER_UNREACHED = {
  needs: "a webhook registered to --webhook-receiver-url, reachable from the deployment",
  reason:
    "the deployment does not reach this runner, or the delivery's webhook is registered to another URL " +
    "(or it delivers later than 2 × --timeout-ms). From CI: start the service inside the job, run certify " +
    "inside the deployment's network, or put a public URL in front of the receiver (--webhook-receiver-url); " +
    "docs/guides/certify-in-ci.md#webhooks-from-ci",
} as const;

export type { SupplyMode } from "../checks/types.ts";

/** The mode a run uses: created at --level full, and at any level against the sandbox (it has every operation). */
export function supplyMode(level: "seed" | "full", sandbox: boolean): SupplyMode {
  return level === "full" || sandbox ? "create" : "given";
}

/** What would let a missing prerequisite be supplied, in one phrase. */
export function needsOf(name: Prerequisite, mode: SupplyMode): string {
  const rule = SUPPLY[name];
  if (mode === "create" || !rule.creatable) return rule.flag ?? "--level full";
  return rule.flag ? `${rule.flag} (or --level full)` : "--level full";
}

/** The skip a provider throws when the prerequisite is neither given nor creatable in this mode. */
export function missing(name: Prerequisite, mode: SupplyMode, detail?: string): never {
  const needs = needsOf(name, mode);
  throw new CheckSkipped(`no ${SUPPLY[name].what}${detail ? ` (${detail})` : ""}: pass ${needs}`, needs);
}
