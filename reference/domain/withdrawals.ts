// Withdrawals: creation under an Idempotency-Key, the approval policy, and the reads. Sending on chain
// and settling from receipts is withdrawal-executor.ts.
//
// Policy (sandbox): every withdrawal needs `requiredApprovals` (default 1) approvals by a key with the
// admin or owner role (the spec's x-custody-min-role on approve enforces the role). The key that created
// the withdrawal may approve it itself — a real deployment would demand four eyes; a sandbox used by one
// developer would otherwise be unable to move funds.
import { createHash } from "node:crypto";
import { isAddress } from "viem";
import type { Withdrawal } from "../../generated/types.ts";
import { isSolanaAddress } from "../../lib/solana/keys.ts";
import { badRequest, conflict } from "../../runtime/errors.ts";
import { canonicalJson } from "../../runtime/webhooks/signature.ts";
import { TRANSFER_GAS } from "../chain/chain-client.ts";
import { LAMPORTS_PER_SIGNATURE } from "../chain/solana/constants.ts";
import { findInWorkspace, findWallet } from "./access.ts";
import { formatAmount, parseAmount } from "./amounts.ts";
import type { BalanceService } from "./balances.ts";
import type { DomainContext } from "./context.ts";
import { publishEvent } from "./events.ts";
import { newId } from "./ids.ts";
import { withdrawalKeys } from "./indexes.ts";
import { KeyedMutex } from "./locks.ts";
import type { PageQuery } from "./paging.ts";
import {
  type Actor,
  C,
  type IdempotencyRecord,
  type WalletAssetRecord,
  type WithdrawalRecord,
  type WithdrawalStatus,
} from "./records.ts";
import { withdrawalView } from "./views.ts";
import type { WalletService } from "./wallets.ts";

/** The body the real service's SDK sends (fystack/platform-sdk src/api.ts transformRequestWithdrawalParams). */
export interface CreateWithdrawalInput {
  asset_id?: string;
  asset?: string;
  network?: string;
  amount: string;
  recipient_address: string;
  notes?: string;
}

export class WithdrawalService {
  private readonly locks = new KeyedMutex();
  /** Called after a withdrawal becomes `approved` (the executor sends it). */
  onApproved: () => void = () => {};

  constructor(
    private readonly ctx: DomainContext,
    private readonly wallets: WalletService,
    private readonly balances: BalanceService,
  ) {}

  /**
   * Same key + same request → the withdrawal made the first time (`replayed: true`), nothing moves again.
   * Same key + another request → 409. Creation is serialized per workspace, so two racing requests with
   * one key cannot both pass the check, and two different ones cannot both spend the same available balance.
   */
  async create(
    actor: Actor,
    walletId: string,
    input: CreateWithdrawalInput,
    idempotencyKey?: string,
  ): Promise<{ record: WithdrawalRecord; replayed: boolean }> {
    const requestHash = hashRequest(walletId, input);
    // Without a key (it is optional) every request is a new withdrawal.
    const idemId = idempotencyKey === undefined ? undefined : `${actor.workspaceId}:${idempotencyKey}`;
    return this.locks.run(actor.workspaceId, async () => {
      const previous = idemId === undefined ? undefined : this.ctx.store.get<IdempotencyRecord>(C.idempotency, idemId);
      if (previous) {
        if (previous.request_hash !== requestHash) {
          throw conflict("Idempotency-Key was already used with a different request");
        }
        return {
          record: this.ctx.store.get<WithdrawalRecord>(C.withdrawals, previous.withdrawal_id) as WithdrawalRecord,
          replayed: true,
        };
      }
      const record = await this.validate(actor, walletId, input, idempotencyKey, requestHash);
      this.commitNew(actor, record, idemId);
      return {
        record: this.ctx.store.get<WithdrawalRecord>(C.withdrawals, record.id) as WithdrawalRecord,
        replayed: false,
      };
    });
  }

  /** auto_approved of the answer: policy approved it without an approver (no approval recorded). */
  static autoApproved(w: WithdrawalRecord): boolean {
    return w.required_approvals === 0;
  }

