// Types of adapter.js (plain JS so that the browser loads it as it is).
// biome-ignore lint/suspicious/noExplicitAny: answers are untyped JSON the plain-JavaScript console reads freely
type Json = any;
export type Call = (
  operationId: string,
  input: {
    params?: Record<string, string>;
    query?: Record<string, string>;
    headers?: Record<string, string>;
    body?: unknown;
  },
) => Promise<Json>;
export interface Ctx {
  workspace_id: string;
}
export interface WalletView {
  id: string;
  name: string;
  status: string;
  created_at: string;
}
export interface BalanceView {
  asset_id: string;
  symbol: string;
  total: string;
  available: string;
  on_hold: string;
}
export interface WithdrawalView {
  id: string;
  wallet_id?: string;
  asset_id?: string;
  amount?: string;
  to?: string;
  status?: string;
  tx_hash?: string;
  error?: string;
}
export interface DeliveryView {
  id: string;
  event_type?: string;
  status?: string;
  attempts?: number;
  response_status?: number;
  error?: string;
  payload?: Record<string, unknown>;
  created_at?: string;
}
export function latest(
  call: Call,
  operationId: string,
  input: { params?: Record<string, string>; query?: Record<string, string> },
  n: number,
): Promise<Json[]>;
export function listWallets(call: Call, ctx: Ctx, n?: number): Promise<WalletView[]>;
export function creationStatus(call: Call, ctx: Ctx, walletId: string): Promise<string>;
export function createWallet(call: Call, ctx: Ctx, name: string): Promise<{ id: string; status: string }>;
export interface NativeAssetView {
  id: string;
  symbol: string;
  decimals: number;
  /** evm, sol, ...: the asset's address_type. */
  addressType: string;
}
export function nativeAsset(call: Call, addressType?: string): Promise<NativeAssetView>;
export function nativeAssets(call: Call): Promise<NativeAssetView[]>;
export function depositAddress(call: Call, ctx: Ctx, walletId: string, assetId: string): Promise<string>;
export function balances(call: Call, ctx: Ctx, walletId: string): Promise<BalanceView[]>;
export function withdrawals(call: Call, ctx: Ctx, walletId: string, n?: number): Promise<WithdrawalView[]>;
export function requestWithdrawal(
  call: Call,
  ctx: Ctx,
  walletId: string,
  w: { assetId: string; amount: string; to: string; note?: string },
): Promise<WithdrawalView>;
export function getWithdrawal(call: Call, ctx: Ctx, id: string): Promise<WithdrawalView>;
export function approveWithdrawal(call: Call, ctx: Ctx, id: string): Promise<WithdrawalView>;
export function rejectWithdrawal(call: Call, ctx: Ctx, id: string, reason?: string): Promise<WithdrawalView>;
export function webhookDeliveries(call: Call, ctx: Ctx, n?: number): Promise<DeliveryView[]>;
export function resendDelivery(call: Call, ctx: Ctx, id: string): Promise<unknown>;
export function listWebhooks(call: Call, ctx: Ctx): Promise<Array<Record<string, unknown>>>;
export interface EndpointView {
  id: string;
  url: string;
  state: "healthy" | "backing_off" | "disabled";
  failures: number;
  failing_since?: string;
  backoff_until?: string;
  disabled_at?: string;
  disabled_reason?: string;
  created_at: string;
}
export function webhookEndpoints(call: Call, ctx: Ctx): Promise<EndpointView[]>;
export function enableWebhook(call: Call, ctx: Ctx, id: string): Promise<unknown>;
export function requeueFailedDeliveries(call: Call, ctx: Ctx, id: string, since: string): Promise<number>;
export interface TransactionView {
  id: string;
  wallet_id: string;
  asset_id?: string;
  direction: string;
  status: string;
  amount: string;
  tx_hash?: string;
  created_at: string;
}
export function createWebhook(call: Call, ctx: Ctx, url: string, eventTypes: string[]): Promise<unknown>;
export function transactions(
  call: Call,
  ctx: Ctx,
  direction?: "deposit" | "withdrawal",
  n?: number,
): Promise<TransactionView[]>;
export const EVENT_TYPES: string[];
