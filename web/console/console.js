// The sandbox console: wallets with balances and deposit addresses, test deposits from the faucet,
// withdrawals with approve/reject, webhook endpoints with their health (re-enable, requeue what they
// missed) and the webhook delivery log with resend, refreshed every 1.5 s.
// Each wallet row shows one chain at a time (ETH or SOL, picked in the row), the first by default.
// Every wallet API call goes through adapter.js; rows are updated in place so that typed values stay.
import * as api from "./adapter.js";
import { operationCaller, sandboxAction } from "./signing.js";

const REFRESH_MS = 1500;

const config = await (await fetch("config.json")).json();
const operations = await (await fetch("operations.json")).json();
const call = operationCaller(config, operations);
const ctx = { workspace_id: config.workspace_id };
const natives = await api.nativeAssets(call);
if (natives.length === 0) natives.push(await api.nativeAsset(call));
const symbolOf = (assetId) => natives.find((n) => n.id === assetId)?.symbol ?? "";
/** wallet id → the native asset its row shows (the first until another is picked). */
const shown = new Map();
const assetOf = (walletId) => shown.get(walletId) ?? natives[0];
/** `${wallet id}:${asset id}` → deposit address (fetched once per ready wallet and asset). */
const addresses = new Map();
/** Test deposits sent from this page: tx hash → { wallet, amount, symbol, status }. */
const sent = new Map();
/** wallet id → its name, for the deposits of wallets this page did not fund. */
const walletNames = new Map();

document.getElementById("key-note").textContent =
  `This page acts with the owner key ${config.api_key} that this sandbox generated (workspace ${config.workspace_id}). The sandbox is for local work only.`;

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  Object.assign(node, props);
  for (const c of children) node.append(c);
  return node;
}

function status(text, isError = false) {
  const node = document.getElementById("status");
  node.textContent = text;
  node.className = isError ? "error" : "";
}

/** Shows a status with its colour, keeping the cell's own class (tests and styles find it by that). */
function badge(cell, value) {
  cell.dataset.base ??= cell.className;
  cell.textContent = value ?? "";
  cell.className = `${cell.dataset.base} status-${value}`;
}

/** The row of `tbody` keyed `key`, made by `create` the first time. */
function rowFor(tbody, key, create) {
  let row = tbody.querySelector(`tr[data-key="${CSS.escape(key)}"]`);
  if (!row) {
    row = create();
    row.dataset.key = key;
    tbody.prepend(row);
  }
  return row;
}

/** Runs a user action, reporting its outcome in the status line (what `work` returns, when it is text). */
async function act(what, work) {
  status(`${what}…`);
  try {
    const said = await work();
    status(`${what}: ${typeof said === "string" ? said : "done"}`);
    await refresh();
  } catch (error) {
    status(`${what}: ${error.message}`, true);
  }
}

function walletRow(wallet) {
  const chain = el(
    "select",
    { className: "chain", ariaLabel: "chain shown" },
    ...natives.map((n) => el("option", { value: n.id, textContent: n.symbol })),
  );
  chain.onchange = () => {
    shown.set(
      wallet.id,
      natives.find((n) => n.id === chain.value),
    );
    void refresh();
  };
  const amount = el("input", { className: "amount", value: "1", inputMode: "decimal", ariaLabel: "deposit amount" });
  const deposit = el("button", { textContent: "Send test deposit", className: "send-deposit" });
  deposit.onclick = () => {
    const asset = assetOf(wallet.id);
    return act(`deposit of ${amount.value} ${asset.symbol} to ${wallet.name}`, async () => {
      const address = addresses.get(`${wallet.id}:${asset.id}`);
      if (!address) throw new Error("the wallet has no deposit address yet");
      const { tx_hash } = await sandboxAction(config, "faucet", {
        address,
        amount: amount.value,
        chain: asset.addressType,
      });
      sent.set(tx_hash, { wallet: wallet.name, amount: amount.value, symbol: asset.symbol, status: "sent" });
    });
  };
  const wAmount = el("input", { className: "amount", value: "0.1", ariaLabel: "withdrawal amount" });
  const wTo = el("input", { placeholder: "recipient (0x… or base58)", size: 14, ariaLabel: "recipient address" });
  const withdraw = el("button", { textContent: "Request" });
  withdraw.onclick = () =>
    act(`withdrawal of ${wAmount.value} ${assetOf(wallet.id).symbol} from ${wallet.name}`, () =>
      api.requestWithdrawal(call, ctx, wallet.id, {
        assetId: assetOf(wallet.id).id,
        amount: wAmount.value,
        to: wTo.value.trim(),
      }),
    );
  return el(
    "tr",
    {},
    el("td", {}, el("div", { textContent: wallet.name }), el("code", { textContent: wallet.id })),
    el("td", { className: "wallet-status" }),
    el("td", {}, ...(natives.length > 1 ? [chain, " "] : []), el("span", { className: "balance" })),
    el("td", { className: "address mono" }),
    el("td", {}, amount, " ", deposit),
    el("td", {}, wAmount, " ", wTo, " ", withdraw),
  );
}

