// Tron addresses: base58check of 0x41 followed by the same 20 bytes an EVM address holds (the last 20
// bytes of keccak256 of the secp256k1 public key), so one secp256k1 key has an EVM and a Tron address.
// Reference: TRON's documentation, wallet-cli "encoding convert" (TRON hex = 41 + the EVM address bytes).

import { sha256 } from "@noble/hashes/sha2.js";
import { createBase58check } from "@scure/base";

const base58check = createBase58check(sha256);
const PREFIX = 0x41;

/** The Tron address of an EVM address (0x + 40 hex digits). */
export function tronAddressOfEvm(evmAddress: string): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(evmAddress)) throw new TypeError("not an EVM address");
  const bytes = new Uint8Array(21);
  bytes[0] = PREFIX;
  for (let i = 0; i < 20; i++) bytes[i + 1] = parseInt(evmAddress.slice(2 + 2 * i, 4 + 2 * i), 16);
  return base58check.encode(bytes);
}

/** The 20 address bytes of a Tron address, or undefined when it is not one (checksum and prefix checked). */
export function tronAddressBytes(address: string): Uint8Array | undefined {
  if (typeof address !== "string" || address.length !== 34) return undefined;
  try {
    const bytes = base58check.decode(address);
    return bytes.length === 21 && bytes[0] === PREFIX ? bytes.subarray(1) : undefined;
  } catch {
    return undefined;
  }
}

export function isTronAddress(address: string): boolean {
  return tronAddressBytes(address) !== undefined;
}
