// The Solana JSON-RPC methods the sandbox serves: what @solana/web3.js and @solana/kit call for a
// transfer (latest blockhash, balance, send, statuses and confirmation over WebSocket), a wallet page
// (account info, transaction, signatures of an address, block) and a faucet (requestAirdrop). Shapes
// follow Solana's RPC (solana.com/docs/rpc); every answer about state carries {context: {slot}}.
import { signatureBytes } from "../../../lib/solana/keys.ts";
import { decodeMessage, WireFormatError } from "../../../lib/solana/transaction.ts";
import { LAMPORTS_PER_SIGNATURE, type SolanaRuntime, SolanaTransactionRejected } from "../../chain/solana/runtime.ts";
import type { CallContext, PayloadHandler } from "../dispatch.ts";
import { toRpcError } from "../dispatch.ts";
import { answerPayload } from "../framing.ts";
import { METHOD_NOT_FOUND, type RpcErrorObject, RpcFault } from "../jsonrpc.ts";
import {
  commitmentOf,
  configAt,
  decodeEncoded,
  integerAt,
  invalid,
  type Params,
  paramsOf,
  pubkeyAt,
  stringAt,
} from "./params.ts";
import type { SolanaSubscriptions } from "./subscriptions.ts";
import { accountView, blockView, statusView, transactionView } from "./views.ts";

type Method = (params: Params, ctx: CallContext) => unknown;

/** Solana's "slots per epoch" on mainnet; the sandbox stays in epoch 0 for its first 432,000 slots. */
const SLOTS_PER_EPOCH = 432_000;
const MAX_SIGNATURES_PER_CALL = 256;

export class SolanaDispatcher implements PayloadHandler {
  readonly #methods: Record<string, Method>;

  constructor(
    private readonly runtime: SolanaRuntime,
    private readonly subs: SolanaSubscriptions,
    private readonly maxBatchSize = 100,
  ) {
    this.#methods = this.#table();
  }

  handle(text: string, ctx: CallContext): Promise<string | undefined> {
    return answerPayload(
      text,
      async (method, request) => this.#call(method, request, ctx),
      this.maxBatchSize,
      toSolanaRpcError,
    );
  }

  #call(method: string, request: Record<string, unknown>, ctx: CallContext): unknown {
    const fn = Object.hasOwn(this.#methods, method) ? this.#methods[method] : undefined;
    if (!fn) throw new RpcFault(METHOD_NOT_FOUND, `Method not found: ${method.slice(0, 100)}`);
    return fn(paramsOf(request), ctx);
  }

  #table(): Record<string, Method> {
    const r = this.runtime;
    return {
      ...clusterMethods(r),
      ...accountMethods(r),
      ...transactionMethods(r),
      ...blockMethods(r),
      ...subscriptionMethods(this.subs),
    };
  }
}

/** What Solana wraps every answer about state in. */
function context(slot: number) {
  return { context: { apiVersion: "2.2.0", slot } };
}

/** The subscriber of a WebSocket call; over HTTP, subscriptions are not found. */
function ws(ctx: CallContext) {
  if (!ctx.subscriber)
    throw new RpcFault(METHOD_NOT_FOUND, "Method not found: subscriptions need the WebSocket endpoint");
  return ctx.subscriber;
}

