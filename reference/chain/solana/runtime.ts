// The sandbox's Solana chain: LiteSVM (the real SVM: accounts, the System Program, fees, signature and
// rent checks) wrapped in what a single validator adds around it, so that RPC clients and the wallet
// API see a chain like any other:
//   - slots produced every `slotMs` (400 ms, Solana's target); each slot is a block whose blockhash is
//     LiteSVM's next one; transactions land in the head slot as they arrive;
//   - commitments: processed = the head slot, confirmed = one slot deeper, finalized = 31 deeper (its 32nd
//     confirmation, counting its own slot);
//   - a blockhash is usable for 150 slots (lastValidBlockHeight = its slot + 150), checked here (LiteSVM
//     only knows its latest one), so an expired transaction can never land, as on a cluster;
//   - sendTransaction simulates first (preflight, as RPC nodes do) unless told to skip it; a failure
//     that charged the fee lands with its error, one that did not is dropped;
//   - balances per slot (the history of every account a transaction touched), for commitment reads;
//   - a ledger (ledger.ts) replayed on start, and a faucet account funded at genesis.
import { createHash, randomBytes } from "node:crypto";
import { base58 } from "@scure/base";
import { keypairFromSeed, type SolanaKeypair, signBytes } from "../../../lib/solana/keys.ts";
import { transferMessage } from "../../../lib/solana/system-program.ts";
import {
  decodeTransaction,
  encodeTransaction,
  type Transaction,
  WireFormatError,
} from "../../../lib/solana/transaction.ts";
import {
  BLOCKHASH_VALID_SLOTS,
  DEFAULT_SLOT_MS,
  FINALIZED_DEPTH,
  LAMPORTS_PER_SIGNATURE,
  LAMPORTS_PER_SOL,
} from "./constants.ts";
import { Ledger, type LedgerContents } from "./ledger.ts";
import {
  loadLiteSvm,
  type NativeFailedTransaction,
  type NativeLiteSvm,
  type NativeTransactionMetadata,
} from "./litesvm-binding.ts";
import { type TransactionErrorJson, transactionErrorJson, transactionErrorText } from "./tx-errors.ts";

export type Commitment = "processed" | "confirmed" | "finalized";
export { BLOCKHASH_VALID_SLOTS, FINALIZED_DEPTH, LAMPORTS_PER_SIGNATURE, LAMPORTS_PER_SOL } from "./constants.ts";

const DEFAULT_FAUCET_LAMPORTS = 1_000_000n * LAMPORTS_PER_SOL;
/** Recent slots whose blockhash and time are kept (beyond the validity window, for reads). */
const RECENT_SLOTS = 512;
/** A head line is written to the ledger every this many slots, so the slot count survives a crash. */
const HEAD_EVERY_SLOTS = 25;

export interface SolanaRuntimeOptions {
  /** 32 bytes: the faucet's Ed25519 seed (funded at genesis). */
  faucetSeed: Uint8Array;
  faucetLamports?: bigint;
  /** Milliseconds per slot; 0 produces slots only on demand (produceSlots). Default 400. */
  slotMs?: number;
  /** Folder of the ledger; in memory when absent. */
  dataDir?: string;
  now?: () => number;
}

export interface LandedTransaction {
  signature: string;
  slot: number;
  blockTime: number;
  wire: Uint8Array;
  transaction: Transaction;
  accountKeys: string[];
  preBalances: bigint[];
  postBalances: bigint[];
  fee: bigint;
  err: TransactionErrorJson | null;
  logs: string[];
  computeUnits: bigint;
}

export interface SignatureStatus {
  slot: number;
  confirmations: number | null;
  err: TransactionErrorJson | null;
  confirmationStatus: Commitment;
}

export interface BlockInfo {
  slot: number;
  blockhash: string;
  parentSlot: number;
  previousBlockhash: string;
  blockTime: number;
  signatures: string[];
}

/** A transaction the runtime refused (nothing landed); code and message as Solana's RPC answers them. */
export class SolanaTransactionRejected extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly err: TransactionErrorJson,
    readonly logs: string[] = [],
  ) {
    super(message);
    this.name = "SolanaTransactionRejected";
  }
}

