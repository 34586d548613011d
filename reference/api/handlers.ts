// The wallet API of the reference deployment: one handler per operation of spec/openapi.yaml,
// implementing `Handlers` of generated/server.ts. The router has already authenticated the caller,
// checked role, scopes and the workspace path parameter, and validated every input against the spec;
// handlers turn the call into domain operations and domain records into the spec's types. Domain
// failures are ApiErrors (runtime/errors.ts) with statuses the operation declares.
import type { HandlerContext } from "../../runtime/server/types.ts";
import type { ReferenceApp } from "../app.ts";
import type { Actor, EventRecord, EventType, Role } from "../domain/records.ts";
import { C } from "../domain/records.ts";
import {
  apiKeyView,
  apiKeyWithSecretView,
  assetView,
  auditView,
  balanceView,
  creationStatusView,
  deliveryView,
  depositAddressView,
  networkView,
  walletAssetView,
  walletView,
  webhookDeleteResultView,
  webhookView,
  withdrawalView,
} from "../domain/views.ts";
import { buildExport } from "./export.ts";
import { healthReport } from "./health.ts";
import type { Handlers } from "../../generated/server.ts";

/** The caller as the domain sees it. */
export function actorOf(ctx: HandlerContext): Actor {
  return { keyId: ctx.auth.keyId, role: ctx.auth.role as Role, scopes: ctx.auth.scopes, workspaceId: ctx.auth.workspaceId };
}

export function createHandlers(app: ReferenceApp, opts: { version: string }): Handlers {
  const now = () => app.ctx.now();
  const eventOf = (id: string) => app.ctx.store.get<EventRecord>(C.events, id);

  return {
    // ----- catalog
    listNetworks: async () => app.catalog.networks().map(networkView),
    listAssets: async ({ query }) => app.catalog.listAssets(query.network_id).map(assetView),

    // ----- wallets
    listWallets: async (_input, ctx) => app.wallets.list(actorOf(ctx)).map(walletView),
    createWallet: async ({ body }, ctx) => creationStatusView(app.wallets.create(actorOf(ctx), { name: body.name, wallet_type: body.wallet_type })),
    getWalletCreationStatus: async ({ params }, ctx) => creationStatusView(app.wallets.get(actorOf(ctx), params.wallet_id)),
    getWallet: async ({ params }, ctx) => walletView(app.wallets.get(actorOf(ctx), params.wallet_id)),
    attachAsset: async ({ params, body }, ctx) => walletAssetView(app.wallets.attachAsset(actorOf(ctx), params.wallet_id, body.asset_id)),
    getDepositAddress: async ({ params, query }, ctx) => depositAddressView(app.wallets.attachedAsset(actorOf(ctx), params.wallet_id, query.asset_id)),

    // ----- balances
    getWalletOverview: async ({ params }, ctx) => {
      const attached = app.wallets.attachedAssets(actorOf(ctx), params.wallet_id);
      return (await app.balances.balancesOf(attached)).map(balanceView);
    },
    getWalletAssetBalance: async ({ params }, ctx) => {
      const attached = app.wallets.attachedAsset(actorOf(ctx), params.wallet_id, params.asset_id);
      return balanceView(await app.balances.balanceOf(attached));
    },

    // ----- withdrawals
    listWalletWithdrawals: async ({ params }, ctx) => app.withdrawals.listForWallet(actorOf(ctx), params.wallet_id).map(withdrawalView),
    createWithdrawal: async ({ params, headers, body }, ctx) => {
      const { record } = await app.withdrawals.create(actorOf(ctx), params.wallet_id, body, headers["idempotency-key"]);
      return withdrawalView(record);
    },
    getWithdrawal: async ({ params }, ctx) => withdrawalView(app.withdrawals.get(actorOf(ctx), params.withdrawal_id)),
    approveWithdrawal: async ({ params, body }, ctx) => withdrawalView(app.withdrawals.approve(actorOf(ctx), params.withdrawal_id, body?.comment)),
    rejectWithdrawal: async ({ params, body }, ctx) => withdrawalView(app.withdrawals.reject(actorOf(ctx), params.withdrawal_id, body?.reason)),

    // ----- transactions
    listTransactions: async ({ params }, ctx) => app.transactions.list(actorOf(ctx), params.workspace_id),
    exportTransactions: async ({ params, query }, ctx) => {
      const transactions = app.transactions.list(actorOf(ctx), params.workspace_id, { from: query.from, to: query.to });
      return buildExport({ workspaceId: params.workspace_id, format: query.format ?? "json", from: query.from, to: query.to, generatedAt: now(), transactions });
    },

    // ----- signing
    signMessage: async ({ params, body }, ctx) => app.signing.signMessage(actorOf(ctx), params.wallet_id, body),

    // ----- webhooks
    listWebhooks: async ({ params }, ctx) => app.webhooks.list(actorOf(ctx), params.workspace_id).map(webhookView),
    createWebhook: async ({ params, body }, ctx) =>
      webhookView(app.webhooks.create(actorOf(ctx), params.workspace_id, { url: body.url, event_types: body.event_types as EventType[], description: body.description })),
    deleteWebhook: async ({ params }, ctx) => webhookDeleteResultView(app.webhooks.delete(actorOf(ctx), params.workspace_id, params.webhook_id)),
    listWebhookDeliveries: async ({ params, query }, ctx) =>
      app.webhooks.deliveries(actorOf(ctx), params.workspace_id, { webhook_id: query.webhook_id, status: query.status }).map((d) => deliveryView(d, eventOf(d.event_id))),
    resendWebhookDelivery: async ({ params }, ctx) => {
      const d = app.webhooks.resend(actorOf(ctx), params.workspace_id, params.delivery_id);
      return deliveryView(d, eventOf(d.event_id));
    },
    getWebhookVerificationKey: async ({ params }, ctx) => app.webhooks.verificationKey(actorOf(ctx), params.workspace_id),

    // ----- api keys
    listApiKeys: async ({ params }, ctx) => app.apiKeys.list(actorOf(ctx), params.workspace_id).map(apiKeyView),
    createApiKey: async ({ params, body }, ctx) => apiKeyWithSecretView(app.apiKeys.create(actorOf(ctx), params.workspace_id, { name: body.name, role: body.role, scopes: [...body.scopes] })),
    revokeApiKey: async ({ params }, ctx) => apiKeyView(app.apiKeys.revoke(actorOf(ctx), params.workspace_id, params.key_id)),

    // ----- audit
    listAuditLogs: async ({ params }, ctx) => app.audit.list(actorOf(ctx), params.workspace_id).map(auditView),

    // ----- observability
    getHealth: async () => healthReport(app, opts.version),
  };
}
