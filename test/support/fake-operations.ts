// A hand-written operation table in the shape of generated/operations.ts, so the conformance tests
// do not depend on the generator. Schemas are deliberately close to the brief's decisions.
import { z } from "zod";
import { normalizeOperation, type OperationInfo } from "../../conformance/run/operations.ts";

const walletBalance = z.object({
  wallet_id: z.string().optional(),
  asset_id: z.string().optional(),
  symbol: z.string().optional(),
  balance: z.string().optional(),
  decimals: z.number().int().optional(),
});
const withdrawal = z.object({ id: z.string().optional(), wallet_id: z.string().optional(), status: z.string().optional(), amount: z.string().optional() });
const creationStatus = z.object({ id: z.string().optional(), wallet_id: z.string().optional(), status: z.enum(["pending", "success", "error"]).optional(), workspace_id: z.string().optional() });
const delivery = z.object({ id: z.string().optional(), webhook_id: z.string().optional(), event_id: z.string().optional(), event_type: z.string().optional(), status: z.string().optional(), payload: z.record(z.string(), z.unknown()).optional() });
const webhook = z.object({ id: z.string(), url: z.string(), event_types: z.array(z.string()) });
const apiKey = z.object({ id: z.string(), role: z.string(), scopes: z.array(z.string()) });
const asset = z.object({ id: z.string(), symbol: z.string().optional(), decimals: z.number().int().optional(), is_native: z.boolean().optional(), network_id: z.string().optional() });

type Def = {
  operationId: string;
  method: string;
  path: string;
  tag: string;
  source: "seed" | "partial" | "assumed";
  successStatus?: number;
  errors: number[];
  scopes: string[];
  minRole: "viewer" | "admin" | "owner";
  data: z.ZodType;
  bodySchema?: z.ZodType;
  querySchema?: z.ZodType;
  headersSchema?: z.ZodType;
  /** x-custody-pagination as the generated table carries it (20 by default, at most 100). */
  pagination?: typeof PAGED;
};

const PAGED = { offset: "offset", limit: "limit", items: [] as string[], defaultLimit: 20, maxLimit: 100 };

