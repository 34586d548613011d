// The two interchangeable Ed25519 backends of webhook signatures, on every runtime with no static
// import of a Node module: node:crypto where process.getBuiltinModule offers it (Node 20.16+, Bun;
// ~11x faster to verify, bench/ section crypto), else @noble/ed25519 (audited pure JS: Deno, browsers,
// edge runtimes). Both follow RFC 8032, so they accept exactly the same signatures.
import * as ed from "@noble/ed25519";
import { sha512 } from "@noble/hashes/sha2.js";
import { concatBytes, fromHex } from "../bytes.ts";

// noble's synchronous API needs a SHA-512; set it once unless the host already did.
if (ed.hashes.sha512 === undefined) ed.hashes.sha512 = sha512;

export interface Ed25519Backend {
  readonly name: "node" | "noble";
  /** 64-byte signature of `message` under the 32-byte RFC 8032 secret seed. */
  sign(message: Uint8Array, seed: Uint8Array): Uint8Array;
  /** False (never a throw) for a wrong signature, a malformed key or a malformed signature. */
  verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
  /** 32-byte public key of the seed. */
  publicKey(seed: Uint8Array): Uint8Array;
}

/** The part of node:crypto the node backend uses (typed here so nothing imports node:crypto). */
interface NodeEd25519 {
  createPrivateKey(input: { key: Uint8Array; format: "der"; type: "pkcs8" }): object;
  createPublicKey(input: object): { export(options: { format: "der"; type: "spki" }): Uint8Array };
  sign(algorithm: null, data: Uint8Array, key: object): Uint8Array;
  verify(algorithm: null, data: Uint8Array, key: object, signature: Uint8Array): boolean;
}

function builtinCrypto(): NodeEd25519 | undefined {
  const load = (globalThis as { process?: { getBuiltinModule?: (name: string) => unknown } }).process?.getBuiltinModule;
  const crypto = typeof load === "function" ? (load("node:crypto") as Partial<NodeEd25519> | undefined) : undefined;
  return typeof crypto?.createPublicKey === "function" && typeof crypto.verify === "function"
    ? (crypto as NodeEd25519)
    : undefined;
}

export function requireLength(bytes: Uint8Array, length: number, what: string): void {
  if (bytes.length !== length) throw new TypeError(`${what} must be ${length} bytes, got ${bytes.length}`);
}

// DER headers that turn a raw 32-byte Ed25519 key into PKCS#8 (private) and SPKI (public) documents.
const PKCS8_PREFIX = fromHex("302e020100300506032b657004220420") as Uint8Array;
const SPKI_PREFIX = fromHex("302a300506032b6570032100") as Uint8Array;

/** Small bounded cache: building a key object costs more than verifying with it. */
function keyCache(build: (raw: Uint8Array) => object, limit = 64): (raw: Uint8Array) => object {
  const cache = new Map<string, object>();
  return (raw) => {
    // One char per byte: the cheapest exact key (cheaper than hex or base64).
    const id = String.fromCharCode.apply(null, raw as unknown as number[]);
    let key = cache.get(id);
    if (key === undefined) {
      key = build(raw);
      if (cache.size >= limit) cache.delete(cache.keys().next().value as string);
      cache.set(id, key);
    }
    return key;
  };
}

function nodeBackendOf(crypto: NodeEd25519): Ed25519Backend {
  const privateKey = keyCache((seed) =>
    crypto.createPrivateKey({ key: concatBytes(PKCS8_PREFIX, seed), format: "der", type: "pkcs8" }),
  );
  const publicKey = keyCache((pub) =>
    crypto.createPublicKey({ key: concatBytes(SPKI_PREFIX, pub), format: "der", type: "spki" }),
  );
  return {
    name: "node",
    sign(message, seed) {
      requireLength(seed, 32, "Ed25519 secret key");
      return new Uint8Array(crypto.sign(null, message, privateKey(seed)));
    },
    verify(signature, message, key) {
      if (signature.length !== 64 || key.length !== 32) return false;
      try {
        return crypto.verify(null, message, publicKey(key), signature);
      } catch {
        return false;
      }
    },
    publicKey(seed) {
      requireLength(seed, 32, "Ed25519 secret key");
      const spki = crypto.createPublicKey(privateKey(seed)).export({ format: "der", type: "spki" });
      return new Uint8Array(spki.subarray(spki.length - 32));
    },
  };
}

export const nobleBackend: Ed25519Backend = {
  name: "noble",
  sign(message, seed) {
    requireLength(seed, 32, "Ed25519 secret key");
    return ed.sign(message, seed);
  },
  verify(signature, message, publicKey) {
    if (signature.length !== 64 || publicKey.length !== 32) return false;
    try {
      // RFC 8032 rules (not ZIP-215) so both backends accept the same signatures.
      return ed.verify(signature, message, publicKey, { zip215: false });
    } catch {
      return false;
    }
  },
  publicKey(seed) {
    requireLength(seed, 32, "Ed25519 secret key");
    return ed.getPublicKey(seed);
  },
};

const nodeCrypto = builtinCrypto();

/** The node:crypto backend, or undefined on a runtime without node:crypto's Ed25519. */
export const nodeBackend: Ed25519Backend | undefined = nodeCrypto === undefined ? undefined : nodeBackendOf(nodeCrypto);