/** The node, its slots and blockhashes. */
function clusterMethods(r: SolanaRuntime): Record<string, Method> {
  return {
    getHealth: () => "ok",
    getVersion: () => ({ "solana-core": "2.2.0", "feature-set": 0 }),
    getGenesisHash: () => r.genesisHash,
    getIdentity: () => ({ identity: r.faucet.address }),
    getSlot: (p) => r.slotAt(commitmentOf(configAt(p, 0))),
    getBlockHeight: (p) => r.slotAt(commitmentOf(configAt(p, 0))),
    getTransactionCount: () => r.transactionsInSlots(0, r.head).length,
    getEpochInfo: (p) => {
      const slot = r.slotAt(commitmentOf(configAt(p, 0)));
      return {
        absoluteSlot: slot,
        blockHeight: slot,
        epoch: Math.floor(slot / SLOTS_PER_EPOCH),
        slotIndex: slot % SLOTS_PER_EPOCH,
        slotsInEpoch: SLOTS_PER_EPOCH,
        transactionCount: r.transactionsInSlots(0, slot).length,
      };
    },
    getLatestBlockhash: (p) => {
      const { blockhash, lastValidBlockHeight, slot } = r.latestBlockhash(commitmentOf(configAt(p, 0)));
      return { ...context(slot), value: { blockhash, lastValidBlockHeight } };
    },
    isBlockhashValid: (p) => ({
      ...context(r.slotAt(commitmentOf(configAt(p, 1)))),
      value: r.isBlockhashValid(stringAt(p, 0, "blockhash")),
    }),
  };
}

/** Balances, accounts, rent and fees. */
function accountMethods(r: SolanaRuntime): Record<string, Method> {
  return {
    getBalance: (p) => {
      const key = pubkeyAt(p, 0);
      const slot = r.slotAt(commitmentOf(configAt(p, 1)));
      return { ...context(slot), value: Number(r.balance(key.text, slot)) };
    },
    getAccountInfo: (p) => {
      const key = pubkeyAt(p, 0);
      const config = configAt(p, 1);
      const slot = r.slotAt(commitmentOf(config));
      return { ...context(slot), value: accountView(r, key.bytes, slot, config.encoding) };
    },
    getMultipleAccounts: (p) => {
      const keys = Array.isArray(p[0]) ? p[0] : undefined;
      if (!keys || keys.length > 100)
        throw invalid("pubkeys (parameter 1) must be an array of at most 100 public keys");
      const config = configAt(p, 1);
      const slot = r.slotAt(commitmentOf(config));
      return {
        ...context(slot),
        value: keys.map((_, i) => accountView(r, pubkeyAt(keys, i).bytes, slot, config.encoding)),
      };
    },
    getMinimumBalanceForRentExemption: (p) =>
      Number(r.minimumBalanceForRentExemption(p.length === 0 ? 0 : integerAt(p, 0, "data length"))),
    getFeeForMessage: (p) => {
      const bytes = decodeEncoded(stringAt(p, 0, "message"), "base64", "message");
      let signers: number;
      try {
        signers = decodeMessage(bytes).numRequiredSignatures;
      } catch (error) {
        throw invalid(`message: ${error instanceof WireFormatError ? error.message : "not a message"}`);
      }
      return { ...context(r.slotAt(commitmentOf(configAt(p, 1)))), value: Number(LAMPORTS_PER_SIGNATURE) * signers };
    },
    getRecentPrioritizationFees: () => [],
  };
}

