// The wallet API of the reference deployment: one handler per operation of spec/openapi.yaml,
// implementing `Handlers` of generated/server.ts. The router has already authenticated the caller,
// checked role, scopes and the workspace path parameter, and validated every input against the spec;
// handlers turn the call into domain operations and domain records into the spec's types. Domain
// failures are ApiErrors (runtime/errors.ts) with statuses the operation declares.

import type { Handlers } from "../../generated/server.ts";
import { notFound } from "../../runtime/errors.ts";
import type { HandlerContext } from "../../runtime/server/types.ts";
import type { ReferenceApp } from "../app.ts";
import type { AddressFamily } from "../domain/catalog.ts";
import { pageQuery, slicePage } from "../domain/paging.ts";
import type { Actor, EventRecord, EventType, Role, WalletRecord, WebhookRecord } from "../domain/records.ts";
import { C } from "../domain/records.ts";
import { rescanTransaction } from "../domain/rescan.ts";
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
import { WithdrawalService } from "../domain/withdrawals.ts";
import { buildExport } from "./export.ts";
import { healthReport } from "./health.ts";

/** The caller as the domain sees it. */
export function actorOf(ctx: HandlerContext): Actor {
  return {
    keyId: ctx.auth.keyId,
    role: ctx.auth.role as Role,
    scopes: ctx.auth.scopes,
    workspaceId: ctx.auth.workspaceId,
  };
}

export function createHandlers(app: ReferenceApp, opts: { version: string }): Handlers {
  return {
    ...catalogHandlers(app),
    ...walletHandlers(app),
    ...balanceHandlers(app),
    ...withdrawalHandlers(app),
    ...transactionHandlers(app),
    ...signingHandlers(app),
    ...webhookHandlers(app),
    ...apiKeyHandlers(app),
    ...auditHandlers(app),
    // ----- observability
    getHealth: async () => healthReport(app, opts.version),
  };
}

/**
 * The wallets as the real service lists them: with USD value and held symbols from their balances,
 * all read at one confirmed block (one head read for the page, one balance read per asset).
 */
async function walletViews(app: ReferenceApp, wallets: readonly WalletRecord[], actor: Actor) {
  const balances = await app.balances.balancesOfEach(wallets.map((w) => app.wallets.attachedAssets(actor, w.id)));
  return wallets.map((w, i) => {
    const cents = balances[i].reduce((sum, b) => sum + Math.round(Number(b.balance_usd ?? "0") * 100), 0);
    const held = balances[i].filter((b) => b.balance !== "0");
    return walletView(w, {
      value_usd: (cents / 100).toFixed(2),
      top_assets: held.map((b) => ({ symbol: b.asset.symbol })),
    });
  });
}

/** The real service's wallet detail (ap_key is its spelling): the wallet's address of the asked family. */
function web3Detail(
  app: ReferenceApp,
  wallet: WalletRecord & { address: string },
  ctx: HandlerContext,
  family: AddressFamily = "evm",
) {
  const address = app.wallets.addressOf(wallet, family);
  return { ap_key: ctx.auth.keyId, wallet_id: wallet.id, name: wallet.name, address_type: family, address };
}

/** Networks and assets. */
function catalogHandlers(app: ReferenceApp) {
  return {
    listNetworks: async ({ query }) => slicePage(app.catalog.networks(), pageQuery(query)).map(networkView),
    listAssets: async ({ query }) =>
      slicePage(app.catalog.listAssets(query.network_id), pageQuery(query)).map(assetView),
  } satisfies Partial<Handlers>;
}

