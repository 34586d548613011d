// The fixture supply table: for each prerequisite, the flag that supplies it and whether the run may
// create it by driving operations the seed does not specify. Decided here once; providers ask
// `supplied` / `missing` instead of re-deciding from the level.
import { CheckSkipped } from "../checks/outcome.ts";
import type { Prerequisite } from "../checks/types.ts";

export interface SupplyRule {
  /** The flag(s) that supply it on the command line. */
  flag?: string;
  /** True when it can be created by driving assumed operations (--level full, or --sandbox). */
  creatable: boolean;
  /** What it is, for the skip message. */
  what: string;
}

export const SUPPLY: Record<Prerequisite, SupplyRule> = {
  workspace: { flag: "--workspace-id", creatable: true, what: "workspace id" },
  receiver: { flag: "--webhook-receiver-url", creatable: true, what: "webhook receiver the deployment can reach" },
  webhook: { flag: "--webhook-id", creatable: true, what: "webhook id" },
  wallet: { flag: "--wallet-id", creatable: true, what: "wallet id" },
  asset: { flag: "--wallet-id and --asset-id", creatable: true, what: "wallet and asset ids" },
  "peer-asset": { creatable: true, what: "second wallet with the asset attached" },
  withdrawal: { flag: "--withdrawal-id", creatable: true, what: "withdrawal id" },
  delivery: { flag: "--delivery-id", creatable: true, what: "delivery id" },
  event: { flag: "--webhook-receiver-url and --delivery-id (of a webhook registered to that URL)", creatable: true, what: "signed delivery" },
  "viewer-key": { flag: "--viewer-api-key/--viewer-api-secret", creatable: true, what: "viewer key" },
  "scoped-key": { flag: "--scoped-api-key/--scoped-api-secret", creatable: true, what: "scoped key (balances:read)" },
  faucet: { flag: "--faucet-private-key", creatable: false, what: "funded chain key" },
  deposit: { flag: "--faucet-private-key", creatable: true, what: "deposit" },
  "withdrawal-executed": { flag: "--faucet-private-key", creatable: true, what: "executed withdrawal" },
  "sol-asset": { creatable: true, what: "wallet with the Solana native asset attached" },
  "sol-deposit": { flag: "--solana-rpc-url", creatable: true, what: "SOL deposit (made through the Solana RPC, funded by requestAirdrop)" },
  "money-funds": { flag: "--faucet-private-key", creatable: true, what: "funded wallet for the money path" },
  "other-tenant": { flag: "--other-api-key/--other-api-secret", creatable: false, what: "key of another workspace" },
};

/** How the run gets its fixtures: `given` uses only flags; `create` may also drive assumed operations. */
export type SupplyMode = "given" | "create";

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
