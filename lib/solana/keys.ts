// Solana keys and addresses: an address is the base58 text of a 32-byte Ed25519 public key; signatures
// are 64-byte Ed25519 signatures, shown in base58 (the form Solana's RPC and SDKs print).
// Ed25519 comes from runtime/webhooks/ed25519.ts (node:crypto, else the audited @noble/ed25519).
import { Point } from "@noble/ed25519";
import { base58 } from "@scure/base";
import { nobleBackend, nodeBackend } from "../../runtime/webhooks/ed25519.ts";

const ed25519 = nodeBackend ?? nobleBackend;

export interface SolanaKeypair {
  /** The 32-byte RFC 8032 secret seed. */
  seed: Uint8Array;
  publicKey: Uint8Array;
  /** base58 of publicKey. */
  address: string;
}

export function keypairFromSeed(seed: Uint8Array): SolanaKeypair {
  const publicKey = ed25519.publicKey(seed);
  return { seed, publicKey, address: base58.encode(publicKey) };
}

export function signBytes(message: Uint8Array, seed: Uint8Array): Uint8Array {
  return ed25519.sign(message, seed);
}

/** False (never a throw) for a wrong or malformed signature or key. */
export function verifyBytes(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  return ed25519.verify(signature, message, publicKey);
}

/** The 32 bytes of a base58 address, or undefined when it is not one. */
export function addressBytes(address: string): Uint8Array | undefined {
  if (typeof address !== "string" || address.length < 32 || address.length > 44) return undefined;
  try {
    const bytes = base58.decode(address);
    return bytes.length === 32 ? bytes : undefined;
  } catch {
    return undefined;
  }
}

/** True when the 32 bytes are a point of the Ed25519 curve: an address a key can sign for (program addresses are not). */
export function isOnCurve(bytes: Uint8Array): boolean {
  try {
    Point.fromBytes(bytes);
    return true;
  } catch {
    return false;
  }
}

export function isSolanaAddress(address: string): boolean {
  return addressBytes(address) !== undefined;
}

/** The 64 bytes of a base58 signature, or undefined when it is not one. */
export function signatureBytes(signature: string): Uint8Array | undefined {
  if (typeof signature !== "string" || signature.length < 64 || signature.length > 88) return undefined;
  try {
    const bytes = base58.decode(signature);
    return bytes.length === 64 ? bytes : undefined;
  } catch {
    return undefined;
  }
}

export const toBase58 = (bytes: Uint8Array): string => base58.encode(bytes);
