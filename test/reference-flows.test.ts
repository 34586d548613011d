// End-to-end flows of the sandbox over HTTP with the generated client: wallet creation → status → event;
// attach → deposit on chain → detected event → balance unchanged → confirmations → confirmed event →
// balance; withdrawal (a transfer to a second wallet) → approval → on chain → receipt fields equal the
// chain's; signing; transactions and their export; the audit log.
import { type Hex, parseEther, verifyMessage } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CustodialWalletServiceClient } from "../generated/client.ts";
import type { Transaction, Withdrawal } from "../generated/types.ts";
import { SANDBOX_ETH_ASSET_ID, SANDBOX_NETWORK_ID } from "../reference/domain/catalog.ts";
import { type Sandbox, startSandbox } from "../reference/sandbox.ts";
import { verifyWebhook } from "../runtime/webhooks/signature.ts";
import { chainClients, type Receiver, startReceiver, waitFor } from "./reference-helpers.ts";

const ETH = SANDBOX_ETH_ASSET_ID;
const ALL_EVENTS = [
  "wallet.created",
  "deposit.pending",
  "deposit.confirmed",
  "withdrawal.pending",
  "withdrawal.executed",
  "withdrawal.confirmed",
  "withdrawal.failed",
] as const;

let sandbox: Sandbox;
let client: CustodialWalletServiceClient;
let receiver: Receiver;
let publicKey: string;
let chain: ReturnType<typeof chainClients>;
let ws: string;

beforeAll(async () => {
  sandbox = await startSandbox({
    env: {},
    seed: "flows",
    blockTimeSeconds: 0.4,
    walletCreationDelayMs: 100,
    webhookRetry: { initialDelayMs: 50, maxDelayMs: 200 },
  });
  ws = sandbox.workspace_id;
  client = new CustodialWalletServiceClient({
    baseUrl: sandbox.base_url,
    apiKey: sandbox.api_key,
    apiSecret: sandbox.api_secret,
  });
  receiver = await startReceiver(200);
  await client.createWebhook({
    params: { workspace_id: ws },
    body: { url: receiver.url, event_types: [...ALL_EVENTS] },
  });
  publicKey = (await client.getWebhookVerificationKey({ params: { workspace_id: ws } })).public_key as string;
  const [network] = await client.listNetworks();
  chain = chainClients(sandbox.rpc_url, sandbox.rpc_api_key, network.chain_id as number, sandbox.faucet_private_key);
});

afterAll(async () => {
  await sandbox?.close();
  await receiver?.close();
});

/** A method of the embedded anvil itself (mining control), past the node access that refuses it. */
function anvil(method: string, params: unknown[] = []): Promise<unknown> {
  return sandbox.app.chain.backend.request({ method, params });
}

function eventsOf(type: string, match: (data: Record<string, unknown>) => boolean) {
  return receiver.received.filter((r) => r.event.event === type && match(r.event.payload));
}

async function readyWallet(name: string): Promise<string> {
  const created = await client.createWallet({ body: { name } });
  await waitFor(
    `${name} creation`,
    async () =>
      (await client.getWalletCreationStatus({ params: { wallet_id: created.wallet_id as string } })).status ===
      "success",
  );
  return created.wallet_id as string;
}

describe("catalog", () => {
  it("lists the sandbox network with the chain's id and its native asset", async () => {
    const [network] = await client.listNetworks();
    expect(network).toMatchObject({ id: SANDBOX_NETWORK_ID, is_evm: true, confirmation_blocks: 3 });
    expect(network.chain_id).toBe(await chain.public.getChainId());
    const assets = await client.listAssets({ query: { network_id: network.id } });
    expect(assets.map((a) => a.id)).toEqual([ETH]);
    expect(await client.listAssets({ query: { network_id: "net_unknown" } })).toEqual([]);
  });
});

