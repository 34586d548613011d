// Runtime records as Solana's RPC shows them: accounts, transactions (json and binary encodings),
// signature statuses and blocks. Numbers are JSON numbers, as Solana's RPC writes u64 values.
import { base58 } from "@scure/base";
import type { BlockInfo, LandedTransaction, SignatureStatus, SolanaRuntime } from "../../chain/solana/runtime.ts";
import { RpcFault } from "../jsonrpc.ts";
import { invalid } from "./params.ts";

const SYSTEM_OWNER = "11111111111111111111111111111111";

export function accountView(
  runtime: SolanaRuntime,
  address: Uint8Array,
  slot: number,
  encoding: unknown,
): Record<string, unknown> | null {
  const account = runtime.account(address);
  const lamports = runtime.balance(base58.encode(address), slot);
  if (!account && lamports === 0n) return null;
  const data = account?.data ?? new Uint8Array(0);
  return {
    lamports: Number(lamports),
    owner: account ? base58.encode(account.owner) : SYSTEM_OWNER,
    data: encodeData(data, encoding),
    executable: account?.executable ?? false,
    // u64::MAX for rent-exempt accounts; Solana's RPC writes it as a JSON number too.
    rentEpoch: Number(account?.rentEpoch ?? 0n),
    space: data.length,
  };
}

function encodeData(data: Uint8Array, encoding: unknown): unknown {
  // jsonParsed falls back to base64 for accounts without a parser, as Solana's RPC does.
  if (encoding === undefined || encoding === "base64" || encoding === "jsonParsed")
    return [Buffer.from(data).toString("base64"), "base64"];
  if (encoding === "base58") return [base58.encode(data), "base58"];
  if (encoding === "base64+zstd") throw invalid("encoding base64+zstd is not supported here; use base64");
  throw invalid(`encoding must be base58, base64 or jsonParsed, got ${JSON.stringify(encoding)}`);
}

export function statusView(s: SignatureStatus): Record<string, unknown> {
  return {
    slot: s.slot,
    confirmations: s.confirmations,
    err: s.err,
    status: s.err === null ? { Ok: null } : { Err: s.err },
    confirmationStatus: s.confirmationStatus,
  };
}

/** getTransaction's answer; v0 transactions need maxSupportedTransactionVersion, as on a cluster. */
export function transactionView(tx: LandedTransaction, config: Record<string, unknown>): Record<string, unknown> {
  const version = tx.transaction.message.version;
  const max = config.maxSupportedTransactionVersion;
  if (version !== "legacy" && (typeof max !== "number" || max < version)) {
    throw new RpcFault(
      -32015,
      `Transaction version (${version}) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": ${version}`,
    );
  }
  return {
    slot: tx.slot,
    blockTime: tx.blockTime,
    ...(max !== undefined ? { version } : {}),
    meta: {
      err: tx.err,
      status: tx.err === null ? { Ok: null } : { Err: tx.err },
      fee: Number(tx.fee),
      preBalances: tx.preBalances.map(Number),
      postBalances: tx.postBalances.map(Number),
      innerInstructions: [],
      logMessages: tx.logs,
      preTokenBalances: [],
      postTokenBalances: [],
      rewards: [],
      computeUnitsConsumed: Number(tx.computeUnits),
      ...(version !== "legacy" ? { loadedAddresses: { writable: [], readonly: [] } } : {}),
    },
    transaction: encodedTransaction(tx, config.encoding),
  };
}

function encodedTransaction(tx: LandedTransaction, encoding: unknown): unknown {
  if (encoding === "base64") return [Buffer.from(tx.wire).toString("base64"), "base64"];
  if (encoding === "base58") return [base58.encode(tx.wire), "base58"];
  if (encoding !== undefined && encoding !== "json" && encoding !== "jsonParsed")
    throw invalid(`encoding must be json, base58 or base64, got ${JSON.stringify(encoding)}`);
  const m = tx.transaction.message;
  return {
    signatures: tx.transaction.signatures.map((s) => base58.encode(s)),
    message: {
      accountKeys: tx.accountKeys,
      header: {
        numRequiredSignatures: m.numRequiredSignatures,
        numReadonlySignedAccounts: m.numReadonlySigned,
        numReadonlyUnsignedAccounts: m.numReadonlyUnsigned,
      },
      recentBlockhash: base58.encode(m.recentBlockhash),
      instructions: m.instructions.map((ix) => ({
        programIdIndex: ix.programIdIndex,
        accounts: ix.accountIndexes,
        data: base58.encode(ix.data),
        stackHeight: null,
      })),
      ...(m.version !== "legacy"
        ? {
            addressTableLookups: m.lookups.map((l) => ({
              accountKey: base58.encode(l.tableKey),
              writableIndexes: l.writableIndexes,
              readonlyIndexes: l.readonlyIndexes,
            })),
          }
        : {}),
    },
  };
}

export function blockView(
  runtime: SolanaRuntime,
  block: BlockInfo,
  config: Record<string, unknown>,
): Record<string, unknown> {
  const details = config.transactionDetails ?? "full";
  const base = {
    blockHeight: block.slot,
    blockTime: block.blockTime,
    blockhash: block.blockhash,
    parentSlot: block.parentSlot,
    previousBlockhash: block.previousBlockhash,
  };
  if (details === "none") return base;
  if (details === "signatures") return { ...base, signatures: block.signatures };
  if (details !== "full")
    throw invalid(`transactionDetails must be full, signatures or none, got ${JSON.stringify(details)}`);
  return {
    ...base,
    rewards: [],
    transactions: block.signatures.map((s) => {
      const { slot: _slot, blockTime: _time, ...rest } = transactionView(runtime.transaction(s)!, config);
      return rest;
    }),
  };
}
