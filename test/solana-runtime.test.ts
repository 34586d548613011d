// The embedded Solana runtime (reference/chain/solana/runtime.ts) as a cluster behaves, checked with
// transactions built by @solana/web3.js: commitments, the 150-slot blockhash window, preflight, fees,
// rent, duplicates, and the ledger replayed after a restart.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Keypair, LAMPORTS_PER_SOL, SystemProgram, Transaction } from "@solana/web3.js";
import { afterEach, describe, expect, it } from "vitest";
import {
  BLOCKHASH_VALID_SLOTS,
  FINALIZED_DEPTH,
  SolanaRuntime,
  SolanaTransactionRejected,
} from "../reference/chain/solana/runtime.ts";

const FAUCET_SEED = new Uint8Array(32).fill(42);
const runtimes: SolanaRuntime[] = [];
const dirs: string[] = [];

function start(dataDir?: string): SolanaRuntime {
  const r = SolanaRuntime.start({ faucetSeed: FAUCET_SEED, slotMs: 0, ...(dataDir ? { dataDir } : {}) });
  runtimes.push(r);
  return r;
}

function transfer(
  r: SolanaRuntime,
  from: Keypair,
  to: Keypair,
  lamports: number,
  blockhash = r.latestBlockhash("processed").blockhash,
): Uint8Array {
  const tx = new Transaction({ feePayer: from.publicKey, recentBlockhash: blockhash }).add(
    SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to.publicKey, lamports }),
  );
  tx.sign(from);
  return tx.serialize();
}

function rejected(fn: () => unknown): SolanaTransactionRejected {
  try {
    fn();
  } catch (error) {
    if (error instanceof SolanaTransactionRejected) return error;
    throw error;
  }
  throw new Error("expected a rejection");
}

