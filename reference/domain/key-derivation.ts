// Every wallet has one EVM key, derived deterministically from the sandbox master seed and the
// wallet id: HMAC-SHA256(key = master seed, message = "custody-sandbox/evm/v1/<wallet id>[/<n>]").
// The same seed and wallet id always give the same address, so a restart with --data (which keeps the
// seed) keeps every address, and nothing but the seed needs to be stored. The same address serves all
// EVM assets of the wallet. A real custodian would keep keys in MPC/HSM; this is a sandbox.
import { createHmac } from "node:crypto";
import { privateKeyToAddress } from "viem/accounts";

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
