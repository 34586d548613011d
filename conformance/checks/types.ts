// The vocabulary of the conformance suite: a check, its outcome and the evidence it leaves.
// A check knows a target only by URLs and credentials (never the reference implementation).

export type Severity = "MUST" | "SHOULD";
/** How the run gets its fixtures (supply.ts): `given` uses only flags; `create` may also drive assumed operations. */
export type SupplyMode = "given" | "create";
export type Level = "seed" | "full";
export type CheckStatus = "passed" | "failed" | "skipped";

export const GROUPS = [
  "envelope",
  "auth",
  "scope",
  "role",
  "authz",
  "isolation",
  "webhooks",
  "lifecycle",
  "money",
  "paging",
  "chains",
  "rpc",
  "fuzz",
] as const;
export type Group = (typeof GROUPS)[number];

/** One HTTP (or WebSocket upgrade) request as it went on the wire, secrets already redacted. */
export interface RequestEvidence {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** What came back, truncated and redacted; `error` says why there is no (complete) answer. */
export interface ResponseEvidence {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  error?: string;
}

/** What a failed check shows: the reproducing request and what the target answered. */
export interface Evidence {
  request?: RequestEvidence;
  response?: ResponseEvidence;
  /** Free-form facts (expected vs actual, a received webhook, a chain receipt), redacted. */
  details?: unknown;
}

/**
 * Why a check failed. violation: the target broke the rule; timeout: the check's time limit passed;
 * crash: the check itself threw something unexpected; prerequisite: setting up what it needs broke.
 */
export type FailureKind = "violation" | "timeout" | "crash" | "prerequisite";

/**
 * Why a check did not run. input: a flag or fixture is missing (`needs` names it); inapplicable: the
 * target offers nothing for it to examine; prerequisite: a step it depends on failed elsewhere;
 * limit: an answer was larger than certify's own body limit (certify's limit, not the target's fault).
 * interrupted: the run was stopped (SIGINT, SIGTERM, its time bound) before the check finished.
 */
export type SkipKind = "input" | "inapplicable" | "prerequisite" | "limit" | "interrupted";

export type Outcome =
  | { status: "passed"; message?: string }
  | { status: "failed"; message: string; kind?: FailureKind; evidence?: Evidence }
  | { status: "skipped"; message: string; kind?: SkipKind /** the flag or fixture that lets it run */; needs?: string };

/** Names of the things a check may need before it can run (see fixtures/). */
export type Prerequisite =
  | "wallet" // a wallet id (created at full level, --wallet-id at seed level)
  | "asset" // an asset id attached to the wallet
  | "peer-asset" // a second wallet with the asset attached (withdrawal destination)
  | "withdrawal" // a withdrawal id
  | "workspace" // the workspace id
  | "webhook" // a webhook registered to our receiver
  | "delivery" // a delivery id of a webhook
  | "event" // a signed delivery our receiver got
  | "receiver" // a webhook receiver the deployment can reach
  | "viewer-key" // an API key with role viewer
  | "scoped-key" // an API key limited to balances:read
  | "faucet" // a funded chain key to send deposits
  | "deposit" // a deposit made and watched to confirmation
  | "seed-deposit" // a deposit to the address of getDepositAddress in the seed's form, operation 1 read each block
  | "withdrawal-executed" // a withdrawal driven to a terminal state
  | "sol-asset" // the wallet's Solana native asset and its deposit address
  | "sol-deposit" // a SOL deposit made through the Solana RPC and watched to confirmation
  | "money-funds" // a wallet of its own for the money-path checks, funded by a confirmed deposit
  | "other-tenant"; // a key of another workspace (tenant isolation), checked to authenticate

/** What names a check and its rule: declared by the check, repeated in its result. */
export interface CheckIdentity {
  /** Stable id (`auth.stale-timestamp`); scripts and CI depend on it. */
  id: string;
  group: Group;
  title: string;
  severity: Severity;
  /** Where the rule comes from: a seed section, or "assumed: <spec decision>". */
  seedRef: string;
  /** seed: uses only what the seed specifies; full: also drives assumed operations (see levels.ts). */
  level: Level;
}

export interface CheckResult extends CheckIdentity {
  status: CheckStatus;
  /** The check's own run, bounded by its time limit. */
  durationMs: number;
  /** Time spent waiting for shared prerequisites before the run (bounded by the fixture cap). */
  waitedMs?: number;
  message?: string;
  evidence?: Evidence;
  failureKind?: FailureKind;
  skipKind?: SkipKind;
  /** For a skip: the flag or fixture that would let the check run. */
  needs?: string;
  /** Seed statements (spec/trace.yaml ids) the check enforces. */
  statements: string[];
  /** Extra facts to report (e.g. the webhook signature profile the deployment matched). */
  facts?: Record<string, string>;
  /** Parts of the check (requests it judges) that were not judged, each with why. */
  skippedCells?: Array<{ cell: string; reason: string }>;
}
