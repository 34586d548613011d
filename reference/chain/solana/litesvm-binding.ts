// Finding and loading LiteSVM (an in-process Solana runtime: the real SVM, accounts and the System
// Program, without a validator) from its per-platform npm package, the way anvil-process.ts finds
// anvil. The package's native module is loaded directly: litesvm's JS wrapper would add @solana/kit
// (31 MB installed, ~100 ms to import) for nothing this sandbox needs. Only the calls used here are typed.
import { createRequire } from "node:module";

/** Environment variable naming a litesvm .node file to use instead of the npm package. */
export const LITESVM_PATH_ENV = "CUSTODY_LITESVM_PATH";
export const LITESVM_VERSION = "1.5.0";

// napi-rs package names per platform (litesvm 1.5.0's optionalDependencies); gnu before musl.
const PLATFORM_PACKAGES: Record<string, string[]> = {
  "linux-x64": ["litesvm-linux-x64-gnu", "litesvm-linux-x64-musl"],
  "linux-arm64": ["litesvm-linux-arm64-gnu", "litesvm-linux-arm64-musl"],
  "darwin-x64": ["litesvm-darwin-x64"],
  "darwin-arm64": ["litesvm-darwin-arm64"],
};

export interface NativeAccount {
  lamports(): bigint;
  data(): Uint8Array;
  owner(): Uint8Array;
  executable(): boolean;
  rentEpoch(): bigint;
}

export interface NativeTransactionMetadata {
  signature(): Uint8Array;
  logs(): string[];
  computeUnitsConsumed(): bigint;
}

/** The error of a failed transaction: a fieldless code, or an object (see tx-errors.ts). */
export type NativeTransactionError =
  | number
  | { index?: number; accountIndex?: number; err?: () => number | { code: number } };

export interface NativeFailedTransaction {
  err(): NativeTransactionError;
  meta(): NativeTransactionMetadata;
}

export interface NativeLiteSvm {
  setBlockhashCheck(check: boolean): void;
  setSigverify(sigverify: boolean): void;
  setAccount(pubkey: Uint8Array, account: NativeAccount): void;
  getAccount(pubkey: Uint8Array): NativeAccount | null;
  getBalance(pubkey: Uint8Array): bigint | null;
  latestBlockhash(): string;
  expireBlockhash(): void;
  warpToSlot(slot: bigint): void;
  minimumBalanceForRentExemption(dataLen: bigint): bigint;
  sendLegacyTransaction(tx: Uint8Array): NativeTransactionMetadata | NativeFailedTransaction;
  sendVersionedTransaction(tx: Uint8Array): NativeTransactionMetadata | NativeFailedTransaction;
  simulateLegacyTransaction(tx: Uint8Array): object | NativeFailedTransaction;
  simulateVersionedTransaction(tx: Uint8Array): object | NativeFailedTransaction;
}

export interface LiteSvmBinding {
  LiteSvm: new () => NativeLiteSvm;
  Account: new (
    lamports: bigint,
    data: Uint8Array,
    owner: Uint8Array,
    executable: boolean,
    rentEpoch: bigint,
  ) => NativeAccount;
  FailedTransactionMetadata: abstract new () => NativeFailedTransaction;
}

/** Thrown when the runtime cannot be loaded; the message says in one line what to do. */
export class SolanaRuntimeUnavailable extends Error {}

let cached: LiteSvmBinding | undefined;

/** The native binding, or SolanaRuntimeUnavailable naming what to install. */
export function loadLiteSvm(env: NodeJS.ProcessEnv = process.env): LiteSvmBinding {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const override = env[LITESVM_PATH_ENV];
  if (override) {
    try {
      return (cached = require(override) as LiteSvmBinding);
    } catch (error) {
      throw new SolanaRuntimeUnavailable(
        `${LITESVM_PATH_ENV}=${override} could not be loaded: ${(error as Error).message.split("\n")[0]}`,
      );
    }
  }
  const platform = `${process.platform}-${process.arch}`;
  const candidates = PLATFORM_PACKAGES[platform];
  if (!candidates)
    throw new SolanaRuntimeUnavailable(
      `the Solana runtime (LiteSVM) has no build for ${platform}; the sandbox runs without Solana`,
    );
  for (const pkg of candidates) {
    try {
      return (cached = require(pkg) as LiteSvmBinding);
    } catch {
      // not installed (another libc), or not loadable here: try the next
    }
  }
  throw new SolanaRuntimeUnavailable(
    `the Solana runtime needs ${candidates[0]}@${LITESVM_VERSION} (an optional dependency): npm install ${candidates[0]}@${LITESVM_VERSION}, or set ${LITESVM_PATH_ENV}`,
  );
}
