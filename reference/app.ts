// The reference deployment's core, without HTTP: the domain services, the chain watcher, the withdrawal
// executor and the webhook dispatcher over one store and one chain. sandbox.ts puts the wallet API and
// the node access in front of it.

import type { WebhookProfile } from "../runtime/webhooks/signature.ts";
import type { ChainBackend } from "./chain/backend.ts";
import { ChainClient } from "./chain/chain-client.ts";
import type { SolanaRuntime } from "./chain/solana/runtime.ts";
import { ApiKeyService } from "./domain/api-keys.ts";
import { AuditLogService } from "./domain/audit-log.ts";
import { BalanceService } from "./domain/balances.ts";
import { Catalog } from "./domain/catalog.ts";
import { ChainWatcher } from "./domain/chain-watcher.ts";
import { DEFAULT_DOMAIN_SETTINGS, type DomainContext, type DomainSettings } from "./domain/context.ts";
import { DepositService } from "./domain/deposits.ts";
import { defineIndexes } from "./domain/indexes.ts";
import { NonceAllocator } from "./domain/nonce-allocator.ts";
import { SigningService } from "./domain/signing.ts";
import { SolanaWatcher } from "./domain/solana-watcher.ts";
import { SolanaWithdrawalExecutor } from "./domain/solana-withdrawal-executor.ts";
import { TransactionService } from "./domain/transactions.ts";
import { WalletService } from "./domain/wallets.ts";
import { Web3SigningService } from "./domain/web3-signing.ts";
import { WithdrawalExecutor } from "./domain/withdrawal-executor.ts";
import { WithdrawalService } from "./domain/withdrawals.ts";
import type { StateStore } from "./store/state-store.ts";
import type { RetrySchedule } from "./webhooks/backoff.ts";
import { WebhookDispatcher } from "./webhooks/dispatcher.ts";
import { type DeliverySchedule, deliveryPolicy, type PolicyChoice } from "./webhooks/policy.ts";
import { WebhookRegistry } from "./webhooks/registry.ts";

export interface AppOptions {
  store: StateStore;
  backend: ChainBackend;
  /** The embedded Solana runtime; absent, the Solana network is listed disabled (addresses only). */
  solana?: SolanaRuntime;
  /** Slots until a Solana deposit counts (the Solana network's confirmation_blocks). Default 32. */
  solanaConfirmationSlots?: number;
  /** 32 bytes. */
  walletMasterSeed: Uint8Array;
  confirmationBlocks?: number;
  settings?: Partial<DomainSettings>;
  webhookProfile: WebhookProfile;
  /** The sandbox's short delays (default) or the spec's production schedule. */
  webhookSchedule?: DeliverySchedule;
  webhookRetry?: Partial<RetrySchedule>;
  webhookTimeoutMs?: number;
  /** Breaker, disabling and slot settings (tests, benchmarks). */
  webhookDelivery?: PolicyChoice["overrides"];
  allowPrivateWebhookTargets?: boolean;
  /** Poll interval of the chain watcher's safety net. */
  chainPollIntervalMs?: number;
  now?: () => Date;
  onError?: (message: string) => void;
}

export class ReferenceApp {
  readonly ctx: DomainContext;
  readonly apiKeys: ApiKeyService;
  readonly wallets: WalletService;
  readonly balances: BalanceService;
  readonly deposits: DepositService;
  readonly withdrawals: WithdrawalService;
  readonly executor: WithdrawalExecutor;
  readonly signing: SigningService;
  readonly web3: Web3SigningService;
  readonly transactions: TransactionService;
  readonly audit: AuditLogService;
  readonly webhooks: WebhookRegistry;
  readonly dispatcher: WebhookDispatcher;
  readonly watcher: ChainWatcher;
  readonly solanaExecutor: SolanaWithdrawalExecutor;
  readonly solanaWatcher: SolanaWatcher;
  readonly chain: ChainClient;
  private closed = false;

