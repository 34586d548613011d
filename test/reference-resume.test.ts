// Crash safety of the reference core, over one chain and a data directory reopened by a second app
// instance: a withdrawal signed but not broadcast is sent with the same bytes; one already broadcast is
// only watched for its receipt; a pending webhook delivery is delivered after the restart, once.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createWalletClient, custom, type Hex, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReferenceApp } from "../reference/app.ts";
import { type EmbeddedChain, startEmbeddedChain } from "../reference/chain/embedded-chain.ts";
import { type SeededValues, seedValues } from "../reference/config.ts";
import { SANDBOX_ETH_ASSET_ID } from "../reference/domain/catalog.ts";
import {
  type Actor,
  C,
  type DeliveryRecord,
  type DepositRecord,
  type WithdrawalRecord,
} from "../reference/domain/records.ts";
import { ensureSeeded } from "../reference/seed-store.ts";
import { StateStore } from "../reference/store/state-store.ts";
import { type Receiver, startReceiver, waitFor } from "./reference-helpers.ts";

const ETH = SANDBOX_ETH_ASSET_ID;
const RECIPIENT = "0x000000000000000000000000000000000000dEaD";

let chain: EmbeddedChain;
let values: SeededValues;
let actor: Actor;
const dirs: string[] = [];

beforeAll(async () => {
  values = seedValues({}, "resume-test");
  chain = await startEmbeddedChain({ blockTimeSeconds: 0.25, faucetPrivateKey: values.faucetPrivateKey });
  actor = { keyId: values.apiKey, role: "owner", scopes: ["*"], workspaceId: values.workspaceId };
});
afterAll(async () => {
  await chain?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function open(dir: string): { store: StateStore; app: ReferenceApp } {
  const store = StateStore.open({ dataDir: dir });
  ensureSeeded(store, values, new Date());
  const app = new ReferenceApp({
    store,
    backend: chain,
    walletMasterSeed: Buffer.from(values.walletMasterSeed, "hex"),
    webhookProfile: "standard-webhooks",
    webhookRetry: { initialDelayMs: 50, maxDelayMs: 100 },
    webhookTimeoutMs: 2_000,
    settings: { walletCreationDelayMs: 20 },
    chainPollIntervalMs: 250,
  });
  return { store, app };
}

/** A fresh data dir with a funded wallet (2 ETH, confirmed). */
async function fundedWallet(): Promise<{
  dir: string;
  store: StateStore;
  app: ReferenceApp;
  walletId: string;
  address: Hex;
}> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "custody-resume-"));
  dirs.push(dir);
  const { store, app } = open(dir);
  await app.start();
  const wallet = app.wallets.create(actor, { name: "resume" });
  await waitFor("wallet creation", () => app.wallets.get(actor, wallet.id).status === "success");
  const attached = app.wallets.attachAsset(actor, wallet.id, ETH);
  const faucet = createWalletClient({
    account: privateKeyToAccount(values.faucetPrivateKey),
    transport: custom({ request: (a) => chain.request(a as never) }),
  });
  await faucet.sendTransaction({ to: attached.address as Hex, value: parseEther("2"), chain: null });
  await waitFor("confirmed balance", async () => (await app.balances.balanceOf(attached)).balance === "2");
  return { dir, store, app, walletId: wallet.id, address: attached.address as Hex };
}

async function nonceOf(address: Hex): Promise<number> {
  return Number(
    BigInt((await chain.request({ method: "eth_getTransactionCount", params: [address, "latest"] })) as string),
  );
}