  approve(actor: Actor, withdrawalId: string, comment?: string): WithdrawalRecord {
    const w = this.get(actor, withdrawalId);
    if (w.status !== "pending_approval") throw conflict(`withdrawal is ${w.status}, not pending_approval`);
    if (w.approvals.some((a) => a.key_id === actor.keyId && a.decision === "approved")) {
      throw conflict("this API key has already approved the withdrawal");
    }
    const at = this.ctx.now();
    const approvals = [
      ...w.approvals,
      {
        id: newId(),
        key_id: actor.keyId,
        role: actor.role,
        decision: "approved" as const,
        ...(comment ? { comment } : {}),
        at: at.toISOString(),
      },
    ];
    const approvedCount = approvals.filter((a) => a.decision === "approved").length;
    const done = approvedCount >= w.required_approvals;
    const updated: WithdrawalRecord = {
      ...w,
      approvals,
      status: done ? "approved" : w.status,
      updated_at: at.toISOString(),
    };
    this.ctx.store.transact((tx) => {
      tx.put(C.withdrawals, updated);
      if (done) tx.afterCommit(() => this.onApproved());
    });
    return updated;
  }

  reject(actor: Actor, withdrawalId: string, reason?: string): WithdrawalRecord {
    const w = this.get(actor, withdrawalId);
    if (w.status !== "pending_approval") throw conflict(`withdrawal is ${w.status}, not pending_approval`);
    const at = this.ctx.now();
    const updated: WithdrawalRecord = {
      ...w,
      status: "rejected",
      status_reason: reason ?? "rejected by an approver",
      approvals: [
        ...w.approvals,
        {
          id: newId(),
          key_id: actor.keyId,
          role: actor.role,
          decision: "rejected",
          ...(reason ? { comment: reason } : {}),
          at: at.toISOString(),
        },
      ],
      updated_at: at.toISOString(),
    };
    this.ctx.store.transact((tx) => {
      tx.put(C.withdrawals, updated);
    });
    return updated;
  }

  get(actor: Actor, withdrawalId: string): WithdrawalRecord {
    return findInWorkspace<WithdrawalRecord>(this.ctx.store, actor, C.withdrawals, withdrawalId, "withdrawal");
  }

  /** One page of a wallet's withdrawals, oldest first, optionally only those in `status`. */
  pageForWallet(
    actor: Actor,
    walletId: string,
    status: WithdrawalStatus | undefined,
    page: PageQuery,
  ): WithdrawalRecord[] {
    const wallet = findWallet(this.ctx.store, actor, walletId);
    const key =
      status === undefined ? withdrawalKeys.ofWallet(wallet.id) : withdrawalKeys.ofWalletInStatus(wallet.id, status);
    return this.ctx.store.page<WithdrawalRecord>(C.withdrawals, key, page.offset, page.limit);
  }

  /** The asset by asset_id, or by asset (symbol) and network, as the SDK allows either. */
  private resolveAsset(input: CreateWithdrawalInput) {
    if (input.asset_id !== undefined) {
      const asset = this.ctx.catalog.asset(input.asset_id);
      if (!asset) throw badRequest(`asset_id: unknown asset '${input.asset_id}'`);
      return asset;
    }
    if (input.asset === undefined || input.network === undefined)
      throw badRequest("asset_id: give asset_id, or both asset and network");
    const asset = this.ctx.catalog.assetBySymbol(input.asset, input.network);
    if (!asset) throw badRequest(`asset: no asset '${input.asset}' on network '${input.network}'`);
    return asset;
  }

  private async validate(
    actor: Actor,
    walletId: string,
    input: CreateWithdrawalInput,
    idempotencyKey: string | undefined,
    requestHash: string,
  ): Promise<WithdrawalRecord> {
    const wallet = this.wallets.readyWallet(actor, walletId, conflict);
    const asset = this.resolveAsset(input);
    const network = this.ctx.catalog.networkOf(asset);
    if (network.disabled) throw badRequest(`asset_id: ${asset.symbol} is on ${network.name}, which moves no funds`);
    const attached = this.ctx.store.get<WalletAssetRecord>(C.walletAssets, `${wallet.id}:${asset.id}`);
    if (!attached) throw badRequest(`asset_id: asset '${asset.id}' is not attached to this wallet`);
    const units = parseAmount(input.amount, asset.decimals);
    if (units === undefined || units === 0n) {
      throw badRequest(`amount: must be a positive decimal string with at most ${asset.decimals} fraction digits`);
    }
    const solana = asset.address_type === "sol";
    const feeReserve = solana
      ? solanaFeeReserve(input.recipient_address)
      : await this.evmFeeReserve(input.recipient_address);
    const balance = await this.balances.balanceOf(attached);
    // 409, as the spec declares: the request is well formed but conflicts with the current balance.
    if (units + feeReserve > balance.available_wei) {
      throw conflict(
        `amount: insufficient available balance (available ${balance.available_balance} ${asset.symbol}, requested ${input.amount} plus a network fee reserve of ${formatAmount(feeReserve, asset.decimals)})`,
      );
    }
    if (solana)
      checkSolanaRent(
        this.ctx,
        input.recipient_address,
        units,
        balance.available_wei - units - feeReserve,
        asset.decimals,
      );
    const now = this.ctx.now().toISOString();
    return {
      id: newId(),
      workspace_id: actor.workspaceId,
      wallet_id: wallet.id,
      asset_id: asset.id,
      network_id: asset.network_id,
      amount: formatAmount(units, asset.decimals),
      amount_wei: units.toString(),
      fee_reserve_wei: feeReserve.toString(),
      recipient_address: input.recipient_address,
      from_address: this.wallets.addressOf(wallet, asset.address_type),
      ...(input.notes !== undefined ? { notes: input.notes } : {}),
      status: "pending",
      ...(idempotencyKey !== undefined ? { idempotency_key: idempotencyKey } : {}),
      request_hash: requestHash,
      created_by: actor.keyId,
      approvals: [],
      required_approvals: this.ctx.settings.requiredApprovals,
      created_at: now,
      updated_at: now,
    };
  }

