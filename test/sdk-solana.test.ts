// The sandbox's Solana side as the real service's SDK and public examples drive it, checked with
// @solana/web3.js (the examples' own client) and @noble/curves (an Ed25519 independent of ours).
// The requests are written from their source as facts (no SDK code):
// - fystack/platform-sdk src/solanaSigner.ts: getAddress reads GET /web3/wallet-detail[/{id}]?address_type=sol;
//   signMessage posts {method: "solana_signMessage", message, chain_id: 0} to /web3/{id}/sign and polls
//   GET /web3/transaction/{id}/{tx} until confirmed|completed with a hash; signTransaction posts
//   {data, from, meta: {tx_method: "solana_signTransaction"}, chainId: "1399811149"} and
//   signAndSendTransaction {transaction, from, method: "solana_signAndSendTransaction"} to
//   /web3/transaction/{id}/signRaw and poll the same status; hashes are base58 signatures (bs58.decode).
// - fystack/fystack-sdk-examples src/examples/get-deposit-address.ts (evm and sol addresses) and
//   solana-transfer.ts (getBalance, getLatestBlockhash("finalized"), a SystemProgram.transfer serialized
//   without signatures as base64, signAndSendTransaction, then confirmTransaction with the blockhash).

import { createRequire } from "node:module";
import { ed25519 } from "@noble/curves/ed25519";
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, Transaction } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../reference/sandbox.ts";
import { OUTER_BOUND_MS, type Receiver, startReceiver, waitFor } from "./reference-helpers.ts";
import { sdkPoll, sdkRequest } from "./support/sdk-requests.ts";

// bs58 is what the SDK decodes signatures with (a dependency of @solana/web3.js, untyped).
const bs58 = createRequire(import.meta.url)("bs58") as { decode(text: string): Uint8Array };

let sandbox: Sandbox;
let receiver: Receiver;
let connection: Connection;
let walletId: string;
let solAddress: string;
let solAssetId: string;

const sdk = (method: "GET" | "POST", path: string, body?: Record<string, unknown>, headers?: Record<string, string>) =>
  sdkRequest(sandbox, method, path, body, headers);

/** waitForTransactionStatus of src/solanaSigner.ts: success is confirmed|completed with a hash. */
function transactionStatus(txId: string) {
  return sdkPoll(
    () => sdk("GET", `/web3/transaction/${walletId}/${txId}`),
    (r) => (r.status === "confirmed" || r.status === "completed") && !!r.hash,
    (r) => r.status === "failed" || r.status === "rejected",
  );
}

async function fund(to: PublicKey, sol: number): Promise<void> {
  const signature = await connection.requestAirdrop(to, sol * LAMPORTS_PER_SOL);
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
  await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight });
}

beforeAll(async () => {
  sandbox = await startSandbox({
    env: {},
    seed: "sdk-solana",
    blockTimeSeconds: 0.5,
    walletCreationDelayMs: 50,
    solanaSlotMs: 40,
    requiredApprovals: 1,
    webhookRetry: { initialDelayMs: 50, maxDelayMs: 200 },
  });
  receiver = await startReceiver(200);
  await sdk("POST", `/workspaces/${sandbox.workspace_id}/webhooks`, {
    url: receiver.url,
    event_types: ["deposit.pending", "deposit.confirmed", "withdrawal.confirmed"],
  });
  connection = new Connection(`${sandbox.solana_rpc_url}/?api_key=${sandbox.rpc_api_key}`, "confirmed");
  walletId = (await sdk("POST", "/wallets", { name: "Solana wallet", wallet_type: "mpc" })).wallet_id;
  await sdkPoll(
    () => sdk("GET", `/wallets/creation-status/${walletId}`),
    (r) => r.status === "success",
  );
  solAssetId = (await sdk("GET", "/assets")).find((a: { symbol: string }) => a.symbol === "SOL").id;
});

afterAll(async () => {
  await sandbox?.close();
  await receiver?.close();
});

