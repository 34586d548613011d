// The one place that knows which wallet API operations the console page and `custody trigger` use,
// with their parameters and answer shapes. Everything else goes through these functions, so a change
// of the spec's paths or fields is adjusted here only. Runs in the browser and in Node (no imports).
//
// `call(operationId, { params, query, headers, body })` sends one signed request and resolves with the
// envelope's `data` (it throws an Error carrying `status` and the envelope's `message` otherwise).
// `ctx` is { workspace_id }.

/** Items per request when reading a list (the contract's maximum page size, x-custody-pagination). */
const PAGE = 100;
/** Where each list ended when it was last read (list → offset), so a refresh reads only its tail. */
const ends = new Map();

function withPage(input, offset, limit) {
  return { ...input, query: { ...(input.query ?? {}), offset: String(offset), limit: String(limit) } };
}

/**
 * The last `n` items of a paged list, in its order (oldest first): lists grow at the end, so the
 * newest records are there. The first read finds the end by probing (about 2·log2(size) requests of
 * one item); later reads start `n` before where the list ended last time. A deployment that does not
 * page (a longer page than asked for) is read once and cut.
 */
export async function latest(call, operationId, input, n) {
  const key = JSON.stringify([operationId, input]);
  let known = ends.get(key);
  for (let attempt = 0; attempt < 2; attempt++) {
    const end = known ?? (await findEnd(call, operationId, input));
    let offset = Math.max(0, end - n);
    const rows = [];
    for (let pages = 0; pages < 10_000; pages++) {
      const page = (await call(operationId, withPage(input, offset, PAGE))) ?? [];
      rows.push(...page);
      offset += page.length;
      if (page.length !== PAGE) break;
    }
    // A list that shrank (a deleted webhook leaves its list) below where it ended: find its end again.
    if (rows.length === 0 && end > 0 && known !== undefined) {
      known = undefined;
      continue;
    }
    ends.set(key, offset);
    return rows.slice(-n);
  }
  return [];
}