async function refreshWallets() {
  const wallets = await api.listWallets(call, ctx);
  for (const w of wallets) walletNames.set(w.id, w.name);
  const tbody = document.querySelector("#wallets tbody");
  if (wallets.length === 0)
    tbody.replaceChildren(
      el(
        "tr",
        { className: "none" },
        el("td", { colSpan: 6, className: "empty", textContent: "No wallets yet: create one above." }),
      ),
    );
  else tbody.querySelector("tr.none")?.remove();
  const withdrawals = [];
  for (const wallet of [...wallets].reverse()) {
    const row = rowFor(tbody, wallet.id, () => walletRow(wallet));
    badge(row.querySelector(".wallet-status"), wallet.status);
    if (wallet.status !== "success") continue;
    const asset = assetOf(wallet.id);
    const key = `${wallet.id}:${asset.id}`;
    if (!addresses.has(key)) addresses.set(key, await api.depositAddress(call, ctx, wallet.id, asset.id));
    const rows = await api.balances(call, ctx, wallet.id);
    const b = rows.find((r) => r.asset_id === asset.id);
    // Address and balance change together: a row never shows one chain's address beside another's balance.
    row.querySelector(".address").textContent = addresses.get(key);
    row.querySelector(".balance").textContent = b
      ? `${b.available} ${b.symbol}${b.on_hold !== "0" ? ` (${b.on_hold} on hold)` : ""}`
      : `0 ${asset.symbol}`;
    for (const w of await api.withdrawals(call, ctx, wallet.id)) withdrawals.push({ ...w, walletName: wallet.name });
  }
  return withdrawals;
}

function refreshWithdrawals(withdrawals) {
  const tbody = document.querySelector("#withdrawals tbody");
  for (const w of [...withdrawals].reverse()) {
    const row = rowFor(tbody, w.id, () => {
      const approve = el("button", { textContent: "Approve", className: "approve" });
      approve.onclick = () => act(`approving ${w.id}`, () => api.approveWithdrawal(call, ctx, w.id));
      const reject = el("button", { textContent: "Reject", className: "reject" });
      reject.onclick = () =>
        act(`rejecting ${w.id}`, () => api.rejectWithdrawal(call, ctx, w.id, "rejected in the sandbox console"));
      return el(
        "tr",
        {},
        el("td", {}, el("code", { textContent: w.id })),
        el("td", { textContent: w.walletName }),
        el("td", { textContent: `${w.amount} ${symbolOf(w.asset_id)}` }),
        el("td", { className: "mono", textContent: w.to }),
        el("td", { className: "w-status" }),
        el("td", { className: "w-actions" }, approve, " ", reject),
      );
    });
    badge(row.querySelector(".w-status"), w.status);
    if (w.error && w.status === "failed") row.querySelector(".w-status").title = w.error;
    row.querySelector(".w-actions").hidden = !(w.status === "pending" || w.status === "pending_approval");
  }
}

/** EVM hashes compare case-insensitively; Solana signatures are base58 (case matters). */
const hashKey = (hash) => (hash?.startsWith("0x") ? hash.toLowerCase() : hash);

/**
 * Every deposit of the workspace the deployment lists (sent from this page, by `custody trigger`, or
 * from outside), and those sent from this page that it does not list yet.
 */
async function refreshDeposits() {
  const listed = await api.transactions(call, ctx, "deposit");
  const rows = new Map();
  for (const t of listed) {
    const wallet = walletNames.get(t.wallet_id) ?? t.wallet_id;
    rows.set(hashKey(t.tx_hash) ?? t.id, {
      wallet,
      amount: t.amount,
      symbol: symbolOf(t.asset_id),
      hash: t.tx_hash ?? "",
      status: t.status,
    });
  }
  for (const [hash, d] of sent) if (!rows.has(hashKey(hash))) rows.set(hashKey(hash), { ...d, hash });
  const tbody = document.querySelector("#deposits tbody");
  for (const [key, d] of rows) {
    // oldest first: each row goes on top
    const row = rowFor(tbody, key, () =>
      el(
        "tr",
        {},
        el("td", { textContent: d.wallet }),
        el("td", { textContent: `${d.amount} ${d.symbol}`.trim() }),
        el("td", {}, el("code", { textContent: d.hash })),
        el("td", { className: "d-status" }),
      ),
    );
    badge(row.querySelector(".d-status"), d.status);
  }
}