describe("SolanaSigner and the public examples against the sandbox", () => {
  it("getAddress: the wallet detail with address_type=sol, with and without an id, is the wallet's Ed25519 public key", async () => {
    const detail = await sdk("GET", `/web3/wallet-detail/${walletId}?address_type=sol`);
    expect(Object.keys(detail).sort()).toEqual(["address", "address_type", "ap_key", "name", "wallet_id"]);
    expect(detail).toMatchObject({ wallet_id: walletId, address_type: "sol", name: "Solana wallet" });
    solAddress = detail.address;
    expect(PublicKey.isOnCurve(new PublicKey(solAddress).toBytes())).toBe(true);
    // SolanaSigner without setWallet: the wallet bound to the key (the workspace's oldest ready one here).
    expect((await sdk("GET", "/web3/wallet-detail?address_type=sol")).address_type).toBe("sol");
  });

  it("get-deposit-address: the evm and the sol address of one wallet, each with a QR text", async () => {
    const evm = await sdk("GET", `/wallets/${walletId}/deposit-address?address_type=evm`);
    const sol = await sdk("GET", `/wallets/${walletId}/deposit-address?address_type=sol`);
    expect(evm.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(sol).toMatchObject({ address: solAddress, qr_code: `solana:${solAddress}` });
    const tron = await sdk("GET", `/wallets/${walletId}/deposit-address?address_type=tron`);
    expect(tron.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
  });

  it("signMessage: the base58 signature, polled as a transaction status, verifies against the wallet's public key", async () => {
    const message = "Sign in to custody — nonce 42";
    const accepted = await sdk(
      "POST",
      `/web3/${walletId}/sign`,
      { method: "solana_signMessage", message, chain_id: 0 },
      { idempotencyKey: "sol-msg-1" },
    );
    const status = await transactionStatus(accepted.transaction_id);
    expect(status.method).toBe("solana_signMessage");
    const signature = bs58.decode(status.hash);
    expect(ed25519.verify(signature, new TextEncoder().encode(message), new PublicKey(solAddress).toBytes())).toBe(
      true,
    );
    expect(
      ed25519.verify(signature, new TextEncoder().encode("another message"), new PublicKey(solAddress).toBytes()),
    ).toBe(false);
    // The same idempotencyKey and body answers the same request; getSignStatus shows the same signature.
    expect(
      (
        await sdk(
          "POST",
          `/web3/${walletId}/sign`,
          { method: "solana_signMessage", message, chain_id: 0 },
          { idempotencyKey: "sol-msg-1" },
        )
      ).transaction_id,
    ).toBe(accepted.transaction_id);
    expect((await sdk("GET", `/web3/${walletId}/sign/${accepted.transaction_id}`)).signature).toBe(status.hash);
  });

  it("a SOL deposit from outside: deposit.pending then deposit.confirmed, and the balance equals the chain's", async () => {
    const payer = Keypair.generate();
    await fund(payer.publicKey, 5);
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
    const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: new PublicKey(solAddress),
        lamports: 3 * LAMPORTS_PER_SOL,
      }),
    );
    tx.sign(payer);
    const signature = await connection.sendRawTransaction(tx.serialize());
    await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight });
    const events = (type: string) =>
      receiver.received.filter((r) => r.event.event === type && r.event.payload.tx_hash === signature);
    await waitFor("deposit.confirmed", () => events("deposit.confirmed").length > 0);
    expect(events("deposit.pending")).toHaveLength(1);
    expect(events("deposit.confirmed")[0]!.event.payload).toMatchObject({
      amount: "3",
      to_address: solAddress,
      from_address: payer.publicKey.toBase58(),
      status: "confirmed",
    });
    const balance = await sdk("GET", `/wallets/${walletId}/balance/${solAssetId}`);
    expect(balance.balance).toBe("3");
    expect(await connection.getBalance(new PublicKey(solAddress), "finalized")).toBe(3 * LAMPORTS_PER_SOL);
  });

  it("solana-transfer: a web3.js transfer signed and sent through signAndSendTransaction, confirmed over the WebSocket; both balances move once", async () => {
    const recipient = Keypair.generate().publicKey;
    const from = new PublicKey(solAddress);
    const before = await connection.getBalance(from);
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash("finalized");
    const tx = new Transaction().add(
      SystemProgram.transfer({ fromPubkey: from, toPubkey: recipient, lamports: LAMPORTS_PER_SOL / 100 }),
    );
    tx.recentBlockhash = blockhash;
    tx.feePayer = from;
    tx.lastValidBlockHeight = lastValidBlockHeight;
    const serialized = tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString("base64");
    const accepted = await sdk("POST", `/web3/transaction/${walletId}/signRaw`, {
      transaction: serialized,
      from: solAddress,
      method: "solana_signAndSendTransaction",
    });
    const signature = (await transactionStatus(accepted.transaction_id)).hash;
    const confirmation = await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight });
    expect(confirmation.value.err).toBeNull();
    expect(await connection.getBalance(recipient)).toBe(LAMPORTS_PER_SOL / 100);
    expect(await connection.getBalance(from)).toBe(before - LAMPORTS_PER_SOL / 100 - 5000);
    const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(landed!.transaction.message.staticAccountKeys[0]!.toBase58()).toBe(solAddress);
  });

  it("signTransaction: the signature it answers, added with web3.js, makes a transaction that verifies, lands and pays", async () => {
    const recipient = Keypair.generate().publicKey;
    const from = new PublicKey(solAddress);
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
    const tx = new Transaction({ feePayer: from, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({ fromPubkey: from, toPubkey: recipient, lamports: LAMPORTS_PER_SOL / 50 }),
    );
    const data = tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString("base64");
    const accepted = await sdk("POST", `/web3/transaction/${walletId}/signRaw`, {
      data,
      from: solAddress,
      meta: { tx_method: "solana_signTransaction" },
      chainId: "1399811149",
    });
    const status = await transactionStatus(accepted.transaction_id);
    expect(status).toMatchObject({ status: "completed", method: "solana_signTransaction" });
    // signAllTransactions' incorporateSignatureIntoTransaction: Transaction.from, addSignature(bs58.decode(hash)).
    const signed = Transaction.from(Buffer.from(data, "base64"));
    signed.addSignature(from, Buffer.from(bs58.decode(status.hash)));
    expect(signed.verifySignatures()).toBe(true);
    // Not sent by the service: only the caller's send makes it land.
    expect((await connection.getSignatureStatuses([status.hash])).value[0]).toBeNull();
    const signature = await connection.sendRawTransaction(signed.serialize());
    expect(signature).toBe(status.hash);
    await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight });
    expect(await connection.getBalance(recipient)).toBe(LAMPORTS_PER_SOL / 50);
  });

  it("requestWithdrawal of SOL: approved, sent once, completed with the chain's slot and fee; the recipient holds exactly the amount", async () => {
    const recipient = Keypair.generate().publicKey.toBase58();
    const result = await sdk("POST", `/wallets/${walletId}/request-withdrawal`, {
      asset_id: solAssetId,
      amount: "0.5",
      recipient_address: recipient,
      notes: "SOL out",
    });
    expect(result.withdrawal.status).toBe("pending_approval");
    // Approving is not an SDK call (the real service approves in its console).
    await sdk("POST", `/withdrawals/${result.withdrawal.id}/approve`, { comment: "ok" });
    const done = await waitFor(
      "completed",
      async () => {
        const w = await sdk("GET", `/withdrawals/${result.withdrawal.id}`);
        return w.status === "completed" && w;
      },
      OUTER_BOUND_MS,
      100,
    );
    const landed = await connection.getTransaction(done.tx_hash, { maxSupportedTransactionVersion: 0 });
    expect(landed!.slot).toBe(done.block_number);
    expect(done.gas_used).toBe(String(landed!.meta!.computeUnitsConsumed));
    expect(await connection.getBalance(new PublicKey(recipient))).toBe(LAMPORTS_PER_SOL / 2);
    await waitFor("withdrawal.confirmed", () =>
      receiver.received.some((r) => r.event.event === "withdrawal.confirmed" && r.event.payload.id === done.id),
    );
  });

  it("refuses in one line what cannot be signed: another from, a transaction without this wallet as signer, bytes that are not one", async () => {
    const other = Keypair.generate();
    const { blockhash } = await connection.getLatestBlockhash();
    const notOurs = new Transaction({ feePayer: other.publicKey, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({ fromPubkey: other.publicKey, toPubkey: other.publicKey, lamports: 1 }),
    );
    const base64 = notOurs.serialize({ requireAllSignatures: false, verifySignatures: false }).toString("base64");
    await expect(
      sdk("POST", `/web3/transaction/${walletId}/signRaw`, {
        transaction: base64,
        from: other.publicKey.toBase58(),
        method: "solana_signAndSendTransaction",
      }),
    ).rejects.toThrow(/400 from: .* is not this wallet's Solana address/);
    await expect(
      sdk("POST", `/web3/transaction/${walletId}/signRaw`, {
        transaction: base64,
        from: solAddress,
        method: "solana_signAndSendTransaction",
      }),
    ).rejects.toThrow(/400 transaction: the transaction does not need this wallet's signature/);
    await expect(
      sdk("POST", `/web3/transaction/${walletId}/signRaw`, {
        data: "AAAA",
        from: solAddress,
        meta: { tx_method: "solana_signTransaction" },
        chainId: "1399811149",
      }),
    ).rejects.toThrow(/400 data: not a serialized Solana transaction \(truncated/);
  });
});
