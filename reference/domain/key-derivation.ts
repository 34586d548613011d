// Every wallet has two keys, derived deterministically from the sandbox master seed and the wallet id:
//   secp256k1: HMAC-SHA256(master seed, "custody-sandbox/evm/v1/<wallet id>[/<n>]") — its address is the
//              deposit address of the wallet's EVM assets, and in Tron's encoding its Tron address;
//   Ed25519:   HMAC-SHA256(master seed, "custody-sandbox/sol/v1/<wallet id>") as the RFC 8032 seed — its
//              public key is the wallet's Solana address (any 32 bytes are a valid Ed25519 seed).
// The same seed and wallet id always give the same addresses, so a restart with --data (which keeps the
// seed) keeps every address, and nothing but the seed needs to be stored. A real custodian would keep
// keys in MPC/HSM; this is a sandbox.
import { createHmac } from "node:crypto";
import { privateKeyToAddress } from "viem/accounts";
import { keypairFromSeed, type SolanaKeypair } from "../../lib/solana/keys.ts";
import { tronAddressOfEvm } from "../../lib/tron/address.ts";
import type { AddressFamily } from "./catalog.ts";

// secp256k1 group order: a private key must lie in [1, n-1].
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

export type Hex = `0x${string}`;

export function deriveWalletPrivateKey(masterSeed: Uint8Array, walletId: string): Hex {
  for (let n = 0; ; n++) {
    const label = `custody-sandbox/evm/v1/${walletId}${n === 0 ? "" : `/${n}`}`;
    const digest = createHmac("sha256", masterSeed).update(label, "utf8").digest();
    const k = BigInt(`0x${digest.toString("hex")}`);
    // Out of range with probability ~2^-128; the counter makes the derivation total anyway.
    if (k > 0n && k < SECP256K1_N) return `0x${digest.toString("hex")}`;
  }
}

export function deriveWalletAddress(masterSeed: Uint8Array, walletId: string): Hex {
  return privateKeyToAddress(deriveWalletPrivateKey(masterSeed, walletId));
}

export function deriveSolanaKeypair(masterSeed: Uint8Array, walletId: string): SolanaKeypair {
  return keypairFromSeed(
    new Uint8Array(createHmac("sha256", masterSeed).update(`custody-sandbox/sol/v1/${walletId}`, "utf8").digest()),
  );
}

/** The wallet's address of a family. */
export function deriveAddressOf(masterSeed: Uint8Array, walletId: string, family: AddressFamily): string {
  if (family === "sol") return deriveSolanaKeypair(masterSeed, walletId).address;
  const evm = deriveWalletAddress(masterSeed, walletId);
  return family === "tron" ? tronAddressOfEvm(evm) : evm;
}
