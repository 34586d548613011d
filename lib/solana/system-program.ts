// The System Program's transfer instruction (the one instruction a SOL transfer needs): index 2 as a
// little-endian u32, then the lamports as a little-endian u64; accounts [from (signer, writable),
// to (writable)]. Reference: the System Program's instruction layout (solana-program SystemInstruction).
import { decodeMessage, encodeMessage, isWritable, type Message } from "./transaction.ts";

/** The System Program's id (32 zero bytes; base58 "11111111111111111111111111111111"). */
export const SYSTEM_PROGRAM_ID = new Uint8Array(32);
const TRANSFER = 2;

export interface SystemTransfer {
  from: Uint8Array;
  to: Uint8Array;
  lamports: bigint;
}

export function transferData(lamports: bigint): Uint8Array {
  const data = new Uint8Array(12);
  const view = new DataView(data.buffer);
  view.setUint32(0, TRANSFER, true);
  view.setBigUint64(4, lamports, true);
  return data;
}

/** The message of a one-instruction transfer, `from` paying the fee. */
export function transferMessage(t: SystemTransfer, recentBlockhash: Uint8Array): Uint8Array {
  const message: Message = {
    version: "legacy",
    numRequiredSignatures: 1,
    numReadonlySigned: 0,
    numReadonlyUnsigned: 1,
    accountKeys: [t.from, t.to, SYSTEM_PROGRAM_ID],
    recentBlockhash,
    instructions: [{ programIdIndex: 2, accountIndexes: [0, 1], data: transferData(t.lamports) }],
    lookups: [],
  };
  return encodeMessage(message);
}

/**
 * The System Program transfers of a message whose accounts are static keys (a transfer through an
 * address table is left out: its keys are not in the message). Used to see deposits.
 */
export function systemTransfers(message: Message | Uint8Array): SystemTransfer[] {
  const m = message instanceof Uint8Array ? decodeMessage(message) : message;
  const out: SystemTransfer[] = [];
  for (const ix of m.instructions) {
    const program = m.accountKeys[ix.programIdIndex];
    if (!program?.every((b) => b === 0)) continue;
    if (ix.data.length !== 12 || ix.accountIndexes.length < 2) continue;
    const view = new DataView(ix.data.buffer, ix.data.byteOffset, ix.data.byteLength);
    if (view.getUint32(0, true) !== TRANSFER) continue;
    const [fromIndex, toIndex] = ix.accountIndexes as [number, number];
    const from = m.accountKeys[fromIndex];
    const to = m.accountKeys[toIndex];
    if (!from || !to || !isWritable(m, toIndex)) continue;
    out.push({ from, to, lamports: view.getBigUint64(4, true) });
  }
  return out;
}