afterEach(() => {
  for (const r of runtimes.splice(0)) r.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("Solana runtime", () => {
  it("lands a web3.js transfer in the head slot and moves it through the commitments", () => {
    const r = start();
    const alice = Keypair.generate();
    const bob = Keypair.generate();
    r.airdrop(alice.publicKey.toBytes(), 2n * BigInt(LAMPORTS_PER_SOL));
    r.produceSlots(1);
    const signature = r.sendTransaction(transfer(r, alice, bob, LAMPORTS_PER_SOL));
    const slot = r.head;
    expect(r.signatureStatus(signature)).toEqual({
      slot,
      confirmations: 0,
      err: null,
      confirmationStatus: "processed",
    });
    expect(r.balance(bob.publicKey.toBase58())).toBe(BigInt(LAMPORTS_PER_SOL));
    expect(r.balance(alice.publicKey.toBase58())).toBe(BigInt(LAMPORTS_PER_SOL) - 5000n);
    // At the confirmed slot (one deeper) the transfer is not there yet.
    expect(r.balance(bob.publicKey.toBase58(), r.slotAt("confirmed"))).toBe(0n);
    r.produceSlots(1);
    expect(r.signatureStatus(signature)!.confirmationStatus).toBe("confirmed");
    expect(r.balance(bob.publicKey.toBase58(), r.slotAt("confirmed"))).toBe(BigInt(LAMPORTS_PER_SOL));
    r.produceSlots(FINALIZED_DEPTH - 1);
    expect(r.signatureStatus(signature)).toEqual({
      slot,
      confirmations: null,
      err: null,
      confirmationStatus: "finalized",
    });
    expect(r.balance(bob.publicKey.toBase58(), r.slotAt("finalized"))).toBe(BigInt(LAMPORTS_PER_SOL));
    expect(r.transaction(signature)!.fee).toBe(5000n);
    expect(r.block(slot)!.signatures).toContain(signature);
  });

  it("keeps a blockhash usable for 150 slots, then refuses it; skipping preflight, it is dropped", () => {
    const r = start();
    const alice = Keypair.generate();
    r.airdrop(alice.publicKey.toBytes(), BigInt(LAMPORTS_PER_SOL));
    const { blockhash, lastValidBlockHeight } = r.latestBlockhash("processed");
    expect(lastValidBlockHeight).toBe(r.head + BLOCKHASH_VALID_SLOTS);
    r.produceSlots(BLOCKHASH_VALID_SLOTS);
    expect(r.isBlockhashValid(blockhash)).toBe(true);
    r.produceSlots(1);
    expect(r.isBlockhashValid(blockhash)).toBe(false);
    const wire = transfer(r, alice, Keypair.generate(), LAMPORTS_PER_SOL / 2, blockhash);
    const e = rejected(() => r.sendTransaction(wire));
    expect({ code: e.code, err: e.err, message: e.message }).toEqual({
      code: -32002,
      err: "BlockhashNotFound",
      message: "Transaction simulation failed: Blockhash not found",
    });
    const dropped = r.sendTransaction(wire, { skipPreflight: true });
    expect(r.signatureStatus(dropped)).toBeUndefined();
  });

  it("refuses with preflight, or lands with its error and the fee, a transfer that leaves an account below rent", () => {
    const r = start();
    const alice = Keypair.generate();
    r.airdrop(alice.publicKey.toBytes(), BigInt(LAMPORTS_PER_SOL));
    const wire = transfer(r, alice, Keypair.generate(), 1000);
    const e = rejected(() => r.sendTransaction(wire));
    expect(e.err).toEqual({ InsufficientFundsForRent: { account_index: 1 } });
    expect(r.balance(alice.publicKey.toBase58())).toBe(BigInt(LAMPORTS_PER_SOL));
    const signature = r.sendTransaction(wire, { skipPreflight: true });
    expect(r.signatureStatus(signature)!.err).toEqual({ InsufficientFundsForRent: { account_index: 1 } });
    expect(r.balance(alice.publicKey.toBase58())).toBe(BigInt(LAMPORTS_PER_SOL) - 5000n);
  });

  it("refuses a duplicate, a forged signature and bytes that are not a transaction", () => {
    const r = start();
    const alice = Keypair.generate();
    r.airdrop(alice.publicKey.toBytes(), BigInt(LAMPORTS_PER_SOL));
    const wire = transfer(r, alice, Keypair.generate(), LAMPORTS_PER_SOL / 4);
    r.sendTransaction(wire);
    expect(rejected(() => r.sendTransaction(wire)).err).toBe("AlreadyProcessed");
    const forged = Uint8Array.from(transfer(r, alice, Keypair.generate(), LAMPORTS_PER_SOL / 4));
    forged[10] ^= 1;
    expect(rejected(() => r.sendTransaction(forged))).toMatchObject({ code: -32003, err: "SignatureFailure" });
    expect(rejected(() => r.sendTransaction(new Uint8Array([1, 2, 3]))).message).toMatch(
      /^invalid transaction: failed to deserialize: truncated/,
    );
  });

  it("after a crash that lost slots without transactions, gives every slot its old blockhash again: a transaction signed before lands once the head is back", () => {
    const dir = mkdtempSync(join(tmpdir(), "custody-solana-"));
    dirs.push(dir);
    const before = start(dir);
    const alice = Keypair.generate();
    before.airdrop(alice.publicKey.toBytes(), BigInt(LAMPORTS_PER_SOL));
    before.produceSlots(20); // fewer than a head line's period: the ledger's last word is the airdrop's slot
    const { blockhash } = before.latestBlockhash("confirmed");
    const wire = transfer(before, alice, Keypair.generate(), LAMPORTS_PER_SOL / 2, blockhash);
    // A crash: `before` is never closed; a new runtime replays the same ledger.
    const after = start(dir);
    expect(after.head).toBeLessThan(before.head);
    expect(rejected(() => after.sendTransaction(wire)).err).toBe("BlockhashNotFound");
    after.produceSlots(before.head - after.head);
    expect(after.latestBlockhash("confirmed").blockhash).toBe(blockhash);
    after.sendTransaction(wire);
    expect(after.balance(alice.publicKey.toBase58())).toBe(BigInt(LAMPORTS_PER_SOL) / 2n - 5000n);
  });

  it("replays its ledger after a restart: balances, statuses and the genesis hash survive; a torn line is dropped", () => {
    const dir = mkdtempSync(join(tmpdir(), "custody-solana-"));
    dirs.push(dir);
    const first = start(dir);
    const alice = Keypair.generate();
    const bob = Keypair.generate();
    first.airdrop(alice.publicKey.toBytes(), 3n * BigInt(LAMPORTS_PER_SOL));
    first.produceSlots(3);
    const signature = first.sendTransaction(transfer(first, alice, bob, LAMPORTS_PER_SOL));
    const head = first.produceSlots(30);
    const genesis = first.genesisHash;
    const landedIn = first.signatureStatus(signature)!.slot;
    first.close();
    writeFileSync(join(dir, "ledger.ndjson"), `${readFileSync(join(dir, "ledger.ndjson"), "utf8")}{"slot":99,"ti`);
    const second = start(dir);
    expect(second.genesisHash).toBe(genesis);
    expect(second.head).toBe(head);
    expect(second.balance(bob.publicKey.toBase58())).toBe(BigInt(LAMPORTS_PER_SOL));
    expect(second.balance(alice.publicKey.toBase58())).toBe(2n * BigInt(LAMPORTS_PER_SOL) - 5000n);
    expect(second.signatureStatus(signature)!.slot).toBe(landedIn);
    // A new ledger is a new chain: another genesis hash.
    const fresh = start();
    expect(fresh.genesisHash).not.toBe(genesis);
  });
});
