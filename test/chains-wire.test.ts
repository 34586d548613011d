// lib/solana and lib/tron against independent implementations: @solana/web3.js builds, signs and
// verifies the same transactions our decoder reads and our encoder writes; Tron addresses against the
// vectors in TRON's and Dune's documentation.
import {
  Keypair,
  PublicKey,
  SystemInstruction,
  SystemProgram,
  Transaction,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
  Message as Web3Message,
} from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { addressBytes, keypairFromSeed, signatureBytes, signBytes, toBase58, verifyBytes } from "../lib/solana/keys.ts";
import { systemTransfers, transferMessage } from "../lib/solana/system-program.ts";
import {
  decodeMessage,
  decodeTransaction,
  encodeMessage,
  encodeTransaction,
  isWritable,
  transactionId,
  WireFormatError,
} from "../lib/solana/transaction.ts";
import { isTronAddress, tronAddressBytes, tronAddressOfEvm } from "../lib/tron/address.ts";

const seed = (n: number) => new Uint8Array(32).fill(n);
const BLOCKHASH = "EETubP5AKHgjPAhzPAFcb8BAY1hMH639CWCFTqi3hq1k";

describe("Solana keys", () => {
  it("derive the public key web3.js derives from the same seed, and sign what it verifies", () => {
    const ours = keypairFromSeed(seed(7));
    const theirs = Keypair.fromSeed(seed(7));
    expect(ours.address).toBe(theirs.publicKey.toBase58());
    const message = new TextEncoder().encode("custody");
    const signature = signBytes(message, ours.seed);
    expect(verifyBytes(signature, message, theirs.publicKey.toBytes())).toBe(true);
    expect(verifyBytes(signature, new TextEncoder().encode("custodY"), theirs.publicKey.toBytes())).toBe(false);
  });

  it("read addresses and signatures strictly", () => {
    expect(addressBytes("11111111111111111111111111111111")).toEqual(new Uint8Array(32));
    expect(addressBytes("0x0000000000000000000000000000000000000000")).toBeUndefined();
    expect(addressBytes("1111111111111111111111111111111O")).toBeUndefined(); // O is not base58
    expect(signatureBytes(toBase58(new Uint8Array(64).fill(1)))).toHaveLength(64);
    expect(signatureBytes(toBase58(new Uint8Array(32).fill(1)))).toBeUndefined();
  });
});