type SlotListener = (slot: number) => void;
type TransactionListener = (tx: LandedTransaction) => void;

export class SolanaRuntime {
  readonly faucet: SolanaKeypair;
  readonly genesisHash: string;
  readonly slotMs: number;
  readonly #svm: NativeLiteSvm;
  readonly #binding: ReturnType<typeof loadLiteSvm>;
  readonly #ledger: Ledger;
  readonly #now: () => number;
  #head = 0;
  /** Blockhash and time of recent slots and of every slot with transactions. */
  readonly #blockhashes = new Map<number, string>();
  readonly #times = new Map<number, number>();
  /** Usable blockhashes → their slot (the last BLOCKHASH_VALID_SLOTS + 1). */
  readonly #recent = new Map<string, number>();
  readonly #bySlot = new Map<number, string[]>();
  readonly #landed = new Map<string, LandedTransaction>();
  /** Per address: (slot, lamports after that slot's transactions), ascending. */
  readonly #history = new Map<string, Array<{ slot: number; lamports: bigint }>>();
  readonly #slotListeners = new Set<SlotListener>();
  readonly #txListeners = new Set<TransactionListener>();
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  private constructor(opts: SolanaRuntimeOptions, ledger: Ledger, contents: LedgerContents) {
    this.#binding = loadLiteSvm();
    this.#svm = new this.#binding.LiteSvm();
    // Blockhash age is checked here against the 150-slot window; LiteSVM accepts only its latest one.
    this.#svm.setBlockhashCheck(false);
    this.#ledger = ledger;
    this.#now = opts.now ?? Date.now;
    this.slotMs = opts.slotMs ?? DEFAULT_SLOT_MS;
    this.faucet = keypairFromSeed(opts.faucetSeed);
    const genesis = contents.genesis ?? {
      ledger_id: randomBytes(16).toString("hex"),
      faucet: this.faucet.address,
      faucet_lamports: String(opts.faucetLamports ?? DEFAULT_FAUCET_LAMPORTS),
      created_at: new Date(this.#now()).toISOString(),
    };
    if (genesis.faucet !== this.faucet.address)
      throw new Error(
        `the Solana ledger was created with another faucet (${genesis.faucet}); remove it or start with the same seed`,
      );
    if (!contents.genesis) ledger.writeGenesis(genesis);
    this.genesisHash = base58.encode(
      createHash("sha256").update(`custody-solana-genesis/${genesis.ledger_id}/${genesis.faucet}`).digest(),
    );
    const system = new Uint8Array(32);
    this.#svm.setAccount(
      this.faucet.publicKey,
      new this.#binding.Account(BigInt(genesis.faucet_lamports), new Uint8Array(0), system, false, 0n),
    );
    this.#record(this.faucet.address, 0, BigInt(genesis.faucet_lamports));
    this.#enterSlot(0, Math.floor(Date.parse(genesis.created_at) / 1000));
    this.#replay(contents);
  }

  /** Loads LiteSVM (throws SolanaRuntimeUnavailable when it is not installed), replays the ledger, starts producing slots. */
  static start(opts: SolanaRuntimeOptions): SolanaRuntime {
    loadLiteSvm();
    const { ledger, contents } = Ledger.open(opts.dataDir);
    try {
      const runtime = new SolanaRuntime(opts, ledger, contents);
      runtime.#startClock();
      return runtime;
    } catch (error) {
      ledger.close();
      throw error;
    }
  }

  // ---- reads ----

  /** The head (processed) slot; the block height equals the slot (no slot is ever skipped here). */
  get head(): number {
    return this.#head;
  }

