// The sandbox's Solana JSON-RPC driven by @solana/web3.js 1.x, the client of the real service's
// public examples: the calls of the solana-transfer example (balance, latest blockhash, send, confirm
// over the WebSocket at port + 1), a wallet page's reads, and the node-access API-key rules.
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SendTransactionError,
  SystemProgram,
  Transaction,
} from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { SolanaRuntime } from "../reference/chain/solana/runtime.ts";
import { type SolanaRpc, startSolanaRpc } from "../reference/node/solana/server.ts";

const KEY = "rpc_solana_test_key";
let runtime: SolanaRuntime;
let rpc: SolanaRpc;
let connection: Connection;

beforeAll(async () => {
  runtime = SolanaRuntime.start({ faucetSeed: new Uint8Array(32).fill(9), slotMs: 40 });
  rpc = await startSolanaRpc({ runtime, apiKeys: new Set([KEY]) });
  connection = new Connection(`${rpc.url}/?api_key=${KEY}`, "confirmed");
});

afterAll(async () => {
  await rpc?.close();
  runtime?.close();
});

async function funded(sol: number): Promise<Keypair> {
  const k = Keypair.generate();
  const signature = await connection.requestAirdrop(k.publicKey, sol * LAMPORTS_PER_SOL);
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
  await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight });
  return k;
}

describe("Solana RPC with @solana/web3.js", () => {
  it("runs the solana-transfer example's calls: balance, latest blockhash, send, confirm over the WebSocket at port + 1", async () => {
    expect(new URL(rpc.wsUrl).port).toBe(String(Number(new URL(rpc.url).port) + 1));
    const from = await funded(2);
    const to = Keypair.generate().publicKey;
    expect(await connection.getBalance(from.publicKey)).toBe(2 * LAMPORTS_PER_SOL);
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash("finalized");
    const tx = new Transaction({ feePayer: from.publicKey, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports: LAMPORTS_PER_SOL / 2 }),
    );
    tx.sign(from);
    const signature = await connection.sendRawTransaction(tx.serialize());
    const confirmation = await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight });
    expect(confirmation.value.err).toBeNull();
    expect(await connection.getBalance(to)).toBe(LAMPORTS_PER_SOL / 2);
    expect(await connection.getBalance(from.publicKey)).toBe(1.5 * LAMPORTS_PER_SOL - 5000);
    const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(landed!.meta!.fee).toBe(5000);
    expect(landed!.meta!.postBalances[1]).toBe(LAMPORTS_PER_SOL / 2);
    expect(landed!.transaction.signatures[0]).toBe(signature);
    const [status] = (await connection.getSignatureStatuses([signature])).value;
    expect(status!.err).toBeNull();
    const history = await connection.getSignaturesForAddress(to);
    expect(history.map((h) => h.signature)).toEqual([signature]);
    const block = await connection.getBlock(landed!.slot, { maxSupportedTransactionVersion: 0 });
    expect(block!.transactions.map((t) => t.transaction.signatures[0])).toContain(signature);
  });

  it("answers a wallet page's reads: account info, rent minimum, fee for a message, version", async () => {
    const k = await funded(1);
    const info = await connection.getAccountInfo(k.publicKey);
    expect(info!.lamports).toBe(LAMPORTS_PER_SOL);
    expect(info!.owner.toBase58()).toBe("11111111111111111111111111111111");
    expect(await connection.getAccountInfo(Keypair.generate().publicKey)).toBeNull();
    expect(await connection.getMinimumBalanceForRentExemption(0)).toBe(890_880);
    const { blockhash } = await connection.getLatestBlockhash();
    const message = new Transaction({ feePayer: k.publicKey, recentBlockhash: blockhash })
      .add(SystemProgram.transfer({ fromPubkey: k.publicKey, toPubkey: PublicKey.default, lamports: 1 }))
      .compileMessage();
    expect((await connection.getFeeForMessage(message)).value).toBe(5000);
    expect((await connection.getVersion())["solana-core"]).toMatch(/^\d+\.\d+\.\d+$/);
    expect(await connection.getSlot("processed")).toBeGreaterThanOrEqual(await connection.getSlot("finalized"));
  });

  it("notifies an account subscription when the lamports change", async () => {
    const k = Keypair.generate();
    const seen = new Promise<number>((resolve) =>
      connection.onAccountChange(k.publicKey, (a) => resolve(a.lamports), { commitment: "confirmed" }),
    );
    await subscribed(connection);
    await connection.requestAirdrop(k.publicKey, LAMPORTS_PER_SOL);
    expect(await seen).toBe(LAMPORTS_PER_SOL);
  });

  it("refuses a failing transaction with the logs web3.js shows, and lands nothing", async () => {
    const from = await funded(1);
    const { blockhash } = await connection.getLatestBlockhash();
    const tx = new Transaction({ feePayer: from.publicKey, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({
        fromPubkey: from.publicKey,
        toPubkey: Keypair.generate().publicKey,
        lamports: 2 * LAMPORTS_PER_SOL,
      }),
    );
    tx.sign(from);
    const error = await connection.sendRawTransaction(tx.serialize()).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SendTransactionError);
    expect((error as SendTransactionError).message).toMatch(
      /Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1/,
    );
    expect(await connection.getBalance(from.publicKey)).toBe(LAMPORTS_PER_SOL);
  });

  it("applies the node-access key rules: no key or a wrong key gets 401 on HTTP and on the WebSocket", async () => {
    const call = (url: string, headers: Record<string, string> = {}) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: '{"jsonrpc":"2.0","id":1,"method":"getSlot"}',
      });
    expect((await call(`${rpc.url}/`)).status).toBe(401);
    expect((await call(`${rpc.url}/?api_key=wrong`)).status).toBe(401);
    const viaHeader = await call(`${rpc.url}/`, { authorization: `APIKEY ${KEY}` });
    expect(viaHeader.status).toBe(200);
    expect(typeof ((await viaHeader.json()) as { result: unknown }).result).toBe("number");
    const status = await new Promise<number>((resolve) => {
      const socket = new WebSocket(`${rpc.wsUrl}/`);
      socket.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      socket.on("open", () => resolve(101));
    });
    expect(status).toBe(401);
  });
});

/**
 * Waits until the server has acknowledged every subscription of `connection`: web3.js 1.x tells no caller
 * when, so this reads its subscription table (an airdrop sent earlier would change nothing the server watches).
 */
async function subscribed(connection: Connection): Promise<void> {
  const table = (connection as unknown as { _subscriptionsByHash: Record<string, { state: string }> })
    ._subscriptionsByHash;
  const deadline = Date.now() + 60_000;
  const pending = () => Object.keys(table).length === 0 || Object.values(table).some((s) => s.state !== "subscribed");
  while (pending()) {
    if (Date.now() > deadline) throw new Error("the account subscription was never acknowledged");
    await new Promise((r) => setTimeout(r, 10));
  }
}
