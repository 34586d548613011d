// The withdrawal executor's reconciliation rules, each from a stored state a crash can leave behind:
// a transaction signed and stored but never broadcast is sent from the stored bytes (same hash); one
// whose nonce another transaction used is failed with a reason and its funds released.
import { type Hex, keccak256, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CustodialWalletServiceClient } from "../generated/client.ts";
import { SANDBOX_ETH_ASSET_ID } from "../reference/domain/catalog.ts";
import { C, type WithdrawalRecord } from "../reference/domain/records.ts";
import { WithdrawalExecutor } from "../reference/domain/withdrawal-executor.ts";
import { type Sandbox, startSandbox } from "../reference/sandbox.ts";
import { chainClients, OUTER_BOUND_MS, type Receiver, startReceiver, waitFor } from "./reference-helpers.ts";

const ETH = SANDBOX_ETH_ASSET_ID;
let sandbox: Sandbox;
let client: CustodialWalletServiceClient;
let receiver: Receiver;
let walletId: string;
let address: Hex;

beforeAll(async () => {
  sandbox = await startSandbox({
    env: {},
    seed: "executor",
    blockTimeSeconds: 0.25,
    walletCreationDelayMs: 20,
    requiredApprovals: 0,
    webhookRetry: { initialDelayMs: 50, maxDelayMs: 100 },
  });
  client = new CustodialWalletServiceClient({
    baseUrl: sandbox.base_url,
    apiKey: sandbox.api_key,
    apiSecret: sandbox.api_secret,
  });
  receiver = await startReceiver(200);
  await client.createWebhook({
    params: { workspace_id: sandbox.workspace_id },
    body: { url: receiver.url, event_types: ["withdrawal.failed", "withdrawal.confirmed"] },
  });
  walletId = (await client.createWallet({ body: { name: "executor" } })).wallet_id as string;
  await waitFor(
    "wallet",
    async () => (await client.getWalletCreationStatus({ params: { wallet_id: walletId } })).status === "success",
  );
  address = (await client.attachAsset({ params: { wallet_id: walletId }, body: { asset_id: ETH } })).address as Hex;
  const chain = chainClients(
    sandbox.rpc_url,
    sandbox.rpc_api_key,
    sandbox.app.chain.chainId,
    sandbox.faucet_private_key,
  );
  await chain.wallet.sendTransaction({ to: address, value: parseEther("2") });
  await waitFor(
    "funds",
    async () =>
      Number(
        (await client.getWalletAssetBalance({ params: { wallet_id: walletId, asset_id: ETH } })).available_balance,
      ) >= 2,
  );
  // The running executor stops: each test drives a fresh one over the same store, as after a restart.
  await sandbox.app.executor.close();
});

afterAll(async () => {
  await sandbox?.close();
  await receiver?.close();
});

/** A withdrawal created through the API, then signed and stored by hand as a crash right after prepare leaves it. */
async function storedUnsent(
  nonce: number,
  amount: string,
): Promise<{ w: WithdrawalRecord; account: ReturnType<typeof privateKeyToAccount> }> {
  const created = await client.createWithdrawal({
    params: { wallet_id: walletId },
    headers: { "idempotency-key": `exec-${nonce}-${amount}` },
    body: { asset_id: ETH, amount, recipient_address: `0x${"5a".repeat(20)}` },
  });
  const store = sandbox.app.ctx.store;
  const w = store.get<WithdrawalRecord>(C.withdrawals, created.withdrawal.id as string)!;
  expect(w.status).toBe("approved");
  const account = privateKeyToAccount(sandbox.app.wallets.privateKeyOf(walletId));
  const fees = await sandbox.app.chain.fees();
  const raw = await account.signTransaction({
    type: "eip1559",
    chainId: sandbox.app.chain.chainId,
    nonce,
    to: w.recipient_address as Hex,
    value: BigInt(w.amount_wei),
    gas: 21_000n,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
  });
  const stored: WithdrawalRecord = { ...w, nonce, raw_tx: raw, tx_hash: keccak256(raw) };
  store.transact((tx) => tx.put(C.withdrawals, stored));
  return { w: stored, account };
}

describe("reconciliation after a crash", () => {
  it("sends a stored, never-broadcast transaction from its stored bytes: same hash, completed once", async () => {
    const { w } = await storedUnsent(0, "0.1");
    const executor = new WithdrawalExecutor(sandbox.app.ctx, sandbox.app.wallets);
    try {
      const done = await waitFor(
        "completed",
        async () => {
          await executor.kick();
          const r = await client.getWithdrawal({ params: { withdrawal_id: w.id } });
          return r.status === "completed" && r;
        },
        OUTER_BOUND_MS,
        200,
      );
      expect(done.tx_hash).toBe(w.tx_hash);
      expect(done.last_sent_at).toBeDefined();
      const confirmed = await waitFor("withdrawal.confirmed", () => {
        const e = receiver.received.filter(
          (x) => x.event.event === "withdrawal.confirmed" && x.event.payload.withdrawal_id === w.id,
        );
        return e.length > 0 && e;
      });
      expect(confirmed).toHaveLength(1);
    } finally {
      await executor.close();
    }
  });

  it("fails a withdrawal whose nonce another transaction used, with the reason, and releases its funds", async () => {
    const { w, account } = await storedUnsent(1, "0.5");
    const held = await client.getWalletAssetBalance({ params: { wallet_id: walletId, asset_id: ETH } });
    expect(Number(held.on_hold)).toBeGreaterThanOrEqual(0.5);
    // Another transaction of the same key takes nonce 1 first.
    const fees = await sandbox.app.chain.fees();
    const other = await account.signTransaction({
      type: "eip1559",
      chainId: sandbox.app.chain.chainId,
      nonce: 1,
      to: `0x${"6b".repeat(20)}`,
      value: 1n,
      gas: 21_000n,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    const otherHash = await sandbox.app.chain.sendRaw(other);
    await waitFor("other mined", async () => (await sandbox.app.chain.receipt(otherHash)) !== undefined);
    const logged: string[] = [];
    const executor = new WithdrawalExecutor(sandbox.app.ctx, sandbox.app.wallets, { log: (m) => logged.push(m) });
    try {
      const failed = await waitFor(
        "failed",
        async () => {
          await executor.kick();
          const r = await client.getWithdrawal({ params: { withdrawal_id: w.id } });
          return r.status === "failed" && r;
        },
        OUTER_BOUND_MS,
        200,
      );
      expect(failed.status_reason).toBe("nonce_used");
      expect(failed.error).toMatch(/nonce 1 .* another transaction/);
      expect(logged.some((m) => m.includes(w.id) && m.includes("funds released"))).toBe(true);
      const events = await waitFor("withdrawal.failed", () => {
        const e = receiver.received.filter(
          (x) => x.event.event === "withdrawal.failed" && x.event.payload.withdrawal_id === w.id,
        );
        return e.length > 0 && e;
      });
      expect(events).toHaveLength(1);
      expect(events[0]!.event.payload).toMatchObject({ status: "failed", status_reason: "nonce_used" });
      // Released: nothing stays on hold once the blocks of the earlier transactions are confirmed.
      await waitFor(
        "released",
        async () =>
          (await client.getWalletAssetBalance({ params: { wallet_id: walletId, asset_id: ETH } })).on_hold === "0",
      );
      expect(await sandbox.app.chain.receipt(w.tx_hash as Hex)).toBeUndefined();
    } finally {
      await executor.close();
    }
  });
});