  slotAt(commitment: Commitment = "finalized"): number {
    if (commitment === "processed") return this.#head;
    if (commitment === "confirmed") return Math.max(0, this.#head - 1);
    return Math.max(0, this.#head - FINALIZED_DEPTH);
  }

  latestBlockhash(commitment: Commitment = "finalized"): {
    blockhash: string;
    lastValidBlockHeight: number;
    slot: number;
  } {
    const slot = this.slotAt(commitment);
    return { blockhash: this.#blockhashes.get(slot)!, lastValidBlockHeight: slot + BLOCKHASH_VALID_SLOTS, slot };
  }

  isBlockhashValid(blockhash: string): boolean {
    const slot = this.#recent.get(blockhash);
    return slot !== undefined && this.#head - slot <= BLOCKHASH_VALID_SLOTS;
  }

  /** Lamports of `address` after the transactions of `slot` (default: the head, processed). */
  balance(address: string, slot: number = this.#head): bigint {
    const entries = this.#history.get(address);
    if (!entries) return 0n;
    for (let i = entries.length - 1; i >= 0; i--) if (entries[i]!.slot <= slot) return entries[i]!.lamports;
    return 0n;
  }

  account(
    address: Uint8Array,
  ): { lamports: bigint; data: Uint8Array; owner: Uint8Array; executable: boolean; rentEpoch: bigint } | undefined {
    const a = this.#svm.getAccount(address);
    return a
      ? {
          lamports: a.lamports(),
          data: a.data(),
          owner: a.owner(),
          executable: a.executable(),
          rentEpoch: a.rentEpoch(),
        }
      : undefined;
  }

  minimumBalanceForRentExemption(dataLength: number): bigint {
    return this.#svm.minimumBalanceForRentExemption(BigInt(dataLength));
  }

  transaction(signature: string): LandedTransaction | undefined {
    return this.#landed.get(signature);
  }

  signatureStatus(signature: string): SignatureStatus | undefined {
    const tx = this.#landed.get(signature);
    if (!tx) return undefined;
    const depth = this.#head - tx.slot;
    const confirmationStatus: Commitment =
      depth >= FINALIZED_DEPTH ? "finalized" : depth >= 1 ? "confirmed" : "processed";
    return {
      slot: tx.slot,
      confirmations: confirmationStatus === "finalized" ? null : depth,
      err: tx.err,
      confirmationStatus,
    };
  }

  /** The block of `slot`, or undefined when it is in the future or too old to be kept (and was empty). */
  block(slot: number): BlockInfo | undefined {
    const blockhash = this.#blockhashes.get(slot);
    if (blockhash === undefined || slot > this.#head) return undefined;
    const parentSlot = Math.max(0, slot - 1);
    return {
      slot,
      blockhash,
      parentSlot,
      previousBlockhash: this.#blockhashes.get(parentSlot) ?? blockhash,
      blockTime: this.#times.get(slot) ?? Math.floor(this.#now() / 1000),
      signatures: [...(this.#bySlot.get(slot) ?? [])],
    };
  }

  /** The transactions that landed in slots from..to (inclusive), in order. */
  transactionsInSlots(from: number, to: number): LandedTransaction[] {
    const out: LandedTransaction[] = [];
    const collect = (signatures: string[]) => {
      for (const s of signatures) out.push(this.#landed.get(s)!);
    };
    // Slots only grow, so the map is in slot order: a short range is read slot by slot, a long one by a walk.
    if (to - from <= 4096) {
      for (let slot = from; slot <= to; slot++) collect(this.#bySlot.get(slot) ?? []);
    } else {
      for (const [slot, signatures] of this.#bySlot) if (slot >= from && slot <= to) collect(signatures);
    }
    return out;
  }

  onSlot(listener: SlotListener): () => void {
    this.#slotListeners.add(listener);
    return () => this.#slotListeners.delete(listener);
  }

  onTransaction(listener: TransactionListener): () => void {
    this.#txListeners.add(listener);
    return () => this.#txListeners.delete(listener);
  }

  // ---- writes ----

  /**
   * Sends wire bytes; answers the signature. Throws SolanaTransactionRejected for what an RPC node refuses
   * (malformed, bad signature, and with preflight an expired blockhash, a duplicate or a failing simulation).
   */
  sendTransaction(wire: Uint8Array, opts: { skipPreflight?: boolean } = {}): string {
    if (this.#closed)
      throw new SolanaTransactionRejected(-32603, "the Solana runtime is stopped", "ClusterMaintenance");
    let tx: Transaction;
    try {
      tx = decodeTransaction(wire);
    } catch (error) {
      const reason = error instanceof WireFormatError ? error.message : "not a transaction";
      throw new SolanaTransactionRejected(
        -32602,
        `invalid transaction: failed to deserialize: ${reason}`,
        "SanitizeFailure",
      );
    }
    const signature = base58.encode(tx.signatures[0]!);
    const preflight = !opts.skipPreflight;
    if (this.#landed.has(signature)) {
      if (preflight) throw this.#simulationFailed("AlreadyProcessed");
      return signature; // a duplicate is dropped by the leader; the client keeps the signature it has
    }
    if (!this.isBlockhashValid(base58.encode(tx.message.recentBlockhash))) {
      if (preflight) throw this.#simulationFailed("BlockhashNotFound");
      return signature; // dropped: it can never land
    }
    if (preflight) {
      const simulated =
        tx.message.version === "legacy"
          ? this.#svm.simulateLegacyTransaction(wire)
          : this.#svm.simulateVersionedTransaction(wire);
      if (isFailure(simulated)) throw this.#rejection(simulated);
    }
    const keys = tx.message.accountKeys.map((k) => base58.encode(k));
    const pre = tx.message.accountKeys.map((k) => this.#svm.getBalance(k) ?? 0n);
    const result =
      tx.message.version === "legacy"
        ? this.#svm.sendLegacyTransaction(wire)
        : this.#svm.sendVersionedTransaction(wire);
    const post = tx.message.accountKeys.map((k) => this.#svm.getBalance(k) ?? 0n);
    // A failure that charged nothing never reached a block (a bad signature, an unfunded fee payer).
    if (isFailure(result) && post[0] === pre[0]) {
      const rejection = this.#rejection(result);
      if (preflight || rejection.err === "SignatureFailure") throw rejection;
      return signature; // dropped by the leader, as a cluster drops it
    }
    const time = Math.floor(this.#now() / 1000);
    const landed = this.#land({ tx, wire, signature, keys, pre, post, time, result });
    this.#ledger.appendTransaction(landed.slot, time, wire);
    for (const listener of [...this.#txListeners]) safely(() => listener(landed));
    return signature;
  }

  /** Sends `lamports` from the faucet (requestAirdrop, the console and custody trigger). */
  airdrop(to: Uint8Array, lamports: bigint): string {
    const message = transferMessage(
      { from: this.faucet.publicKey, to, lamports },
      base58.decode(this.latestBlockhash("processed").blockhash),
    );
    return this.sendTransaction(encodeTransaction([signBytes(message, this.faucet.seed)], message));
  }

  /** Produces `count` slots now (custody trigger, tests), besides the clock. */
  produceSlots(count: number): number {
    for (let i = 0; i < count && !this.#closed; i++) this.#produceSlot();
    return this.#head;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#ledger.appendHead(this.#head, Math.floor(this.#now() / 1000));
    this.#ledger.close();
    this.#slotListeners.clear();
    this.#txListeners.clear();
  }

  // ---- internals ----

  #startClock(): void {
    if (this.slotMs <= 0) return;
    this.#timer = setInterval(() => this.#produceSlot(), this.slotMs);
    this.#timer.unref?.();
  }

  #produceSlot(): void {
    this.#enterSlot(this.#head + 1, Math.floor(this.#now() / 1000));
    if (this.#head % HEAD_EVERY_SLOTS === 0) this.#ledger.appendHead(this.#head, this.#times.get(this.#head)!);
    for (const listener of [...this.#slotListeners]) safely(() => listener(this.#head));
  }

  /** Makes `slot` the head: LiteSVM's clock and blockhash move there; old slots' data is pruned. */
  #enterSlot(slot: number, time: number): void {
    for (let s = this.#head + 1; s <= slot; s++) this.#svm.expireBlockhash();
    this.#head = slot;
    this.#svm.warpToSlot(BigInt(slot));
    const blockhash = this.#svm.latestBlockhash();
    this.#blockhashes.set(slot, blockhash);
    this.#times.set(slot, time);
    this.#recent.set(blockhash, slot);
    const stale = slot - BLOCKHASH_VALID_SLOTS - 1;
    for (const [hash, s] of this.#recent) if (s < stale) this.#recent.delete(hash);
    const old = slot - RECENT_SLOTS;
    if (old >= 0 && !this.#bySlot.has(old)) {
      this.#blockhashes.delete(old);
      this.#times.delete(old);
    }
  }

  #land(a: {
    tx: Transaction;
    wire: Uint8Array;
    signature: string;
    keys: string[];
    pre: bigint[];
    post: bigint[];
    time: number;
    result: NativeTransactionMetadata | NativeFailedTransaction;
  }): LandedTransaction {
    const r = a.result;
    const meta = isFailure(r) ? r.meta() : r;
    const err = isFailure(r) ? transactionErrorJson(r.err()) : null;
    // A failed transaction paid exactly what its fee payer lost.
    const fee = isFailure(r) ? a.pre[0]! - a.post[0]! : LAMPORTS_PER_SIGNATURE * BigInt(a.tx.signatures.length);
    const landed: LandedTransaction = {
      signature: a.signature,
      slot: this.#head,
      blockTime: a.time,
      wire: a.wire,
      transaction: a.tx,
      accountKeys: a.keys,
      preBalances: a.pre,
      postBalances: a.post,
      fee,
      err,
      logs: meta.logs(),
      computeUnits: meta.computeUnitsConsumed(),
    };
    this.#landed.set(a.signature, landed);
    const inSlot = this.#bySlot.get(this.#head);
    if (inSlot) inSlot.push(a.signature);
    else this.#bySlot.set(this.#head, [a.signature]);
    a.keys.forEach((k, i) => {
      if (a.post[i] !== a.pre[i] || !this.#history.has(k)) this.#record(k, this.#head, a.post[i]!);
    });
    return landed;
  }

  #record(address: string, slot: number, lamports: bigint): void {
    const entries = this.#history.get(address);
    if (!entries) return void this.#history.set(address, [{ slot, lamports }]);
    const last = entries[entries.length - 1]!;
    if (last.slot === slot) last.lamports = lamports;
    else entries.push({ slot, lamports });
  }

  /** Re-executes the ledger's transactions in their slots; the result is the state before the restart. */
  #replay(contents: LedgerContents): void {
    let head = 0;
    for (const entry of contents.entries) {
      if ("head" in entry) {
        head = Math.max(head, entry.head);
        continue;
      }
      if (entry.slot > this.#head) this.#enterSlot(entry.slot, entry.time);
      const wire = new Uint8Array(Buffer.from(entry.tx, "base64"));
      const tx = decodeTransaction(wire);
      const keys = tx.message.accountKeys.map((k) => base58.encode(k));
      const pre = tx.message.accountKeys.map((k) => this.#svm.getBalance(k) ?? 0n);
      const result =
        tx.message.version === "legacy"
          ? this.#svm.sendLegacyTransaction(wire)
          : this.#svm.sendVersionedTransaction(wire);
      const post = tx.message.accountKeys.map((k) => this.#svm.getBalance(k) ?? 0n);
      this.#land({ tx, wire, signature: base58.encode(tx.signatures[0]!), keys, pre, post, time: entry.time, result });
    }
    if (head > this.#head) this.#enterSlot(head, Math.floor(this.#now() / 1000));
  }

  #simulationFailed(err: TransactionErrorJson): SolanaTransactionRejected {
    return new SolanaTransactionRejected(-32002, `Transaction simulation failed: ${transactionErrorText(err)}`, err);
  }

  #rejection(failed: NativeFailedTransaction): SolanaTransactionRejected {
    const err = transactionErrorJson(failed.err());
    if (err === "SignatureFailure")
      return new SolanaTransactionRejected(-32003, "Transaction signature verification failure", err);
    return new SolanaTransactionRejected(
      -32002,
      `Transaction simulation failed: ${transactionErrorText(err)}`,
      err,
      failed.meta().logs(),
    );
  }
}

function isFailure(result: object): result is NativeFailedTransaction {
  return typeof (result as { err?: unknown }).err === "function";
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // A listener's failure is the listener's problem.
  }
}
