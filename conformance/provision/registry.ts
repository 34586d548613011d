// Prerequisites are created once per run and shared: the first check that needs a wallet starts its
// creation, the others wait for the same promise. A provider that cannot run (no flag, no faucet)
// makes its dependants skip with the reason; one that breaks on the target records the failure,
// which the check owning that step reports as failed.

import { CheckFailed, CheckSkipped } from "../checks/outcome.ts";
import type { Evidence, Prerequisite } from "../checks/types.ts";
import type { Credentials } from "../run/config.ts";
import type { ReceivedDelivery, WebhookReceiver } from "../transport/receiver.ts";

export type FixtureResult<T> =
  | { ok: true; value: T }
  | {
      ok: false;
      reason: string;
      /** The flag or fixture that would supply it (a missing input). */
      needs?: string;
      /** Set when the target broke the step (not a missing input). */
      failure?: CheckFailed;
    };

export interface WebhookFixture {
  id: string;
  /** Receiver channel when the webhook is ours (full level). */
  channel?: string;
  url?: string;
}

export interface WalletFixture {
  walletId: string;
  /** What createWallet answered (full level): its HTTP status and creation status. */
  created?: { httpStatus: number; status: unknown; evidence: Evidence };
  /** Creation statuses seen while polling, in order. */
  statuses: string[];
  finalEvidence?: Evidence;
  workspaceId?: string;
}

export interface AssetFixture {
  walletId: string;
  assetId: string;
  address?: string;
  decimals: number;
  confirmationBlocks?: number;
  attachEvidence?: Evidence;
  addressEvidence?: Evidence;
}

export interface BalanceObservation {
  atMs: number;
  balance: string | undefined;
  /** Chain head read right after the balance. */
  head: number;
  evidence: Evidence;
}

export interface DepositFixture {
  txHash: string;
  txBlock: number;
  amount: string;
  amountUnits: bigint;
  address: string;
  decimals: number;
  confirmationBlocks: number;
  observations: BalanceObservation[];
  /** First observation whose balance includes the deposit. */
  reflected?: BalanceObservation;
  pendingEvent?: ReceivedDelivery;
  confirmedEvent?: ReceivedDelivery;
  webhookWatched: boolean;
  /** Chain balance of the deposit address and API balance, read together once reflected. */
  chainBalanceUnits?: bigint;
  apiBalance?: string;
  finalEvidence?: Evidence;
}

/** One read of operation 1 while the seed-level deposit confirms: the asset's entry, then the chain head. */
export interface SeedBalanceRead {
  atMs: number;
  /** The entry's balance (seed 2.2 balance, else total_balance or available_balance); "0" when the asset is not listed. */
  balance: string;
  onHold?: string;
  available?: string;
  /** Whether operation 1 listed the asset at all. */
  listed: boolean;
  /** Chain head read right after operation 1 answered. */
  head: number;
  evidence: Evidence;
}

/** The seed-level deposit: where it went, how it confirms, and operation 1 before it and at every block after. */
export interface SeedDepositFixture {
  walletId: string;
  assetId: string;
  address: string;
  /** How getDepositAddress was asked (the path alone, or with ?asset_id=). */
  addressForm: string;
  txHash: string;
  txBlock: number;
  amount: string;
  /** The deposit in base units (wei). */
  amountUnits: bigint;
  /** network.confirmation_blocks as the deployment shows it (seed 2.4), when it does. */
  confirmationBlocks?: number;
  /** The head at which the deposit has its confirmations (txBlock + confirmation_blocks - 1). */
  confirmedHead: number;
  /** How long after that head was seen the balance was still watched. */
  graceMs: number;
  before: SeedBalanceRead;
  observations: SeedBalanceRead[];
}

export interface WithdrawalFixture {
  id: string;
  idempotencyKey: string;
  first: { status: number; data: unknown; evidence: Evidence };
  replay: { status: number; data: unknown; evidence: Evidence };
  approved: boolean;
  final: { data: Record<string, unknown>; evidence: Evidence };
  recipient: string;
  /** The receiving wallet (the peer wallet), whose balance the withdrawal should reach. */
  recipientWalletId: string;
  recipientAssetId: string;
  amount: string;
  decimals: number;
}

export interface SolAssetFixture {
  walletId: string;
  assetId: string;
  /** The deposit address getDepositAddress answered for the asset (base58). */
  address: string;
  decimals: number;
  confirmationBlocks?: number;
}

export interface SolObservation {
  atMs: number;
  balance: string | undefined;
  /** The processed slot read right after the balance. */
  slot: number;
  evidence: Evidence;
}

