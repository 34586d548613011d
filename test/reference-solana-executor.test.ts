// Crash safety of SOL withdrawals: the executor's rules from each stored state a crash can leave
// (signed and stored but never sent; sent but not recorded; stored with a blockhash that expired), and
// a restart on the same data folder, where the Solana ledger is replayed. Slots are produced by hand
// (solanaSlotMs 0), so every blockhash age below is exact.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { base58 } from "@scure/base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CustodialWalletServiceClient } from "../generated/client.ts";
import { signBytes } from "../lib/solana/keys.ts";
import { transferMessage } from "../lib/solana/system-program.ts";
import { encodeTransaction } from "../lib/solana/transaction.ts";
import { BLOCKHASH_VALID_SLOTS, SolanaTransactionRejected } from "../reference/chain/solana/runtime.ts";
import { SANDBOX_SOL_ASSET_ID } from "../reference/domain/catalog.ts";
import { C, type WithdrawalRecord } from "../reference/domain/records.ts";
import { SolanaWithdrawalExecutor } from "../reference/domain/solana-withdrawal-executor.ts";
import { type Sandbox, type SandboxOptions, startSandbox } from "../reference/sandbox.ts";
import { OUTER_BOUND_MS, type Receiver, startReceiver, waitFor } from "./reference-helpers.ts";

const SOL = SANDBOX_SOL_ASSET_ID;
const OPTIONS: SandboxOptions = {
  env: {},
  seed: "sol-executor",
  walletCreationDelayMs: 20,
  requiredApprovals: 0,
  solanaSlotMs: 0,
  webhookRetry: { initialDelayMs: 50, maxDelayMs: 100 },
};
let sandbox: Sandbox;
let client: CustodialWalletServiceClient;
let receiver: Receiver;
let walletId: string;
let solAddress: string;

const node = () => sandbox.app.ctx.solana!;

async function readyWallet(c: CustodialWalletServiceClient, name: string): Promise<string> {
  const id = (await c.createWallet({ body: { name } })).wallet_id as string;
  await waitFor(
    "wallet",
    async () => (await c.getWalletCreationStatus({ params: { wallet_id: id } })).status === "success",
  );
  return id;
}

/** Airdrops to the wallet and produces the 32 slots that confirm it. */
async function fundWallet(
  s: Sandbox,
  c: CustodialWalletServiceClient,
  id: string,
  address: string,
  lamports: bigint,
): Promise<void> {
  s.app.ctx.solana!.airdrop(base58.decode(address), lamports);
  s.app.ctx.solana!.produceSlots(40);
  await waitFor(
    "funds",
    async () =>
      Number((await c.getWalletAssetBalance({ params: { wallet_id: id, asset_id: SOL } })).available_balance) > 0,
  );
}

beforeAll(async () => {
  sandbox = await startSandbox(OPTIONS);
  client = new CustodialWalletServiceClient({
    baseUrl: sandbox.base_url,
    apiKey: sandbox.api_key,
    apiSecret: sandbox.api_secret,
  });
  receiver = await startReceiver(200);
  await client.createWebhook({
    params: { workspace_id: sandbox.workspace_id },
    body: { url: receiver.url, event_types: ["withdrawal.executed", "withdrawal.failed", "withdrawal.confirmed"] },
  });
  walletId = await readyWallet(client, "sol executor");
  solAddress = (await client.getDepositAddress({ params: { wallet_id: walletId }, query: { address_type: "sol" } }))
    .address;
  await fundWallet(sandbox, client, walletId, solAddress, 5_000_000_000n);
  // The running executor stops: each test drives a fresh one over the same store, as after a restart.
  await sandbox.app.solanaExecutor.close();
});

afterAll(async () => {
  await sandbox?.close();
  await receiver?.close();
});

/** A withdrawal created through the API, then signed and stored by hand as a crash right after step 1 leaves it. */
async function storedUnsent(
  amount: string,
  recipient = base58.encode(crypto.getRandomValues(new Uint8Array(32))),
): Promise<{ w: WithdrawalRecord; wire: Uint8Array }> {
  const created = await client.createWithdrawal({
    params: { wallet_id: walletId },
    body: { asset_id: SOL, amount, recipient_address: recipient },
  });
  const store = sandbox.app.ctx.store;
  const w = store.get<WithdrawalRecord>(C.withdrawals, created.withdrawal.id as string)!;
  expect({ status: w.status, raw: w.raw_tx }).toEqual({ status: "approved", raw: undefined });
  const keypair = sandbox.app.wallets.solanaKeypairOf(walletId);
  const { blockhash, lastValidBlockHeight } = node().latestBlockhash("confirmed");
  const message = transferMessage(
    { from: keypair.publicKey, to: base58.decode(recipient), lamports: BigInt(w.amount_wei) },
    base58.decode(blockhash),
  );
  const signature = signBytes(message, keypair.seed);
  const wire = encodeTransaction([signature], message);
  const stored: WithdrawalRecord = {
    ...w,
    raw_tx: Buffer.from(wire).toString("base64"),
    tx_hash: base58.encode(signature),
    recent_blockhash: blockhash,
    last_valid_block_height: lastValidBlockHeight,
  };
  store.transact((tx) => tx.put(C.withdrawals, stored));
  return { w: stored, wire };
}

async function settle(executor: SolanaWithdrawalExecutor, id: string, status: "completed" | "failed") {
  return waitFor(
    status,
    async () => {
      await executor.kick();
      node().produceSlots(1);
      const r = await client.getWithdrawal({ params: { withdrawal_id: id } });
      return r.status === status && r;
    },
    OUTER_BOUND_MS,
    50,
  );
}

const eventsFor = (type: string, id: string) =>
  receiver.received.filter((r) => r.event.event === type && r.event.payload.id === id);