/** What an endpoint's health says in words: its failure streak, the next probe, why it was disabled. */
function healthText(w) {
  if (w.state === "disabled") return `disabled ${w.disabled_at}: ${w.disabled_reason ?? ""}`;
  if (w.state === "backing_off")
    return `${w.failures} failures in a row since ${w.failing_since}; next attempt at ${w.backoff_until}`;
  return w.failures > 0 ? `${w.failures} failed attempt(s) since ${w.failing_since}` : "";
}

async function refreshEndpoints() {
  const endpoints = await api.webhookEndpoints(call, ctx);
  const tbody = document.querySelector("#endpoints tbody");
  const listed = new Set(endpoints.map((w) => w.id));
  for (const row of tbody.querySelectorAll("tr[data-key]")) if (!listed.has(row.dataset.key)) row.remove();
  for (const w of [...endpoints].reverse()) {
    const row = rowFor(tbody, w.id, () => {
      const enable = el("button", { textContent: "Re-enable", className: "enable" });
      enable.onclick = () => act(`re-enabling ${w.url}`, () => api.enableWebhook(call, ctx, w.id));
      const requeue = el("button", { textContent: "Requeue failed", className: "requeue" });
      requeue.title = "Requeue every failed delivery of this endpoint";
      requeue.onclick = () =>
        act(
          `requeueing the failed deliveries of ${w.url}`,
          async () => `${await api.requeueFailedDeliveries(call, ctx, w.id, w.created_at)} requeued`,
        );
      return el(
        "tr",
        {},
        el("td", {}, el("div", { className: "mono", textContent: w.url }), el("code", { textContent: w.id })),
        el("td", { className: "ep-state" }),
        el("td", { className: "ep-health" }),
        el("td", {}, enable, " ", requeue),
      );
    });
    badge(row.querySelector(".ep-state"), w.state);
    row.querySelector(".ep-health").textContent = healthText(w);
    row.querySelector(".enable").hidden = w.state === "healthy";
  }
}

async function refreshDeliveries() {
  const deliveries = await api.webhookDeliveries(call, ctx);
  const tbody = document.querySelector("#deliveries tbody");
  for (const d of [...deliveries].reverse()) {
    const row = rowFor(tbody, d.id, () => {
      const resend = el("button", { textContent: "Resend" });
      resend.onclick = () => act(`resending ${d.id}`, () => api.resendDelivery(call, ctx, d.id));
      return el(
        "tr",
        {},
        el("td", {}, el("div", { textContent: d.event_type }), el("code", { textContent: d.id })),
        el("td", { className: "dl-status" }),
        el("td", { className: "dl-attempts" }),
        el("td", { className: "dl-answer" }),
        el(
          "td",
          {},
          el(
            "details",
            {},
            el("summary", { textContent: "payload" }),
            el("pre", { textContent: JSON.stringify(d.payload, null, 2) }),
          ),
        ),
        el("td", {}, resend),
      );
    });
    badge(row.querySelector(".dl-status"), d.status);
    row.querySelector(".dl-attempts").textContent = d.attempts ?? "";
    row.querySelector(".dl-answer").textContent = d.response_status ?? d.error ?? "";
  }
}

let refreshing;
async function refresh() {
  // One refresh at a time; a click during one waits for it and then refreshes again.
  while (refreshing) await refreshing;
  refreshing = (async () => {
    try {
      refreshWithdrawals(await refreshWallets());
      await refreshDeposits();
      await refreshEndpoints();
      await refreshDeliveries();
      document.body.dataset.refreshed = String(Date.now());
    } catch (error) {
      status(`refresh failed: ${error.message}`, true);
    } finally {
      refreshing = undefined;
    }
  })();
  return refreshing;
}

document.getElementById("create-wallet").onsubmit = (e) => {
  e.preventDefault();
  const name = new FormData(e.target).get("name");
  act(`creating wallet ${name}`, () => api.createWallet(call, ctx, name));
};
document.getElementById("create-webhook").onsubmit = (e) => {
  e.preventDefault();
  const url = new FormData(e.target).get("url");
  act(`adding endpoint ${url}`, () => api.createWebhook(call, ctx, url, api.EVENT_TYPES));
};

await refresh();
setInterval(refresh, REFRESH_MS);