  constructor(opts: AppOptions) {
    const now = opts.now ?? (() => new Date());
    // First: the services read lists and filters through these indexes (built from what the store holds).
    defineIndexes(opts.store);
    this.chain = new ChainClient(opts.backend);
    this.ctx = {
      store: opts.store,
      now,
      catalog: new Catalog({
        chainId: opts.backend.chainId,
        confirmationBlocks: opts.confirmationBlocks,
        solana: opts.solana !== undefined,
        solanaConfirmationSlots: opts.solanaConfirmationSlots,
      }),
      chain: this.chain,
      ...(opts.solana ? { solana: opts.solana } : {}),
      masterSeed: opts.walletMasterSeed,
      settings: { ...DEFAULT_DOMAIN_SETTINGS, ...opts.settings },
    };
    this.apiKeys = new ApiKeyService(this.ctx);
    this.wallets = new WalletService(this.ctx);
    this.balances = new BalanceService(this.ctx);
    this.deposits = new DepositService(this.ctx);
    this.withdrawals = new WithdrawalService(this.ctx, this.wallets, this.balances);
    const nonces = new NonceAllocator(this.ctx);
    this.executor = new WithdrawalExecutor(this.ctx, this.wallets, { log: (m) => opts.onError?.(m), nonces });
    this.solanaExecutor = new SolanaWithdrawalExecutor(this.ctx, this.wallets, { log: (m) => opts.onError?.(m) });
    this.withdrawals.onApproved = () => {
      void this.executor.kick();
      void this.solanaExecutor.kick();
    };
    this.signing = new SigningService(this.wallets);
    this.web3 = new Web3SigningService(this.ctx, this.wallets, nonces);
    this.transactions = new TransactionService(this.ctx);
    this.audit = new AuditLogService(this.ctx);
    this.webhooks = new WebhookRegistry(this.ctx, { allowPrivateTargets: opts.allowPrivateWebhookTargets ?? true });
    this.dispatcher = new WebhookDispatcher(opts.store, now, {
      profile: opts.webhookProfile,
      policy: deliveryPolicy({
        schedule: opts.webhookSchedule,
        retry: opts.webhookRetry,
        timeoutMs: opts.webhookTimeoutMs,
        overrides: opts.webhookDelivery,
      }),
      maxResponseBodyBytes: 1_024,
    });
    this.watcher = new ChainWatcher(opts.store, this.chain, this.deposits, this.executor, {
      pollIntervalMs: opts.chainPollIntervalMs,
      onError: (e) => opts.onError?.(`chain watcher: ${e instanceof Error ? e.message : String(e)}`),
    });
    this.solanaWatcher = new SolanaWatcher(this.ctx, this.deposits, this.solanaExecutor);
  }

  get catalog(): Catalog {
    return this.ctx.catalog;
  }

  /** Resumes everything a previous run left open, then follows the chain and delivers webhooks. */
  async start(): Promise<void> {
    const { chainReset } = await this.watcher.start();
    // The embedded chain starts empty after a restart unless it is persisted: transactions signed for
    // the old chain cannot be watched or resent there.
    if (chainReset) {
      this.executor.failForChainReset();
      this.deposits.failForChainReset();
    }
    if (this.solanaWatcher.start().chainReset) {
      this.solanaExecutor.failForChainReset();
      this.deposits.failForChainReset(this.catalog.solana.id);
    }
    this.transactions.backfill();
    this.wallets.resumePending();
    this.web3.resumePending();
    this.dispatcher.start();
    // Reconciles every withdrawal a previous run left in flight, then keeps doing so on a timer.
    this.executor.start();
    this.solanaExecutor.start();
  }

  /** Stops timers, the watcher, the executor and in-flight deliveries. The store and chain stay open. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.wallets.close();
    this.web3.close();
    await this.watcher.close();
    await this.solanaWatcher.close();
    await this.executor.close();
    await this.solanaExecutor.close();
    await this.dispatcher.close();
  }
}