describe("wallet creation", () => {
  it("answers pending, turns success, and emits one signed wallet.created", async () => {
    const created = await client.createWallet({ body: { name: "Treasury", wallet_type: "mpc" } });
    expect(created.status).toBe("pending");
    const walletId = created.wallet_id as string;
    const status = await waitFor("success", async () => {
      const s = await client.getWalletCreationStatus({ params: { wallet_id: walletId } });
      return s.status === "success" && s;
    });
    expect(status).toMatchObject({ wallet_id: walletId, workspace_id: ws, name: "Treasury", wallet_type: "mpc" });
    expect(status.completed_at).toBeDefined();
    const [event] = await waitFor("wallet.created", () => {
      const e = eventsOf("wallet.created", (d) => d.wallet_id === walletId);
      return e.length > 0 && e;
    });
    expect(event.event.payload).toMatchObject({ wallet_id: walletId, status: "success" });
    expect(
      verifyWebhook({ publicKeyBase64: publicKey, headers: event.headers as Record<string, string>, body: event.body }),
    ).toEqual({ ok: true, profile: "canonical-json" });
    expect(event.event).toMatchObject({ event: "wallet.created", resource_id: walletId, url: receiver.url });
    expect(event.headers["x-webhook-event-id"]).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    const wallet = await client.getWallet({ params: { wallet_id: walletId } });
    expect(wallet).toMatchObject({ id: walletId, creation_status: "success" });
    expect((await client.listWallets({ params: { workspace_id: ws } })).map((w) => w.id)).toContain(walletId);
  });
});