/** Sending transactions, the faucet, statuses and transaction history. */
function transactionMethods(r: SolanaRuntime): Record<string, Method> {
  return {
    sendTransaction: (p) => {
      const config = configAt(p, 1);
      const wire = decodeEncoded(stringAt(p, 0, "transaction"), config.encoding, "transaction");
      return r.sendTransaction(wire, { skipPreflight: config.skipPreflight === true });
    },
    requestAirdrop: (p) => r.airdrop(pubkeyAt(p, 0).bytes, BigInt(integerAt(p, 1, "lamports"))),
    getSignatureStatuses: (p) => {
      const signatures = Array.isArray(p[0]) ? p[0] : undefined;
      if (!signatures || signatures.length > MAX_SIGNATURES_PER_CALL)
        throw invalid(`signatures (parameter 1) must be an array of at most ${MAX_SIGNATURES_PER_CALL} signatures`);
      return {
        ...context(r.head),
        value: signatures.map((s) => {
          const status = typeof s === "string" ? r.signatureStatus(s) : undefined;
          return status ? statusView(status) : null;
        }),
      };
    },
    getTransaction: (p) => {
      const signature = stringAt(p, 0, "signature");
      if (!signatureBytes(signature)) throw invalid("signature (parameter 1) must be a base58 signature of 64 bytes");
      const config = typeof p[1] === "string" ? { encoding: p[1] } : configAt(p, 1);
      const tx = r.transaction(signature);
      const commitment = commitmentOf(config);
      if (!tx || tx.slot > r.slotAt(commitment === "processed" ? "confirmed" : commitment)) return null;
      return transactionView(tx, config);
    },
    getSignaturesForAddress: (p) => {
      const key = pubkeyAt(p, 0, "address");
      const config = configAt(p, 1);
      const limit = config.limit === undefined ? 1000 : Number(config.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
        throw invalid("limit must be an integer from 1 to 1000");
      const newestFirst = r
        .transactionsInSlots(0, r.slotAt(commitmentOf(config)))
        .filter((t) => t.accountKeys.includes(key.text))
        .reverse();
      const start =
        typeof config.before === "string" ? newestFirst.findIndex((t) => t.signature === config.before) + 1 : 0;
      const stop = typeof config.until === "string" ? newestFirst.findIndex((t) => t.signature === config.until) : -1;
      return newestFirst
        .slice(start, stop < 0 ? undefined : stop)
        .slice(0, limit)
        .map((t) => {
          const status = r.signatureStatus(t.signature)!;
          return {
            signature: t.signature,
            slot: t.slot,
            err: t.err,
            memo: null,
            blockTime: t.blockTime,
            confirmationStatus: status.confirmationStatus,
          };
        });
    },
  };
}

/** Blocks and their times. */
function blockMethods(r: SolanaRuntime): Record<string, Method> {
  return {
    getBlock: (p) => {
      const slot = integerAt(p, 0, "slot");
      const config = typeof p[1] === "string" ? { encoding: p[1] } : configAt(p, 1);
      const block =
        slot <= r.slotAt(commitmentOf(config) === "processed" ? "confirmed" : commitmentOf(config))
          ? r.block(slot)
          : undefined;
      if (!block) throw new RpcFault(-32004, `Block not available for slot ${slot}`);
      return blockView(r, block, config);
    },
    getBlockTime: (p) => {
      const block = r.block(integerAt(p, 0, "slot"));
      if (!block) throw new RpcFault(-32004, "Block not available");
      return block.blockTime;
    },
  };
}

/** Subscriptions over the WebSocket endpoint. */
function subscriptionMethods(subs: SolanaSubscriptions): Record<string, Method> {
  return {
    signatureSubscribe: (p, ctx) => {
      const signature = stringAt(p, 0, "signature");
      if (!signatureBytes(signature)) throw invalid("signature (parameter 1) must be a base58 signature of 64 bytes");
      return subs.signature(ws(ctx), signature, commitmentOf(configAt(p, 1)));
    },
    signatureUnsubscribe: (p, ctx) => subs.remove(ws(ctx), p[0], "signature"),
    slotSubscribe: (_p, ctx) => subs.slot(ws(ctx)),
    slotUnsubscribe: (p, ctx) => subs.remove(ws(ctx), p[0], "slot"),
    accountSubscribe: (p, ctx) => {
      const key = pubkeyAt(p, 0);
      const config = configAt(p, 1);
      return subs.account(ws(ctx), key.bytes, key.text, commitmentOf(config), config.encoding);
    },
    accountUnsubscribe: (p, ctx) => subs.remove(ws(ctx), p[0], "account"),
  };
}

/** Refusals of a transaction carry what web3.js's SendTransactionError reads (data.err, data.logs). */
function toSolanaRpcError(error: unknown): RpcErrorObject {
  if (error instanceof SolanaTransactionRejected) {
    return {
      code: error.code,
      message: error.message,
      data: { err: error.err, logs: error.logs, accounts: null, unitsConsumed: 0, returnData: null },
    };
  }
  return toRpcError(error);
}