export interface SolDepositFixture {
  signature: string;
  slot: number;
  amount: string;
  amountUnits: bigint;
  address: string;
  decimals: number;
  confirmationBlocks: number;
  observations: SolObservation[];
  reflected?: SolObservation;
  pendingEvent?: ReceivedDelivery;
  confirmedEvent?: ReceivedDelivery;
  webhookWatched: boolean;
  /** Balances read together once reflected: the API's, and the chain's at each commitment. */
  apiBalance?: string;
  chainBalances?: { processed: bigint; confirmed: bigint; finalized: bigint };
  finalEvidence?: Evidence;
}

/** The money-path checks' own funded wallet, so their holds never meet the lifecycle's withdrawal. */
export interface MoneyFundsFixture {
  asset: AssetFixture;
  /** The deposit address whose chain balance the wallet's balance is. */
  address: string;
  /** How many blocks behind the head the balance may be read (the confirmation depth). */
  depth: number;
  /** True once the balance showed the deposit. */
  reflected: boolean;
}

/** A key of another workspace, known to authenticate, and that workspace's id when known. */
export interface OtherTenantFixture {
  credentials: Credentials;
  workspaceId?: string;
}

export interface DeliveryFixture {
  deliveryId: string;
  eventId?: string;
}

/** A signed delivery the receiver got; at seed level, of the requeue that made it, with the event operation 6 named. */
export interface EventFixture extends ReceivedDelivery {
  /** event_id of operation 6's answer to the requeue that made this delivery (seed level), when it named one. */
  requeuedEventId?: string;
  /** From the requeue (seed level) to this delivery's arrival: how long the deployment took to deliver then. */
  requeueLagMs?: number;
}

export interface FixtureValues {
  workspace: string;
  receiver: WebhookReceiver;
  webhook: WebhookFixture;
  wallet: WalletFixture;
  asset: AssetFixture;
  "peer-asset": AssetFixture;
  withdrawal: string;
  delivery: DeliveryFixture;
  event: EventFixture;
  "viewer-key": Credentials;
  "scoped-key": Credentials;
  faucet: string;
  deposit: DepositFixture;
  "seed-deposit": SeedDepositFixture;
  "withdrawal-executed": WithdrawalFixture;
  "sol-asset": SolAssetFixture;
  "sol-deposit": SolDepositFixture;
  "money-funds": MoneyFundsFixture;
  "other-tenant": OtherTenantFixture;
}

/** Generic over the suite so this file never imports context.ts (which imports it). */
export type Providers<S> = { [K in Prerequisite]: (suite: S) => Promise<FixtureValues[K]> };

export class FixtureRegistry<S = unknown> {
  private readonly results = new Map<Prerequisite, Promise<FixtureResult<unknown>>>();
  private readonly done = new Map<Prerequisite, FixtureResult<unknown>>();

  constructor(
    private readonly suite: S,
    private readonly providers: Providers<S>,
    /** Hard cap on any one provider, so a stuck target can never hang the run. */
    private readonly capMs: number,
  ) {}

  settle<K extends Prerequisite>(name: K): Promise<FixtureResult<FixtureValues[K]>> {
    let result = this.results.get(name);
    if (!result) {
      result = this.run(name);
      this.results.set(name, result);
    }
    return result as Promise<FixtureResult<FixtureValues[K]>>;
  }

  async need<K extends Prerequisite>(name: K): Promise<FixtureValues[K]> {
    const result = await this.settle(name);
    if (result.ok) return result.value;
    if (result.failure)
      throw new CheckSkipped(`prerequisite ${name} failed: ${result.reason}`, undefined, "prerequisite");
    throw new CheckSkipped(result.reason, result.needs);
  }

  /** The value when it is already available, without starting anything. */
  peek<K extends Prerequisite>(name: K): FixtureValues[K] | undefined {
    const result = this.done.get(name);
    return result?.ok ? (result.value as FixtureValues[K]) : undefined;
  }

  /** Starts these prerequisites now so their waits overlap with other checks. */
  warm(names: Iterable<Prerequisite>): void {
    for (const name of names) void this.settle(name);
  }

  private async run(name: Prerequisite): Promise<FixtureResult<unknown>> {
    let timer: NodeJS.Timeout | undefined;
    const cap = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new CheckFailed(`setting up ${name} did not finish within ${this.capMs} ms`)),
        this.capMs,
      );
      timer.unref();
    });
    let result: FixtureResult<unknown>;
    try {
      const value = await Promise.race([this.providers[name](this.suite), cap]);
      result = { ok: true, value };
    } catch (err) {
      if (err instanceof CheckSkipped)
        result = err.needs ? { ok: false, reason: err.message, needs: err.needs } : { ok: false, reason: err.message };
      else if (err instanceof CheckFailed) result = { ok: false, reason: err.message, failure: err };
      else {
        const failure = new CheckFailed(
          `setting up ${name} crashed: ${err instanceof Error ? err.message : String(err)}`,
        );
        result = { ok: false, reason: failure.message, failure };
      }
    } finally {
      clearTimeout(timer);
    }
    this.done.set(name, result);
    return result;
  }
}
