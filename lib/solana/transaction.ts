// The Solana transaction wire format (legacy and v0 messages), decoded and encoded without a Solana SDK:
// what the sandbox's runtime, its signing operations and the certifier need to read a transaction a
// client built (signers, blockhash, instructions) and to build a plain transfer themselves.
//   transaction = shortvec(n) · n × signature(64) · message
//   message     = [0x80|version] · header(3) · shortvec(k) · k × key(32) · blockhash(32)
//                 · shortvec(i) · i × (program index u8 · shortvec(a) · a × u8 · shortvec(d) · d bytes)
//                 · (v0 only) shortvec(l) · l × (table key(32) · shortvec · u8s · shortvec · u8s)
// Reference: docs.solana.com "Transactions" (message format, compact-u16).
import { base58 } from "@scure/base";

export interface CompiledInstruction {
  programIdIndex: number;
  accountIndexes: number[];
  data: Uint8Array;
}

export interface AddressTableLookup {
  tableKey: Uint8Array;
  writableIndexes: number[];
  readonlyIndexes: number[];
}

export interface Message {
  /** "legacy" or the v0+ version number. */
  version: "legacy" | number;
  numRequiredSignatures: number;
  numReadonlySigned: number;
  numReadonlyUnsigned: number;
  /** The static account keys; the first numRequiredSignatures are the signers, the first is the fee payer. */
  accountKeys: Uint8Array[];
  recentBlockhash: Uint8Array;
  instructions: CompiledInstruction[];
  lookups: AddressTableLookup[];
}

export interface Transaction {
  signatures: Uint8Array[];
  /** The exact message bytes the signatures cover. */
  messageBytes: Uint8Array;
  message: Message;
}

/** Thrown for bytes that are not a well-formed transaction or message; the message says where. */
export class WireFormatError extends Error {}

class Reader {
  offset = 0;
  constructor(private readonly bytes: Uint8Array) {}

  get done(): boolean {
    return this.offset === this.bytes.length;
  }

  byte(what: string): number {
    if (this.offset >= this.bytes.length) throw new WireFormatError(`truncated at ${what}`);
    return this.bytes[this.offset++]!;
  }