/** The number of items in a paged list: doubling probes of one item, then a binary search. */
async function findEnd(call, operationId, input) {
  let unpaged;
  const has = async (offset) => {
    const page = (await call(operationId, withPage(input, offset, 1))) ?? [];
    if (page.length > 1) unpaged = page.length;
    return page.length > 0;
  };
  if (!(await has(0))) return 0;
  if (unpaged !== undefined) return unpaged;
  let lo = 0;
  let hi = 1;
  while (hi < 2 ** 40 && (await has(hi))) [lo, hi] = [hi, hi * 2];
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (await has(mid)) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** The webhook event types of the spec (what "add endpoint" subscribes to). */
export const EVENT_TYPES = [
  "wallet.created",
  "deposit.pending",
  "deposit.confirmed",
  "withdrawal.pending",
  "withdrawal.executed",
  "withdrawal.confirmed",
  "withdrawal.failed",
];

/** The newest `n` wallets (default 20), oldest first. @returns {Promise<Array<{ id: string, name: string, status: string, created_at: string }>>} */
export async function listWallets(call, ctx, n = 20) {
  const data = await latest(call, "listWallets", { params: { workspace_id: ctx.workspace_id } }, n);
  return data.map((w) => ({ id: w.id, name: w.name, status: w.creation_status, created_at: w.created_at }));
}

/** A wallet's creation status: pending, then success or error. */
export async function creationStatus(call, ctx, walletId) {
  void ctx;
  return (await call("getWalletCreationStatus", { params: { wallet_id: walletId } })).status;
}

/** Starts creating a wallet; the wallet.created event follows when it is ready. */
export async function createWallet(call, ctx, name) {
  void ctx;
  const data = await call("createWallet", { body: { name } });
  return { id: data.wallet_id ?? data.id, status: data.creation_status ?? data.status };
}

/** A network's native coin: what the faucet sends; `addressType` (evm, sol) picks the network, default the first. */
export async function nativeAsset(call, addressType) {
  const assets = (await call("listAssets", { query: { limit: String(PAGE) } })) ?? [];
  const native =
    assets.find((a) => a.is_native && (addressType === undefined || a.address_type === addressType)) ??
    (addressType === undefined ? assets[0] : undefined);
  if (native === undefined)
    throw new Error(
      addressType === undefined
        ? "the deployment lists no assets"
        : `the deployment lists no native ${addressType} asset`,
    );
  return {
    id: native.id,
    symbol: native.symbol ?? native.id,
    decimals: native.decimals ?? 18,
    addressType: native.address_type ?? "evm",
  };
}

/** The native coins of the networks that move funds (not disabled), in catalog order. */
export async function nativeAssets(call) {
  const [assets, networks] = await Promise.all([
    call("listAssets", { query: { limit: String(PAGE) } }),
    call("listNetworks", { query: { limit: String(PAGE) } }),
  ]);
  const disabled = new Set((networks ?? []).filter((n) => n.disabled).map((n) => n.id));
  return (assets ?? [])
    .filter((a) => a.is_native && !disabled.has(a.network_id))
    .map((a) => ({
      id: a.id,
      symbol: a.symbol ?? a.id,
      decimals: a.decimals ?? 18,
      addressType: a.address_type ?? "evm",
    }));
}

/** The wallet's deposit address for `assetId`, attaching the asset first when it is not attached yet. */
export async function depositAddress(call, ctx, walletId, assetId) {
  const attached = (await balances(call, ctx, walletId)).some((b) => b.asset_id === assetId);
  if (!attached) {
    try {
      await call("attachAsset", { params: { wallet_id: walletId }, body: { asset_id: assetId } });
    } catch (error) {
      if (error.status !== 409) throw error; // attached meanwhile
    }
  }
  return (await call("getDepositAddress", { params: { wallet_id: walletId }, query: { asset_id: assetId } })).address;
}

/** Balances per attached asset, amounts as decimal strings in whole units. */
export async function balances(call, ctx, walletId) {
  void ctx;
  const rows = (await call("getWalletOverview", { params: { wallet_id: walletId } })) ?? [];
  return rows.map((b) => ({
    asset_id: b.asset_id ?? b.asset?.id,
    symbol: b.symbol ?? b.asset?.symbol ?? b.asset_id,
    total: b.total_balance ?? b.balance ?? "0",
    available: b.available_balance ?? b.balance ?? "0",
    on_hold: b.on_hold ?? "0",
  }));
}

/** A wallet's newest `n` withdrawals (default 20), newest first. */
export async function withdrawals(call, ctx, walletId, n = 20) {
  void ctx;
  const rows = await latest(call, "listWalletWithdrawals", { params: { wallet_id: walletId } }, n);
  return rows.reverse().map(withdrawalView);
}

export async function requestWithdrawal(call, ctx, walletId, { assetId, amount, to, note }) {
  void ctx;
  const body = { asset_id: assetId, amount, recipient_address: to, ...(note ? { notes: note } : {}) };
  const headers = { "Idempotency-Key": globalThis.crypto.randomUUID() };
  // The answer is { auto_approved, withdrawal }; older shapes answered the withdrawal itself.
  const data = await call("createWithdrawal", { params: { wallet_id: walletId }, headers, body });
  return withdrawalView(data?.withdrawal ?? data);
}

export async function getWithdrawal(call, ctx, id) {
  void ctx;
  return withdrawalView(await call("getWithdrawal", { params: { withdrawal_id: id } }));
}

export async function approveWithdrawal(call, ctx, id) {
  void ctx;
  return withdrawalView(await call("approveWithdrawal", { params: { withdrawal_id: id }, body: {} }));
}

export async function rejectWithdrawal(call, ctx, id, reason) {
  void ctx;
  return withdrawalView(
    await call("rejectWithdrawal", { params: { withdrawal_id: id }, body: reason ? { reason } : {} }),
  );
}

function withdrawalView(w) {
  return {
    id: w.id ?? w.withdrawal_id,
    wallet_id: w.wallet_id,
    asset_id: w.asset_id,
    amount: w.amount,
    to: w.recipient_address,
    status: w.status,
    tx_hash: w.tx_hash,
    error: w.error_reason ?? w.error ?? w.status_reason,
  };
}

/** The newest `n` deliveries of the workspace's log (default 50), newest first, with each delivery's payload. */
export async function webhookDeliveries(call, ctx, n = 50) {
  const rows = (
    await latest(call, "listWebhookDeliveries", { params: { workspace_id: ctx.workspace_id } }, n)
  ).reverse();
  return rows.map((d) => ({
    id: d.id ?? d.delivery_id,
    event_type: d.event_type ?? d.payload?.event ?? d.payload?.type,
    status: d.status,
    attempts: d.attempt_count,
    response_status: d.response_status,
    error: d.error,
    payload: d.payload,
    created_at: d.created_at,
  }));
}

export async function resendDelivery(call, ctx, id) {
  return call("resendWebhookDelivery", { params: { workspace_id: ctx.workspace_id, delivery_id: id } });
}

export async function listWebhooks(call, ctx) {
  return (await call("listWebhooks", { params: { workspace_id: ctx.workspace_id } })) ?? [];
}

/** The registered endpoints with their health (delivery_state healthy, backing_off or disabled). */
export async function webhookEndpoints(call, ctx) {
  return (await listWebhooks(call, ctx)).map((w) => ({
    id: w.id,
    url: w.url,
    state: w.delivery_state ?? "healthy",
    failures: w.consecutive_failures ?? 0,
    failing_since: w.failing_since,
    backoff_until: w.backoff_until,
    disabled_at: w.disabled_at,
    disabled_reason: w.disabled_reason,
    created_at: w.created_at,
  }));
}

/** Re-enables an endpoint: healthy again, breaker closed (what it missed stays failed). */
export async function enableWebhook(call, ctx, id) {
  return call("enableWebhook", { params: { workspace_id: ctx.workspace_id, webhook_id: id } });
}

/** Requeues the endpoint's failed deliveries created since `since` (ISO date-time); resolves with how many. */
export async function requeueFailedDeliveries(call, ctx, id, since) {
  const data = await call("requeueFailedWebhookDeliveries", {
    params: { workspace_id: ctx.workspace_id, webhook_id: id },
    body: { since },
  });
  return data?.requeued ?? 0;
}

/** Registers a webhook endpoint for `eventTypes`. */
export async function createWebhook(call, ctx, url, eventTypes) {
  return call("createWebhook", { params: { workspace_id: ctx.workspace_id }, body: { url, event_types: eventTypes } });
}

/** The workspace's newest `n` transactions (default 100) as on-chain transactions (status pending → confirmed), oldest first; `direction` narrows them. */
export async function transactions(call, ctx, direction, n = 100) {
  const rows = await latest(
    call,
    "listTransactions",
    { params: { workspace_id: ctx.workspace_id }, ...(direction ? { query: { direction } } : {}) },
    n,
  );
  return rows.map((t) => ({
    id: t.id,
    wallet_id: t.wallet_id,
    asset_id: t.asset_id,
    direction: t.direction,
    status: t.status,
    amount: t.amount,
    tx_hash: t.tx_hash,
    created_at: t.created_at,
  }));
}