describe("deposit, balance and withdrawal", () => {
  let walletA: string;
  let walletB: string;
  let addressA: Hex;
  let addressB: Hex;

  it("attaches ETH and derives one deposit address per wallet", async () => {
    walletA = await readyWallet("A");
    walletB = await readyWallet("B");
    const attached = await client.attachAsset({ params: { wallet_id: walletA }, body: { asset_id: ETH } });
    addressA = attached.address as Hex;
    expect(addressA).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const read = await client.getDepositAddress({ params: { wallet_id: walletA }, query: { asset_id: ETH } });
    expect(read).toMatchObject({
      wallet_id: walletA,
      asset_id: ETH,
      network_id: SANDBOX_NETWORK_ID,
      address: addressA,
    });
    addressB = (await client.attachAsset({ params: { wallet_id: walletB }, body: { asset_id: ETH } })).address as Hex;
    expect(addressB.toLowerCase()).not.toBe(addressA.toLowerCase());
    // Native assets are attached on creation; attaching again answers the same attachment.
    expect(await client.attachAsset({ params: { wallet_id: walletA }, body: { asset_id: ETH } })).toMatchObject({
      wallet_id: walletA,
      asset_id: ETH,
      address: addressA,
    });
  });

  it("reports a deposit when detected, counts it only once confirmed", async () => {
    const before = await client.getWalletAssetBalance({ params: { wallet_id: walletA, asset_id: ETH } });
    expect(before).toMatchObject({ balance: "0", available_balance: "0", on_hold: "0", symbol: "ETH", decimals: 18 });

    // The blocks of this deposit are mined one by one here, so the unconfirmed state lasts as long as the
    // test needs to read it, however busy the machine; interval mining resumes afterwards (1 s blocks).
    await anvil("evm_setIntervalMining", [0]);
    let hash: Hex;
    try {
      hash = await chain.wallet.sendTransaction({ to: addressA, value: parseEther("1.5") });
      await anvil("evm_mine"); // the deposit's block: 1 confirmation of 3
      const [pending] = await waitFor("deposit.pending", () => {
        const e = eventsOf("deposit.pending", (d) => d.tx_hash === hash);
        return e.length > 0 && e;
      });
      expect(pending.event.payload).toMatchObject({
        direction: "in",
        status: "pending",
        wallet_id: walletA,
        amount: "1.5",
        to_address: addressA,
      });

      // Until the deposit has confirmation_blocks confirmations the balance does not show it.
      await anvil("evm_mine"); // 2 of 3
      const unconfirmed = (await client.listTransactions({ params: { workspace_id: ws } })).find(
        (t) => t.tx_hash === hash,
      );
      expect(unconfirmed?.status).toBe("pending");
      expect((await client.getWalletAssetBalance({ params: { wallet_id: walletA, asset_id: ETH } })).balance).toBe("0");
      await anvil("evm_mine"); // 3 of 3
      await waitFor("deposit confirmed in the transactions", async () => {
        const tx = (await client.listTransactions({ params: { workspace_id: ws } })).find((t) => t.tx_hash === hash);
        return tx?.status === "confirmed";
      });
    } finally {
      await anvil("evm_setIntervalMining", [1]);
    }

    const [confirmed] = await waitFor("deposit.confirmed", () => {
      const e = eventsOf("deposit.confirmed", (d) => d.tx_hash === hash);
      return e.length > 0 && e;
    });
    expect(confirmed.event.payload).toMatchObject({ status: "confirmed", amount: "1.5" });
    const after = await client.getWalletAssetBalance({ params: { wallet_id: walletA, asset_id: ETH } });
    expect(after).toMatchObject({
      balance: "1.5",
      total_balance: "1.5",
      available_balance: "1.5",
      on_hold: "0",
      balance_usd: "4500.00",
      price_usd: "3000.00",
    });
    const overview = await client.getWalletOverview({ params: { wallet_id: walletA } });
    // Every new wallet holds the native asset of each network that moves funds: ETH and SOL.
    expect(overview.map((b) => b.symbol)).toEqual(["ETH", "SOL"]);
    expect(overview[0]).toMatchObject({ asset_id: ETH, balance: "1.5" });
  });

  it("sends an approved withdrawal on chain; the receipt fields equal the chain's", async () => {
    const created = await client.createWithdrawal({
      params: { wallet_id: walletA },
      headers: { "idempotency-key": "flow-transfer-1" },
      body: { asset_id: ETH, amount: "0.5", recipient_address: addressB, notes: "A to B" },
    });
    expect(created.auto_approved).toBe(false);
    expect(created.withdrawal.status).toBe("pending_approval");
    const id = created.withdrawal.id as string;
    const held = await client.getWalletAssetBalance({ params: { wallet_id: walletA, asset_id: ETH } });
    expect(Number(held.on_hold)).toBeGreaterThanOrEqual(0.5);
    expect(Number(held.available_balance)).toBeLessThanOrEqual(1);

    const approved = await client.approveWithdrawal({ params: { withdrawal_id: id }, body: { comment: "ok" } });
    expect(approved.status).toBe("approved");
    expect(approved.withdrawal_approvals).toEqual([
      expect.objectContaining({ user_id: sandbox.api_key, status: "approved", comment: "ok" }),
    ]);

    const done = await waitFor("completed", async () => {
      const w = await client.getWithdrawal({ params: { withdrawal_id: id } });
      if (w.status === "failed") throw new Error(`withdrawal failed: ${w.error}`);
      return w.status === "completed" && w;
    });
    const receipt = await chain.public.getTransactionReceipt({ hash: done.tx_hash as Hex });
    const block = await chain.public.getBlock({ blockNumber: receipt.blockNumber });
    expect(done).toMatchObject<Partial<Withdrawal>>({
      block_number: Number(receipt.blockNumber),
      block_hash: receipt.blockHash,
      gas_used: receipt.gasUsed.toString(),
      effective_gas_price_wei: receipt.effectiveGasPrice.toString(),
      confirmed_at: new Date(Number(block.timestamp) * 1000).toISOString(),
    });
    expect(receipt.from.toLowerCase()).toBe(addressA.toLowerCase());
    expect(receipt.to?.toLowerCase()).toBe(addressB.toLowerCase());
    const tx = await chain.public.getTransaction({ hash: done.tx_hash as Hex });
    expect(tx.value).toBe(parseEther("0.5"));

    // Events in order, and the receiving wallet sees an ordinary deposit.
    const types = receiver.received.filter((r) => r.event.payload.withdrawal_id === id).map((r) => r.event.event);
    await waitFor("withdrawal.confirmed", () =>
      receiver.received.some((r) => r.event.event === "withdrawal.confirmed" && r.event.payload.withdrawal_id === id),
    );
    expect(receiver.received.filter((r) => r.event.payload.withdrawal_id === id).map((r) => r.event.event)).toEqual([
      "withdrawal.pending",
      "withdrawal.executed",
      "withdrawal.confirmed",
    ]);
    expect(types[0]).toBe("withdrawal.pending");
    await waitFor(
      "deposit into B",
      () => eventsOf("deposit.confirmed", (d) => d.wallet_id === walletB && d.tx_hash === done.tx_hash).length > 0,
    );
    expect((await client.getWalletAssetBalance({ params: { wallet_id: walletB, asset_id: ETH } })).balance).toBe("0.5");

    // Once settled and confirmed, nothing stays on hold and A's balance is 1.5 - 0.5 - fee.
    const fee = receipt.gasUsed * receipt.effectiveGasPrice;
    const expected = parseEther("1.5") - parseEther("0.5") - fee;
    await waitFor("A's settled balance", async () => {
      const b = await client.getWalletAssetBalance({ params: { wallet_id: walletA, asset_id: ETH } });
      return b.on_hold === "0" && parseEther(b.balance as string) === expected;
    });
    const list = await client.listWalletWithdrawals({ params: { wallet_id: walletA } });
    expect(list.map((w) => w.id)).toEqual([id]);
  });

  it("rejects a withdrawal on request and never sends it", async () => {
    const created = await client.createWithdrawal({
      params: { wallet_id: walletB },
      headers: { "idempotency-key": "flow-reject-1" },
      body: { asset_id: ETH, amount: "0.1", recipient_address: addressA },
    });
    const rejected = await client.rejectWithdrawal({
      params: { withdrawal_id: created.withdrawal.id as string },
      body: { reason: "not today" },
    });
    expect(rejected).toMatchObject({ status: "rejected", status_reason: "not today" });
    await expect(
      client.approveWithdrawal({ params: { withdrawal_id: created.withdrawal.id as string }, body: {} }),
    ).rejects.toMatchObject({ status: 409 });
    expect(rejected.tx_hash).toBeUndefined();
  });

  it("signs an EIP-191 message that recovers to the wallet address", async () => {
    const signed = await client.signMessage({
      params: { wallet_id: walletA },
      body: { message: "proof of ownership" },
    });
    expect(signed).toMatchObject({ wallet_id: walletA, message: "proof of ownership", signature_scheme: "eip191" });
    expect(
      await verifyMessage({
        address: signed.address as Hex,
        message: "proof of ownership",
        signature: signed.signature as Hex,
      }),
    ).toBe(true);
    expect((signed.address as string).toLowerCase()).toBe(addressA.toLowerCase());
    const hex = await client.signMessage({
      params: { wallet_id: walletA },
      body: { message: "0xdeadbeef", encoding: "hex" },
    });
    expect(
      await verifyMessage({ address: addressA, message: { raw: "0xdeadbeef" }, signature: hex.signature as Hex }),
    ).toBe(true);
    await expect(
      client.signMessage({ params: { wallet_id: walletA }, body: { message: "0xabc", encoding: "hex" } }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it("lists and exports the transactions (JSON and CSV)", async () => {
    const txs = await client.listTransactions({ params: { workspace_id: ws } });
    const directions = txs.map((t) => t.direction).sort();
    expect(directions).toEqual(["deposit", "deposit", "withdrawal"]);
    const json = await client.exportTransactions({ params: { workspace_id: ws }, query: { format: "json" } });
    expect(json).toMatchObject({ workspace_id: ws, format: "json", count: 3 });
    expect((json.transactions as Transaction[]).map((t) => t.id)).toEqual(txs.map((t) => t.id));
    const csv = await client.exportTransactions({ params: { workspace_id: ws }, query: { format: "csv" } });
    const lines = (csv.csv as string).trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "id,workspace_id,wallet_id,direction,status,asset_id,network_id,amount,from_address,to_address,tx_hash,block_number,withdrawal_id,created_at,confirmed_at",
    );
    expect(lines).toHaveLength(4);
    const future = await client.exportTransactions({
      params: { workspace_id: ws },
      query: { format: "json", from: new Date(Date.now() + 3_600_000).toISOString() },
    });
    expect(future.count).toBe(0);
  });

  it("records an audit entry for every state-changing call", async () => {
    const entries = await client.listAuditLogs({ params: { workspace_id: ws } });
    const actions = entries.map((e) => e.action);
    for (const a of [
      "createWebhook",
      "createWallet",
      "attachAsset",
      "createWithdrawal",
      "approveWithdrawal",
      "rejectWithdrawal",
      "signMessage",
    ])
      expect(actions).toContain(a);
    expect(actions).not.toContain("getWallet");
    const approve = entries.find((e) => e.action === "approveWithdrawal");
    expect(approve).toMatchObject({ actor_key_id: sandbox.api_key, method: "POST", status: 200, workspace_id: ws });
    expect(approve?.path).toMatch(/^\/api\/v1\/withdrawals\/[0-9a-f-]{36}\/approve$/);
  });
});

describe("health", () => {
  it("is ok with the chain's block number", async () => {
    const health = await client.getHealth();
    expect(health.status).toBe("ok");
    expect(health.chain.reachable).toBe(true);
    expect(health.chain.block_number).toBeGreaterThan(0);
  });
});