  take(n: number, what: string): Uint8Array {
    if (this.offset + n > this.bytes.length) throw new WireFormatError(`truncated at ${what}`);
    const out = this.bytes.subarray(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }

  /** compact-u16: 7 bits per byte, low first, at most 3 bytes. */
  shortvec(what: string): number {
    let value = 0;
    for (let i = 0; i < 3; i++) {
      const b = this.byte(what);
      value |= (b & 0x7f) << (7 * i);
      if ((b & 0x80) === 0) return value;
    }
    throw new WireFormatError(`compact-u16 too long at ${what}`);
  }

  indexes(what: string): number[] {
    const n = this.shortvec(what);
    return Array.from(this.take(n, what));
  }
}

export function decodeTransaction(bytes: Uint8Array): Transaction {
  const r = new Reader(bytes);
  const count = r.shortvec("signature count");
  const signatures: Uint8Array[] = [];
  for (let i = 0; i < count; i++) signatures.push(r.take(64, "signatures"));
  const messageBytes = bytes.subarray(r.offset);
  const message = decodeMessage(messageBytes);
  if (signatures.length !== message.numRequiredSignatures) {
    throw new WireFormatError(
      `${signatures.length} signatures for a message that requires ${message.numRequiredSignatures}`,
    );
  }
  return { signatures, messageBytes, message };
}

export function decodeMessage(bytes: Uint8Array): Message {
  const r = new Reader(bytes);
  const first = r.byte("message header");
  const versioned = (first & 0x80) !== 0;
  const version = versioned ? first & 0x7f : "legacy";
  if (versioned && version !== 0) throw new WireFormatError(`unsupported message version ${version}`);
  const numRequiredSignatures = versioned ? r.byte("message header") : first;
  const numReadonlySigned = r.byte("message header");
  const numReadonlyUnsigned = r.byte("message header");
  const keyCount = r.shortvec("account key count");
  const accountKeys: Uint8Array[] = [];
  for (let i = 0; i < keyCount; i++) accountKeys.push(r.take(32, "account keys"));
  const recentBlockhash = r.take(32, "recent blockhash");
  const instructionCount = r.shortvec("instruction count");
  const instructions: CompiledInstruction[] = [];
  for (let i = 0; i < instructionCount; i++) {
    const programIdIndex = r.byte("instruction program index");
    const accountIndexes = r.indexes("instruction accounts");
    const data = r.take(r.shortvec("instruction data length"), "instruction data");
    instructions.push({ programIdIndex, accountIndexes, data });
  }
  const lookups: AddressTableLookup[] = [];
  if (versioned) {
    const lookupCount = r.shortvec("address table lookup count");
    for (let i = 0; i < lookupCount; i++) {
      lookups.push({
        tableKey: r.take(32, "lookup table key"),
        writableIndexes: r.indexes("lookup writable indexes"),
        readonlyIndexes: r.indexes("lookup readonly indexes"),
      });
    }
  }
  if (!r.done) throw new WireFormatError("trailing bytes after the message");
  if (numRequiredSignatures === 0 || numRequiredSignatures > keyCount)
    throw new WireFormatError("the header names more signers than account keys");
  if (numReadonlySigned >= numRequiredSignatures || numReadonlyUnsigned > keyCount - numRequiredSignatures)
    throw new WireFormatError("the header's read-only counts do not fit the account keys");
  const lookedUp = lookups.reduce((n, l) => n + l.writableIndexes.length + l.readonlyIndexes.length, 0);
  for (const ix of instructions) {
    if (ix.programIdIndex >= keyCount)
      throw new WireFormatError("an instruction's program is not a static account key");
    if (ix.accountIndexes.some((a) => a >= keyCount + lookedUp))
      throw new WireFormatError("an instruction names an account index out of range");
  }
  return {
    version,
    numRequiredSignatures,
    numReadonlySigned,
    numReadonlyUnsigned,
    accountKeys,
    recentBlockhash,
    instructions,
    lookups,
  };
}

class Writer {
  private readonly parts: number[] = [];
  byte(b: number): this {
    this.parts.push(b & 0xff);
    return this;
  }
  bytes(b: Uint8Array): this {
    for (const x of b) this.parts.push(x);
    return this;
  }
  shortvec(n: number): this {
    let rest = n;
    for (;;) {
      const low = rest & 0x7f;
      rest >>= 7;
      if (rest === 0) return this.byte(low);
      this.byte(low | 0x80);
    }
  }
  done(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}

export function encodeMessage(m: Message): Uint8Array {
  const w = new Writer();
  if (m.version !== "legacy") w.byte(0x80 | m.version);
  w.byte(m.numRequiredSignatures).byte(m.numReadonlySigned).byte(m.numReadonlyUnsigned);
  w.shortvec(m.accountKeys.length);
  for (const k of m.accountKeys) w.bytes(k);
  w.bytes(m.recentBlockhash).shortvec(m.instructions.length);
  for (const ix of m.instructions) {
    w.byte(ix.programIdIndex).shortvec(ix.accountIndexes.length);
    for (const a of ix.accountIndexes) w.byte(a);
    w.shortvec(ix.data.length).bytes(ix.data);
  }
  if (m.version !== "legacy") {
    w.shortvec(m.lookups.length);
    for (const l of m.lookups) {
      w.bytes(l.tableKey).shortvec(l.writableIndexes.length);
      for (const i of l.writableIndexes) w.byte(i);
      w.shortvec(l.readonlyIndexes.length);
      for (const i of l.readonlyIndexes) w.byte(i);
    }
  }
  return w.done();
}

/** The wire bytes of a transaction: its signatures (all-zero where still missing) and message. */
export function encodeTransaction(signatures: readonly Uint8Array[], messageBytes: Uint8Array): Uint8Array {
  const w = new Writer().shortvec(signatures.length);
  for (const s of signatures) w.bytes(s);
  return Uint8Array.from([...w.done(), ...messageBytes]);
}

/** The transaction id: the fee payer's signature, in base58. */
export function transactionId(tx: Transaction): string {
  return base58.encode(tx.signatures[0]!);
}

/** The signer keys (the first numRequiredSignatures account keys). */
export function signerKeys(m: Message): Uint8Array[] {
  return m.accountKeys.slice(0, m.numRequiredSignatures);
}

/** True when the account at `index` (static or looked up) may be written by the transaction. */
export function isWritable(m: Message, index: number): boolean {
  const n = m.accountKeys.length;
  // Looked-up accounts come after the static keys: every table's writable ones first, then the read-only ones.
  if (index >= n) return index - n < m.lookups.reduce((sum, l) => sum + l.writableIndexes.length, 0);
  if (index < m.numRequiredSignatures) return index < m.numRequiredSignatures - m.numReadonlySigned;
  return index < n - m.numReadonlyUnsigned;
}

/** True when every signature slot holds zeros (a transaction serialized before signing). */
export function isUnsigned(signature: Uint8Array): boolean {
  return signature.every((b) => b === 0);
}