describe("SOL withdrawals after a crash", () => {
  it("sends a stored, never-sent transaction from its stored bytes: same signature, the recipient paid once", async () => {
    const { w } = await storedUnsent("0.25");
    const executor = new SolanaWithdrawalExecutor(sandbox.app.ctx, sandbox.app.wallets);
    try {
      const done = await settle(executor, w.id, "completed");
      expect(done.tx_hash).toBe(w.tx_hash);
      expect(node().balance(w.recipient_address)).toBe(250_000_000n);
      await waitFor("withdrawal.confirmed", () => eventsFor("withdrawal.confirmed", w.id).length === 1);
      expect(eventsFor("withdrawal.executed", w.id)).toHaveLength(1);
    } finally {
      await executor.close();
    }
  });

  it("records a transaction sent just before the crash without sending it again", async () => {
    const { w, wire } = await storedUnsent("0.5");
    node().sendTransaction(wire); // sent, then the crash: the store still says approved
    const sends: string[] = [];
    const executor = new SolanaWithdrawalExecutor(sandbox.app.ctx, sandbox.app.wallets, { log: (m) => sends.push(m) });
    try {
      const done = await settle(executor, w.id, "completed");
      expect(done.tx_hash).toBe(w.tx_hash);
      expect(node().balance(w.recipient_address)).toBe(500_000_000n);
      expect(sends.filter((m) => m.includes("sending the stored bytes again"))).toEqual([]);
      await waitFor("withdrawal.confirmed", () => eventsFor("withdrawal.confirmed", w.id).length === 1);
      expect(eventsFor("withdrawal.executed", w.id)).toHaveLength(1);
    } finally {
      await executor.close();
    }
  });

  it("fails a stored transaction whose blockhash expired before it landed, releases the funds, and the bytes can never land", async () => {
    const { w, wire } = await storedUnsent("1");
    const held = await client.getWalletAssetBalance({ params: { wallet_id: walletId, asset_id: SOL } });
    expect(Number(held.on_hold)).toBeGreaterThanOrEqual(1);
    node().produceSlots(BLOCKHASH_VALID_SLOTS + 2);
    const logged: string[] = [];
    const executor = new SolanaWithdrawalExecutor(sandbox.app.ctx, sandbox.app.wallets, { log: (m) => logged.push(m) });
    try {
      const failed = await settle(executor, w.id, "failed");
      expect(failed.status_reason).toBe("blockhash_expired");
      expect(failed.error).toMatch(/blockhash .* expired .* it can never land/);
      expect(logged.some((m) => m.includes(w.id) && m.includes("funds released"))).toBe(true);
      expect((await client.getWalletAssetBalance({ params: { wallet_id: walletId, asset_id: SOL } })).on_hold).toBe(
        "0",
      );
      await waitFor("withdrawal.failed", () => eventsFor("withdrawal.failed", w.id).length === 1);
      expect(() => node().sendTransaction(wire)).toThrow(SolanaTransactionRejected);
      expect(node().signatureStatus(w.tx_hash!)).toBeUndefined();
    } finally {
      await executor.close();
    }
  });
});

describe("a restart on the same data", () => {
  it("replays the Solana ledger: deposits, a completed withdrawal and every balance are as before, nothing sent twice", async () => {
    const dir = mkdtempSync(join(tmpdir(), "custody-sol-restart-"));
    const options: SandboxOptions = { ...OPTIONS, seed: "sol-restart", dataDir: dir };
    let first: Sandbox | undefined = await startSandbox(options);
    let second: Sandbox | undefined;
    try {
      const c1 = new CustodialWalletServiceClient({
        baseUrl: first.base_url,
        apiKey: first.api_key,
        apiSecret: first.api_secret,
      });
      const id = await readyWallet(c1, "restart");
      const address = (await c1.getDepositAddress({ params: { wallet_id: id }, query: { address_type: "sol" } }))
        .address;
      await fundWallet(first, c1, id, address, 2_000_000_000n);
      const recipient = base58.encode(crypto.getRandomValues(new Uint8Array(32)));
      const w = await c1.createWithdrawal({
        params: { wallet_id: id },
        body: { asset_id: SOL, amount: "0.75", recipient_address: recipient },
      });
      await waitFor("completed", async () => {
        first!.app.ctx.solana!.produceSlots(1);
        return (
          (await c1.getWithdrawal({ params: { withdrawal_id: w.withdrawal.id as string } })).status === "completed"
        );
      });
      first.app.ctx.solana!.produceSlots(40);
      const before = await c1.getWalletAssetBalance({ params: { wallet_id: id, asset_id: SOL } });
      await first.close();
      first = undefined;

      second = await startSandbox(options);
      const c2 = new CustodialWalletServiceClient({
        baseUrl: second.base_url,
        apiKey: second.api_key,
        apiSecret: second.api_secret,
      });
      expect(await c2.getWalletAssetBalance({ params: { wallet_id: id, asset_id: SOL } })).toMatchObject({
        balance: before.balance,
        available_balance: before.available_balance,
      });
      expect(second.app.ctx.solana!.balance(recipient)).toBe(750_000_000n);
      second.app.ctx.solana!.produceSlots(5);
      await new Promise((r) => setTimeout(r, 300));
      expect((await c2.getWithdrawal({ params: { withdrawal_id: w.withdrawal.id as string } })).status).toBe(
        "completed",
      );
      expect(second.app.ctx.solana!.balance(recipient)).toBe(750_000_000n);
      expect(
        (await c2.listTransactions({ params: { workspace_id: second.workspace_id } })).filter(
          (t) => t.direction === "deposit",
        ),
      ).toHaveLength(1);
    } finally {
      await first?.close();
      await second?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