  /** The EVM transfer's fee reserve (21000 gas at the current max fee), after checking the recipient. */
  private async evmFeeReserve(recipient: string): Promise<bigint> {
    if (!isAddress(recipient)) throw badRequest("recipient_address: not a valid EVM address");
    const fees = await this.ctx.chain.fees();
    return TRANSFER_GAS * fees.maxFeePerGas;
  }

  /** Stores the withdrawal and its key, emits withdrawal.pending and applies the policy, in one transaction. */
  private commitNew(_actor: Actor, record: WithdrawalRecord, idemId: string | undefined): void {
    const at = this.ctx.now();
    const needsApproval = record.required_approvals > 0;
    const afterPolicy: WithdrawalRecord = { ...record, status: needsApproval ? "pending_approval" : "approved" };
    this.ctx.store.transact((tx) => {
      tx.put(C.withdrawals, afterPolicy);
      if (idemId !== undefined)
        tx.put<IdempotencyRecord>(C.idempotency, {
          id: idemId,
          withdrawal_id: record.id,
          request_hash: record.request_hash,
          created_at: at.toISOString(),
        });
      publishEvent(tx, this.ctx.store, at, record.workspace_id, "withdrawal.pending", withdrawalEventData(afterPolicy));
      if (!needsApproval) tx.afterCommit(() => this.onApproved());
    });
  }
}

/** A SOL transfer's fee: one signature's base fee, after checking the recipient. */
function solanaFeeReserve(recipient: string): bigint {
  if (!isSolanaAddress(recipient))
    throw badRequest("recipient_address: not a Solana address (a base58 public key of 32 bytes)");
  return LAMPORTS_PER_SIGNATURE;
}

/**
 * Solana refuses a transfer that leaves an account holding lamports below its rent-exempt minimum: an
 * empty recipient must get at least that much, and the wallet must keep at least that much or nothing.
 * Refused here, with the figure, instead of failing on chain.
 */
function checkSolanaRent(
  ctx: DomainContext,
  recipient: string,
  units: bigint,
  remaining: bigint,
  decimals: number,
): void {
  const node = ctx.solana;
  if (!node) return;
  const minimum = node.minimumBalanceForRentExemption(0);
  if (node.balance(recipient) === 0n && units < minimum) {
    throw badRequest(
      `amount: ${recipient} holds nothing yet, so Solana needs at least its rent-exempt minimum of ${formatAmount(minimum, decimals)} SOL in the first transfer`,
    );
  }
  if (remaining > 0n && remaining < minimum) {
    throw conflict(
      `amount: this would leave the wallet ${formatAmount(remaining, decimals)} SOL, below Solana's rent-exempt minimum of ${formatAmount(minimum, decimals)}; withdraw everything but the fee, or leave at least the minimum`,
    );
  }
}

/** Withdrawal events carry the withdrawal as the API shows it at that moment. */
export function withdrawalEventData(w: WithdrawalRecord): Withdrawal {
  return withdrawalView(w);
}

/** The identity of a request for idempotency: wallet + body, in canonical JSON. */
function hashRequest(walletId: string, input: CreateWithdrawalInput): string {
  const body = {
    wallet_id: walletId,
    asset_id: input.asset_id,
    asset: input.asset,
    network: input.network,
    amount: input.amount,
    recipient_address: input.recipient_address,
    notes: input.notes,
  };
  return createHash("sha256").update(canonicalJson(body)).digest("hex");
}
