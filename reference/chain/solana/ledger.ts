// The Solana runtime's ledger: what a validator keeps so that its chain survives a restart. One NDJSON
// line per landed transaction (its slot, block time and wire bytes), appended and fsynced before the
// sender gets its answer, plus the head slot now and then; the first line is the genesis (the ledger's
// id and the faucet it funded). On start the runtime replays the lines into a fresh LiteSVM, which
// reproduces every balance exactly, so nothing a client was told has landed is ever lost. A torn last
// line (a crash mid-append) is dropped, like the state store's journal. In memory when no folder is given.
import fs from "node:fs";
import path from "node:path";

export interface LedgerGenesis {
  /** Random per ledger: a new ledger gives a new genesis hash, which tells the wallet API the chain was replaced. */
  ledger_id: string;
  faucet: string;
  faucet_lamports: string;
  created_at: string;
}

export type LedgerEntry = { slot: number; time: number; tx: string } | { head: number; time: number };

export interface LedgerContents {
  genesis?: LedgerGenesis;
  entries: LedgerEntry[];
}

const FILE = "ledger.ndjson";

export class Ledger {
  private fd: number | undefined;

  private constructor(readonly file: string | undefined) {}

  /** Opens (creating) the ledger in `dir`, or an in-memory one; returns what it held. */
  static open(dir: string | undefined): { ledger: Ledger; contents: LedgerContents } {
    if (dir === undefined) return { ledger: new Ledger(undefined), contents: { entries: [] } };
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, FILE);
    const raw = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
    const { contents, validBytes } = parse(raw);
    if (validBytes < Buffer.byteLength(raw, "utf8")) fs.truncateSync(file, validBytes);
    const ledger = new Ledger(file);
    ledger.fd = fs.openSync(file, "a", 0o600);
    return { ledger, contents };
  }

  get persistent(): boolean {
    return this.file !== undefined;
  }

  writeGenesis(genesis: LedgerGenesis): void {
    this.append({ genesis });
  }

  /** Records a landed transaction; on disk when this returns. */
  appendTransaction(slot: number, time: number, wire: Uint8Array): void {
    this.append({ slot, time, tx: Buffer.from(wire).toString("base64") });
  }

  appendHead(head: number, time: number): void {
    this.append({ head, time });
  }

  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }

  private append(line: object): void {
    if (this.fd === undefined) return;
    const bytes = Buffer.from(`${JSON.stringify(line)}\n`, "utf8");
    let off = 0;
    while (off < bytes.length) off += fs.writeSync(this.fd, bytes, off, bytes.length - off);
    fs.fsyncSync(this.fd);
  }
}

function parse(raw: string): { contents: LedgerContents; validBytes: number } {
  const contents: LedgerContents = { entries: [] };
  let validBytes = 0;
  let start = 0;
  for (;;) {
    const end = raw.indexOf("\n", start);
    if (end < 0) break; // a last line without its newline is torn
    const text = raw.slice(start, end);
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(text) as Record<string, unknown>;
    } catch {
      break;
    }
    if (line.genesis) contents.genesis = line.genesis as LedgerGenesis;
    else contents.entries.push(line as LedgerEntry);
    start = end + 1;
    validBytes += Buffer.byteLength(text, "utf8") + 1;
  }
  return { contents, validBytes };
}