/** Wallets, their assets and deposit addresses. */
function walletHandlers(app: ReferenceApp) {
  return {
    listWallets: async ({ query }, ctx) => {
      const actor = actorOf(ctx);
      return walletViews(app, app.wallets.page(actor, pageQuery(query)), actor);
    },
    // Unknown members (sweep_task_params, sweep_task_id, ...) are accepted and ignored (x-custody-limits).
    createWallet: async ({ body }, ctx) =>
      creationStatusView(
        app.wallets.create(actorOf(ctx), {
          name: body.name,
          wallet_type: body.wallet_type,
          wallet_purpose: body.wallet_purpose,
        }),
      ),
    getWalletCreationStatus: async ({ params }, ctx) =>
      creationStatusView(app.wallets.get(actorOf(ctx), params.wallet_id)),
    getWallet: async ({ params }, ctx) => {
      const actor = actorOf(ctx);
      const [view] = await walletViews(app, [app.wallets.get(actor, params.wallet_id)], actor);
      return view;
    },
    listWalletAssets: async ({ params, query }, ctx) =>
      app.wallets
        .attachedAssetsPage(actorOf(ctx), params.wallet_id, pageQuery(query))
        .map((a) => walletAssetView(a, app.catalog.asset(a.asset_id))),
    attachAsset: async ({ params, body }, ctx) => {
      const a = app.wallets.attachAsset(actorOf(ctx), params.wallet_id, body.asset_id);
      return walletAssetView(a, app.catalog.asset(a.asset_id));
    },
    getDepositAddress: async ({ params, query }, ctx) => {
      const actor = actorOf(ctx);
      if (query.asset_id !== undefined) {
        const attached = app.wallets.attachedAsset(actor, params.wallet_id, query.asset_id);
        const asset = app.catalog.asset(attached.asset_id)!;
        return depositAddressView(attached, asset.address_type, app.catalog.networkOf(asset).chain_id);
      }
      const family = query.address_type ?? "evm";
      return depositAddressView(
        app.wallets.addressOfType(actor, params.wallet_id, family),
        family,
        app.catalog.networkOfFamily(family).chain_id,
      );
    },
  } satisfies Partial<Handlers>;
}

/** Balances of a wallet. */
function balanceHandlers(app: ReferenceApp) {
  return {
    getWalletOverview: async ({ params }, ctx) => {
      const attached = app.wallets.attachedAssets(actorOf(ctx), params.wallet_id);
      return (await app.balances.balancesOf(attached)).map(balanceView);
    },
    getWalletAssetBalance: async ({ params }, ctx) => {
      const attached = app.wallets.attachedAsset(actorOf(ctx), params.wallet_id, params.asset_id);
      return balanceView(await app.balances.balanceOf(attached));
    },
  } satisfies Partial<Handlers>;
}

/** Withdrawals: create, read, approve, reject. */
function withdrawalHandlers(app: ReferenceApp) {
  return {
    listWalletWithdrawals: async ({ params, query }, ctx) =>
      app.withdrawals.pageForWallet(actorOf(ctx), params.wallet_id, query.status, pageQuery(query)).map(withdrawalView),
    createWithdrawal: async ({ params, headers, body }, ctx) => {
      const { record } = await app.withdrawals.create(actorOf(ctx), params.wallet_id, body, headers["idempotency-key"]);
      return { auto_approved: WithdrawalService.autoApproved(record), withdrawal: withdrawalView(record) };
    },
    getWithdrawal: async ({ params }, ctx) => withdrawalView(app.withdrawals.get(actorOf(ctx), params.withdrawal_id)),
    getWalletWithdrawal: async ({ params }, ctx) => {
      const actor = actorOf(ctx);
      const wallet = app.wallets.get(actor, params.wallet_id);
      const w = app.withdrawals.get(actor, params.withdrawal_id);
      if (w.wallet_id !== wallet.id) throw notFound("withdrawal not found");
      return withdrawalView(w);
    },
    approveWithdrawal: async ({ params, body }, ctx) =>
      withdrawalView(app.withdrawals.approve(actorOf(ctx), params.withdrawal_id, body?.comment)),
    rejectWithdrawal: async ({ params, body }, ctx) =>
      withdrawalView(app.withdrawals.reject(actorOf(ctx), params.withdrawal_id, body?.reason)),
  } satisfies Partial<Handlers>;
}

/** Transactions: list, export, rescan. */
function transactionHandlers(app: ReferenceApp) {
  const now = () => app.ctx.now();
  return {
    listTransactions: async ({ params, query }, ctx) =>
      app.transactions.page(
        actorOf(ctx),
        params.workspace_id,
        { wallet_id: query.wallet_id, direction: query.direction },
        pageQuery(query),
      ),
    exportTransactions: async ({ params, query }, ctx) => {
      const transactions = app.transactions.list(actorOf(ctx), params.workspace_id, { from: query.from, to: query.to });
      return buildExport({
        workspaceId: params.workspace_id,
        format: query.format ?? "json",
        from: query.from,
        to: query.to,
        generatedAt: now(),
        transactions,
      });
    },

    rescanTransaction: async ({ body }, ctx) => rescanTransaction(app.ctx, app.deposits, actorOf(ctx), body),
  } satisfies Partial<Handlers>;
}