describe("Solana transactions", () => {
  it("decode a transfer web3.js built: signer, blockhash, the transfer", () => {
    const from = Keypair.fromSeed(seed(1));
    const to = Keypair.fromSeed(seed(2)).publicKey;
    const tx = new Transaction({ feePayer: from.publicKey, recentBlockhash: BLOCKHASH }).add(
      SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports: 123_456 }),
    );
    const unsigned = tx.serialize({ requireAllSignatures: false, verifySignatures: false });
    const decoded = decodeTransaction(unsigned);
    expect(decoded.message.version).toBe("legacy");
    expect(toBase58(decoded.message.accountKeys[0]!)).toBe(from.publicKey.toBase58());
    expect(toBase58(decoded.message.recentBlockhash)).toBe(BLOCKHASH);
    const [t] = systemTransfers(decoded.message);
    expect({ from: toBase58(t!.from), to: toBase58(t!.to), lamports: t!.lamports }).toEqual({
      from: from.publicKey.toBase58(),
      to: to.toBase58(),
      lamports: 123_456n,
    });
    // Signed by us over the decoded message bytes: web3.js accepts the signature.
    tx.addSignature(from.publicKey, Buffer.from(signBytes(decoded.messageBytes, seed(1))));
    expect(tx.verifySignatures()).toBe(true);
    expect(transactionId(decodeTransaction(tx.serialize()))).toBe(toBase58(tx.signature!));
  });

  it("encode a transfer that web3.js reads back as the same System Program transfer", () => {
    const from = keypairFromSeed(seed(3));
    const to = keypairFromSeed(seed(4));
    const message = transferMessage(
      { from: from.publicKey, to: to.publicKey, lamports: 5_000_000_000n },
      addressBytes(BLOCKHASH)!,
    );
    const wire = encodeTransaction([signBytes(message, from.seed)], message);
    const tx = Transaction.from(wire);
    expect(tx.verifySignatures()).toBe(true);
    expect(tx.recentBlockhash).toBe(BLOCKHASH);
    const params = SystemInstruction.decodeTransfer(tx.instructions[0]!);
    expect({ from: params.fromPubkey.toBase58(), to: params.toPubkey.toBase58(), lamports: params.lamports }).toEqual({
      from: from.address,
      to: to.address,
      lamports: 5_000_000_000n,
    });
  });

  it("round-trip a v0 message with long instruction data byte for byte", () => {
    const payer = Keypair.fromSeed(seed(5));
    const program = new PublicKey(Keypair.fromSeed(seed(6)).publicKey);
    const instructions = [
      new TransactionInstruction({
        programId: program,
        keys: [{ pubkey: payer.publicKey, isSigner: true, isWritable: true }],
        data: Buffer.alloc(300, 7),
      }),
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: program, lamports: 1 }),
    ];
    const v0 = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: BLOCKHASH,
      instructions,
    }).compileToV0Message();
    const versioned = new VersionedTransaction(v0);
    versioned.sign([payer]);
    const wire = versioned.serialize();
    const decoded = decodeTransaction(wire);
    expect(decoded.message.version).toBe(0);
    expect(decoded.message.instructions[0]!.data).toHaveLength(300);
    expect(Buffer.from(encodeMessage(decoded.message))).toEqual(Buffer.from(v0.serialize()));
    expect(verifyBytes(decoded.signatures[0]!, decoded.messageBytes, payer.publicKey.toBytes())).toBe(true);
    expect(systemTransfers(decoded.message)).toHaveLength(1);
  });

  it("knows which accounts are writable (signers, then unsigned, read-only last)", () => {
    const from = keypairFromSeed(seed(8));
    const m = decodeMessage(
      transferMessage(
        { from: from.publicKey, to: keypairFromSeed(seed(9)).publicKey, lamports: 1n },
        new Uint8Array(32),
      ),
    );
    expect([0, 1, 2].map((i) => isWritable(m, i))).toEqual([true, true, false]);
    const web3 = Web3Message.from(Buffer.from(encodeMessage(m)));
    expect([0, 1, 2].map((i) => web3.isAccountWritable(i))).toEqual([true, true, false]);
  });

  it("refuse malformed bytes with the place that is wrong", () => {
    const message = transferMessage(
      { from: keypairFromSeed(seed(1)).publicKey, to: keypairFromSeed(seed(2)).publicKey, lamports: 1n },
      new Uint8Array(32),
    );
    const wire = encodeTransaction([new Uint8Array(64)], message);
    expect(() => decodeTransaction(wire.subarray(0, wire.length - 3))).toThrow(WireFormatError);
    expect(() => decodeTransaction(wire.subarray(0, wire.length - 3))).toThrow(/truncated at instruction data/);
    expect(() => decodeTransaction(Uint8Array.from([...wire, 0]))).toThrow(/trailing bytes/);
    expect(() => decodeTransaction(encodeTransaction([], message))).toThrow(
      /0 signatures for a message that requires 1/,
    );
    expect(() => decodeMessage(Uint8Array.from([0x81, 1, 0, 0]))).toThrow(/unsupported message version 1/);
  });
});

describe("Tron addresses", () => {
  it("encode the vectors of TRON's and Dune's documentation", () => {
    // tronprotocol.github.io wallet-cli "encoding convert"; docs.dune.com to_tron_address.
    expect(tronAddressOfEvm("0x12E94f5a3c88b17d2F6E0b9a45Cd310f8E7a6D29")).toBe("TBhCfAytTEh52WFL6HYr64i2nmc3u3TCUp");
    expect(tronAddressOfEvm("0x503aa4ad108bd3a89ba0310e23b49fb654cd6986")).toBe("THHRK1bA7YRPZBcLnTP1SZy9ipUpsRwpo6");
    expect(Buffer.from(tronAddressBytes("THHRK1bA7YRPZBcLnTP1SZy9ipUpsRwpo6")!).toString("hex")).toBe(
      "503aa4ad108bd3a89ba0310e23b49fb654cd6986",
    );
  });

  it("refuse a wrong checksum, a wrong prefix and EVM text", () => {
    expect(isTronAddress("THHRK1bA7YRPZBcLnTP1SZy9ipUpsRwpo7")).toBe(false);
    expect(isTronAddress("0x503aa4ad108bd3a89ba0310e23b49fb654cd6986")).toBe(false);
    expect(isTronAddress("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2")).toBe(false); // a Bitcoin address: version byte 0x00
  });
});