describe("restart with a data directory", () => {
  it("sends a signed-but-unsent withdrawal with the same bytes, once", async () => {
    const first = await fundedWallet();
    // The first run signs and stores the transaction, then "crashes" before the chain gets it.
    first.app.chain.sendRaw = async () => {
      throw new Error("simulated crash before broadcast");
    };
    const { record } = await first.app.withdrawals.create(
      actor,
      first.walletId,
      { asset_id: ETH, amount: "0.25", recipient_address: RECIPIENT },
      "resume-1",
    );
    first.app.withdrawals.approve(actor, record.id);
    const signed = await waitFor("signed transaction stored", () => {
      const w = first.store.get<WithdrawalRecord>(C.withdrawals, record.id);
      return w?.raw_tx !== undefined && w;
    });
    expect(signed.status).toBe("approved");
    await first.app.close();

    const second = open(first.dir);
    await second.app.start();
    const done = await waitFor("completion after restart", () => {
      const w = second.store.get<WithdrawalRecord>(C.withdrawals, record.id);
      return w?.status === "completed" && w;
    });
    expect(done.raw_tx).toBe(signed.raw_tx);
    expect(done.tx_hash).toBe(signed.tx_hash);
    const receipt = (await chain.request({ method: "eth_getTransactionReceipt", params: [signed.tx_hash] })) as {
      blockNumber: string;
    };
    expect(Number(BigInt(receipt.blockNumber))).toBe(done.block_number);
    expect(await nonceOf(first.address)).toBe(1); // exactly one transaction left the wallet
    await second.app.close();
  });

  it("only watches the receipt of a withdrawal that was already broadcast", async () => {
    const first = await fundedWallet();
    const { record } = await first.app.withdrawals.create(
      actor,
      first.walletId,
      { asset_id: ETH, amount: "0.25", recipient_address: RECIPIENT },
      "resume-2",
    );
    first.app.withdrawals.approve(actor, record.id);
    const sent = await waitFor("processing", () => {
      const w = first.store.get<WithdrawalRecord>(C.withdrawals, record.id);
      return (w?.status === "processing" || w?.status === "completed") && w;
    });
    await first.app.close();

    const second = open(first.dir);
    let resent = 0;
    const send = second.app.chain.sendRaw.bind(second.app.chain);
    second.app.chain.sendRaw = async (raw) => {
      resent++;
      return send(raw);
    };
    await second.app.start();
    const done = await waitFor("completion after restart", () => {
      const w = second.store.get<WithdrawalRecord>(C.withdrawals, record.id);
      return w?.status === "completed" && w;
    });
    expect(done.tx_hash).toBe(sent.tx_hash);
    expect(resent).toBe(0);
    expect(await nonceOf(first.address)).toBe(1);
    await second.app.close();
  });

  it("delivers a pending webhook delivery after the restart, with the same event id", async () => {
    const receiver: Receiver = await startReceiver(500);
    try {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "custody-resume-"));
      dirs.push(dir);
      const first = open(dir);
      await first.app.start();
      first.app.webhooks.create(actor, values.workspaceId, { url: receiver.url, event_types: ["wallet.created"] });
      first.app.wallets.create(actor, { name: "hooked" });
      const failing = await waitFor("a failed attempt", () =>
        first.store.list<DeliveryRecord>(C.deliveries).find((d) => d.attempt_count >= 1),
      );
      expect(failing.status).toBe("pending");
      await first.app.close();
      first.store.close();

      receiver.status = 200;
      const second = open(dir);
      await second.app.start();
      const delivered = await waitFor("delivery after restart", () => {
        const d = second.store.get<DeliveryRecord>(C.deliveries, failing.id);
        return d?.status === "delivered" && d;
      });
      expect(delivered.attempt_count).toBeGreaterThanOrEqual(2);
      // At least once: an attempt in flight when the first app closed is aborted unrecorded and sent
      // again; its request may still reach the receiver after the receiver started answering 200.
      const ok = receiver.received.filter((r) => r.answeredWith === 200);
      expect(ok.length).toBeGreaterThanOrEqual(1);
      expect(ok[0].headers["webhook-id"]).toBe(failing.event_id);
      expect(new Set(receiver.received.map((r) => r.headers["webhook-id"]))).toEqual(new Set([failing.event_id]));
      await second.app.close();
    } finally {
      await receiver.close();
    }
  });

  it("fails what existed only on the old chain when the chain was replaced", async () => {
    const first = await fundedWallet();
    const { record } = await first.app.withdrawals.create(
      actor,
      first.walletId,
      { asset_id: ETH, amount: "0.25", recipient_address: RECIPIENT },
      "reset-1",
    );
    first.app.chain.sendRaw = async () => {
      throw new Error("simulated crash before broadcast");
    };
    first.app.withdrawals.approve(actor, record.id);
    await waitFor("signed", () => first.store.get<WithdrawalRecord>(C.withdrawals, record.id)?.raw_tx !== undefined);
    // A deposit still pending on the old chain (at a height the new chain will reach).
    const [confirmedDeposit] = first.store.list<DepositRecord>(C.deposits);
    first.store.transact((tx) =>
      tx.put<DepositRecord>(C.deposits, {
        ...confirmedDeposit,
        id: "dep_old_chain",
        tx_hash: "0x01",
        status: "pending",
        confirmations: 1,
      }),
    );
    await first.app.close();
    first.store.close();

    const otherChain = await startEmbeddedChain({ blockTimeSeconds: 0.25, faucetPrivateKey: values.faucetPrivateKey });
    try {
      const store = StateStore.open({ dataDir: first.dir });
      const app = new ReferenceApp({
        store,
        backend: otherChain,
        walletMasterSeed: Buffer.from(values.walletMasterSeed, "hex"),
        webhookProfile: "standard-webhooks",
        chainPollIntervalMs: 250,
      });
      await app.start();
      const w = store.get<WithdrawalRecord>(C.withdrawals, record.id) as WithdrawalRecord;
      expect(w.status).toBe("failed");
      expect(w.error).toMatch(/chain was reset/);
      expect(store.get<DepositRecord>(C.deposits, "dep_old_chain")?.status).toBe("failed");
      expect(store.get<DepositRecord>(C.deposits, confirmedDeposit.id)?.status).toBe("confirmed");
      await app.close();
      store.close();
    } finally {
      await otherChain.close();
    }
  });
});