/** Message and transaction signing, and the web3 wallet detail. */
function signingHandlers(app: ReferenceApp) {
  return {
    signMessage: async ({ params, body }, ctx) => app.signing.signMessage(actorOf(ctx), params.wallet_id, body),
    getApiKeyWalletDetail: async ({ query }, ctx) =>
      web3Detail(app, app.wallets.defaultWallet(actorOf(ctx)), ctx, query.address_type),
    getWeb3WalletDetail: async ({ params, query }, ctx) =>
      web3Detail(app, app.wallets.readyWallet(actorOf(ctx), params.wallet_id, notFound), ctx, query.address_type),
    requestSign: async ({ params, headers, body }, ctx) =>
      app.web3.requestSign(actorOf(ctx), params.wallet_id, body, headers.idempotencykey),
    getSignStatus: async ({ params }, ctx) =>
      app.web3.signStatus(actorOf(ctx), params.wallet_id, params.transaction_id),
    signRawTransaction: async ({ params, headers, body }, ctx) =>
      app.web3.signRaw(actorOf(ctx), params.wallet_id, body, headers.idempotencykey),
    getTransactionStatus: async ({ params }, ctx) =>
      app.web3.transactionStatus(actorOf(ctx), params.wallet_id, params.transaction_id),
  } satisfies Partial<Handlers>;
}

/** Webhooks and their deliveries. */
function webhookHandlers(app: ReferenceApp) {
  const eventOf = (id: string) => app.ctx.store.get<EventRecord>(C.events, id);
  const webhookOf = (id: string) => app.ctx.store.get<WebhookRecord>(C.webhooks, id);
  return {
    listWebhooks: async ({ params, query }, ctx) =>
      app.webhooks.page(actorOf(ctx), params.workspace_id, pageQuery(query)).map(webhookView),
    createWebhook: async ({ params, body }, ctx) =>
      webhookView(
        app.webhooks.create(actorOf(ctx), params.workspace_id, {
          url: body.url,
          event_types: body.event_types as EventType[],
          description: body.description,
        }),
      ),
    deleteWebhook: async ({ params }, ctx) =>
      webhookDeleteResultView(app.webhooks.delete(actorOf(ctx), params.workspace_id, params.webhook_id)),
    listWebhookDeliveries: async ({ params, query }, ctx) =>
      app.webhooks
        .deliveries(
          actorOf(ctx),
          params.workspace_id,
          { webhook_id: query.webhook_id, status: query.status },
          pageQuery(query),
        )
        .map((d) => deliveryView(d, eventOf(d.event_id), webhookOf(d.webhook_id))),
    resendWebhookDelivery: async ({ params }, ctx) => {
      const d = app.webhooks.resend(actorOf(ctx), params.workspace_id, params.delivery_id);
      return deliveryView(d, eventOf(d.event_id), webhookOf(d.webhook_id));
    },
    getWebhookVerificationKey: async ({ params }, ctx) =>
      app.webhooks.verificationKey(actorOf(ctx), params.workspace_id),
    enableWebhook: async ({ params }, ctx) =>
      webhookView(app.webhooks.enable(actorOf(ctx), params.workspace_id, params.webhook_id)),
    requeueFailedWebhookDeliveries: async ({ params, body }, ctx) =>
      app.webhooks.requeueFailed(actorOf(ctx), params.workspace_id, params.webhook_id, {
        since: body.since,
        until: body.until,
      }),
  } satisfies Partial<Handlers>;
}

/** API keys of a workspace. */
function apiKeyHandlers(app: ReferenceApp) {
  return {
    listApiKeys: async ({ params, query }, ctx) =>
      app.apiKeys.page(actorOf(ctx), params.workspace_id, pageQuery(query)).map(apiKeyView),
    createApiKey: async ({ params, body }, ctx) =>
      apiKeyWithSecretView(
        app.apiKeys.create(actorOf(ctx), params.workspace_id, {
          name: body.name,
          role: body.role,
          scopes: [...body.scopes],
        }),
      ),
    revokeApiKey: async ({ params }, ctx) =>
      apiKeyView(app.apiKeys.revoke(actorOf(ctx), params.workspace_id, params.key_id)),
  } satisfies Partial<Handlers>;
}

/** The audit log of a workspace. */
function auditHandlers(app: ReferenceApp) {
  return {
    listAuditLogs: async ({ params, query }, ctx) =>
      app.audit.page(actorOf(ctx), params.workspace_id, pageQuery(query)).map(auditView),
  } satisfies Partial<Handlers>;
}