const defs: Def[] = [
  { operationId: "getWalletOverview", method: "GET", path: "/api/v1/wallets/{wallet_id}/overview", tag: "balances", source: "seed", errors: [401, 403, 404, 500], scopes: ["balances:read"], minRole: "viewer", data: z.array(walletBalance) },
  { operationId: "getWalletAssetBalance", method: "GET", path: "/api/v1/wallets/{wallet_id}/balance/{asset_id}", tag: "balances", source: "seed", errors: [401, 403, 404, 500], scopes: ["balances:read"], minRole: "viewer", data: walletBalance },
  { operationId: "getWithdrawal", method: "GET", path: "/api/v1/withdrawals/{withdrawal_id}", tag: "withdrawals", source: "seed", errors: [401, 403, 404, 500], scopes: ["withdrawals:read"], minRole: "viewer", data: withdrawal },
  { operationId: "listWalletWithdrawals", method: "GET", path: "/api/v1/wallets/{wallet_id}/withdrawals", tag: "withdrawals", source: "seed", errors: [401, 403, 404, 500], scopes: ["withdrawals:read"], minRole: "viewer", data: z.array(withdrawal), pagination: PAGED },
  { operationId: "getWalletCreationStatus", method: "GET", path: "/api/v1/wallets/creation-status/{wallet_id}", tag: "wallets", source: "seed", errors: [401, 403, 404, 500], scopes: ["wallets:read"], minRole: "viewer", data: creationStatus },
  { operationId: "resendWebhookDelivery", method: "POST", path: "/api/v1/workspaces/{workspace_id}/webhook-logs/{delivery_id}/resend", tag: "webhooks", source: "seed", errors: [400, 401, 403, 404, 409, 413, 500], scopes: ["webhooks:write"], minRole: "admin", data: delivery },
  { operationId: "deleteWebhook", method: "DELETE", path: "/api/v1/workspaces/{workspace_id}/webhooks/{webhook_id}", tag: "webhooks", source: "seed", errors: [401, 403, 404, 500], scopes: ["webhooks:write"], minRole: "admin", data: z.object({ id: z.string().optional(), webhook_id: z.string().optional(), status: z.literal("deleted") }) },
  { operationId: "getWebhookVerificationKey", method: "GET", path: "/api/v1/workspaces/{workspace_id}/webhook-verification-key", tag: "webhooks", source: "seed", errors: [401, 403, 404, 500], scopes: ["webhooks:read"], minRole: "viewer", data: z.object({ public_key: z.string() }) },
  { operationId: "createWallet", method: "POST", path: "/api/v1/wallets", tag: "wallets", source: "partial", successStatus: 202, errors: [400, 401, 403, 413, 500], scopes: ["wallets:write"], minRole: "admin", data: creationStatus, bodySchema: z.object({ name: z.string().min(1).max(100), wallet_type: z.enum(["mpc", "standard"]).optional() }) },
  { operationId: "getDepositAddress", method: "GET", path: "/api/v1/wallets/{wallet_id}/deposit-address", tag: "wallets", source: "partial", errors: [400, 401, 403, 404, 500], scopes: ["wallets:read"], minRole: "viewer", data: z.object({ address: z.string(), asset_id: z.string().optional(), address_type: z.string().optional() }), querySchema: z.object({ asset_id: z.string().optional(), address_type: z.enum(["evm", "sol", "tron"]).optional() }) },
  // The /web3 signing flow, Solana half (the chains checks).
  { operationId: "getWeb3WalletDetail", method: "GET", path: "/api/v1/web3/wallet-detail/{wallet_id}", tag: "signing", source: "assumed", errors: [400, 401, 403, 404, 500], scopes: ["wallets:read"], minRole: "viewer", data: z.object({ wallet_id: z.string(), name: z.string(), address_type: z.string(), address: z.string() }), querySchema: z.object({ address_type: z.enum(["evm", "sol", "tron"]).optional() }) },
  { operationId: "requestSign", method: "POST", path: "/api/v1/web3/{wallet_id}/sign", tag: "signing", source: "assumed", successStatus: 202, errors: [400, 401, 403, 404, 409, 413, 500], scopes: ["signing:write"], minRole: "admin", data: z.object({ transaction_id: z.string() }), bodySchema: z.object({ method: z.string(), message: z.string(), chain_id: z.number().int() }) },
  { operationId: "signRawTransaction", method: "POST", path: "/api/v1/web3/transaction/{wallet_id}/signRaw", tag: "signing", source: "assumed", successStatus: 202, errors: [400, 401, 403, 404, 409, 413, 500], scopes: ["signing:write"], minRole: "admin", data: z.object({ transaction_id: z.string() }), bodySchema: z.object({ data: z.string().optional(), transaction: z.string().optional(), from: z.string().optional(), method: z.string().optional(), meta: z.object({ tx_method: z.string().optional() }).optional() }).passthrough() },
  { operationId: "getTransactionStatus", method: "GET", path: "/api/v1/web3/transaction/{wallet_id}/{transaction_id}", tag: "signing", source: "assumed", errors: [400, 401, 403, 404, 500], scopes: ["wallets:read"], minRole: "viewer", data: z.object({ transaction_id: z.string(), status: z.string(), method: z.string(), hash: z.string().optional() }) },
  { operationId: "listAssets", method: "GET", path: "/api/v1/assets", tag: "catalog", source: "assumed", errors: [400, 401, 403, 500], scopes: ["catalog:read"], minRole: "viewer", data: z.array(asset), querySchema: z.object({ network_id: z.string().optional() }), pagination: PAGED },
  { operationId: "listWallets", method: "GET", path: "/api/v1/wallets", tag: "wallets", source: "assumed", errors: [401, 403, 500], scopes: ["wallets:read"], minRole: "viewer", data: z.array(z.object({ id: z.string() })), pagination: PAGED },
  { operationId: "getWallet", method: "GET", path: "/api/v1/wallets/{wallet_id}", tag: "wallets", source: "assumed", errors: [401, 403, 404, 500], scopes: ["wallets:read"], minRole: "viewer", data: z.object({ id: z.string() }) },
  { operationId: "attachAsset", method: "POST", path: "/api/v1/wallets/{wallet_id}/assets", tag: "wallets", source: "assumed", successStatus: 201, errors: [400, 401, 403, 404, 409, 413, 500], scopes: ["wallets:write"], minRole: "admin", data: z.object({ wallet_id: z.string(), asset_id: z.string() }), bodySchema: z.object({ asset_id: z.string() }) },
  { operationId: "createWithdrawal", method: "POST", path: "/api/v1/wallets/{wallet_id}/withdrawals", tag: "withdrawals", source: "assumed", successStatus: 201, errors: [400, 401, 403, 404, 409, 413, 500], scopes: ["withdrawals:write"], minRole: "admin", data: withdrawal, bodySchema: z.object({ asset_id: z.string(), amount: z.string(), recipient_address: z.string(), note: z.string().optional() }), headersSchema: z.object({ "idempotency-key": z.string().min(1).max(255) }) },
  { operationId: "approveWithdrawal", method: "POST", path: "/api/v1/withdrawals/{withdrawal_id}/approve", tag: "withdrawals", source: "assumed", errors: [400, 401, 403, 404, 409, 413, 500], scopes: ["withdrawals:approve"], minRole: "admin", data: withdrawal, bodySchema: z.object({ comment: z.string().optional() }) },
  { operationId: "listTransactions", method: "GET", path: "/api/v1/workspaces/{workspace_id}/transactions", tag: "transactions", source: "assumed", errors: [401, 403, 404, 500], scopes: ["transactions:read"], minRole: "viewer", data: z.array(z.object({ id: z.string() })), pagination: PAGED },
  { operationId: "createWebhook", method: "POST", path: "/api/v1/workspaces/{workspace_id}/webhooks", tag: "webhooks", source: "assumed", successStatus: 201, errors: [400, 401, 403, 404, 413, 500], scopes: ["webhooks:write"], minRole: "admin", data: webhook, bodySchema: z.object({ url: z.string(), event_types: z.array(z.string()).min(1), description: z.string().optional() }) },
  { operationId: "listWebhooks", method: "GET", path: "/api/v1/workspaces/{workspace_id}/webhooks", tag: "webhooks", source: "assumed", errors: [401, 403, 404, 500], scopes: ["webhooks:read"], minRole: "viewer", data: z.array(webhook), pagination: PAGED },
  { operationId: "listWebhookDeliveries", method: "GET", path: "/api/v1/workspaces/{workspace_id}/webhook-logs", tag: "webhooks", source: "assumed", errors: [400, 401, 403, 404, 500], scopes: ["webhooks:read"], minRole: "viewer", data: z.array(delivery), querySchema: z.object({ webhook_id: z.string().optional(), status: z.string().optional() }), pagination: PAGED },
  { operationId: "createApiKey", method: "POST", path: "/api/v1/workspaces/{workspace_id}/api-keys", tag: "api-keys", source: "assumed", successStatus: 201, errors: [400, 401, 403, 404, 413, 500], scopes: ["api-keys:write"], minRole: "owner", data: apiKey.extend({ api_key: z.string(), secret: z.string() }), bodySchema: z.object({ name: z.string(), role: z.enum(["viewer", "admin", "owner"]), scopes: z.array(z.string()) }) },
  { operationId: "revokeApiKey", method: "DELETE", path: "/api/v1/workspaces/{workspace_id}/api-keys/{key_id}", tag: "api-keys", source: "assumed", errors: [401, 403, 404, 500], scopes: ["api-keys:write"], minRole: "owner", data: apiKey },
  { operationId: "exportTransactions", method: "GET", path: "/api/v1/workspaces/{workspace_id}/transactions/export", tag: "transactions", source: "partial", errors: [400, 401, 403, 404, 500], scopes: ["transactions:read"], minRole: "viewer", data: z.object({ workspace_id: z.string(), format: z.enum(["json", "csv"]), generated_at: z.string(), count: z.number().int(), transactions: z.array(z.object({ id: z.string() })).optional(), csv: z.string().optional() }), querySchema: z.object({ format: z.enum(["json", "csv"]).default("json") }) },
  { operationId: "listAuditLogs", method: "GET", path: "/api/v1/workspaces/{workspace_id}/audit-logs", tag: "audit", source: "assumed", errors: [401, 403, 404, 500], scopes: ["audit:read"], minRole: "viewer", data: z.array(z.object({ id: z.string() })), pagination: PAGED },
  { operationId: "getHealth", method: "GET", path: "/api/v1/health", tag: "observability", source: "assumed", errors: [401, 403, 500], scopes: ["observability:read"], minRole: "viewer", data: z.object({ status: z.enum(["ok", "degraded"]) }) },
];

function toEntry(d: Def): Record<string, unknown> {
  const success = d.successStatus ?? 200;
  const responseSchemas: Record<string, z.ZodType> = { [String(success)]: d.data };
  for (const status of d.errors) responseSchemas[String(status)] = z.null();
  return {
    operationId: d.operationId,
    method: d.method,
    path: d.path,
    tag: d.tag,
    source: d.source,
    successStatus: success,
    declaredStatuses: [success, ...d.errors],
    scopes: d.scopes,
    minRole: d.minRole,
    bodySchema: d.bodySchema,
    querySchema: d.querySchema,
    headersSchema: d.headersSchema,
    responseSchemas,
    envelope: true,
    pagination: d.pagination,
  };
}

export const fakeOperations: OperationInfo[] = defs.map((d) => normalizeOperation(toEntry(d)));
