// Durable form of the state store: an append-only NDJSON journal plus a compaction snapshot.
//
// Why this and not SQLite/LevelDB: a native module cannot be built here (npm install scripts are
// blocked), an append of one line followed by fsync is crash-safe (a torn last line is detected and
// dropped on replay), and both files are plain JSON lines a developer can read with `jq` while
// debugging a frontend against the sandbox. Both are read and written a line at a time (line-reader.ts,
// snapshot.ts), so a directory of hundreds of thousands of records opens without one giant string.
//
// Layout of a data directory:
//   snapshot.ndjson  the state at one seq (see snapshot.ts; snapshot.json is the older format, still read)
//   journal.ndjson   one committed change per line: { seq, at, ops: [{ c, id, v } | { c, id, del: true } | { m, v }] }
// A commit is one line, so it is applied whole or not at all. Replay = snapshot, then every journal line
// with seq > snapshot.seq. Compaction writes the snapshot to a temp file, fsyncs it, renames it over the
// old one (atomic on POSIX), fsyncs the directory, and only then truncates the journal; a crash anywhere
// in between leaves either the old snapshot + full journal or the new snapshot + lines it already covers.
// When to compact is the store's call (state-store.ts): the journal's size and the snapshot's are here.
import fs from "node:fs";
import path from "node:path";
import { readLines } from "./line-reader.ts";
import {
  readSnapshot,
  type SnapshotHeader,
  type SnapshotSink,
  type SnapshotSource,
  writeSnapshot,
} from "./snapshot.ts";

export type Op =
  | { c: string; id: string; v: unknown }
  | { c: string; id: string; del: true }
  | { m: string; v: unknown };

export interface JournalLine {
  seq: number;
  at: string;
  ops: Op[];
}

/** Where replay goes: the snapshot's header and records, then each journal line after it. */
export interface ReplaySink extends SnapshotSink {
  line(line: JournalLine): void;
}

export interface ReplayResult {
  snapshot: SnapshotHeader | undefined;
  /** Journal lines applied (those after the snapshot). */
  lines: number;
  /** Bytes of a torn trailing line that were dropped (a crash mid-append). */
  droppedBytes: number;
}

const JOURNAL = "journal.ndjson";
const LOCK = "lock";

export class Journal {
  private fd: number | undefined;
  private linesSinceSnapshot = 0;
  private bytesSinceSnapshot = 0;
  private lastSnapshotBytes = 0;

  constructor(readonly dir: string) {}

  /** Replays the snapshot and the journal lines after it into `sink`; truncates a torn last line so appends stay clean. */
  open(sink: ReplaySink): ReplayResult {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.lock();
    let snapshot: SnapshotHeader | undefined;
    this.lastSnapshotBytes =
      readSnapshot(this.dir, {
        header: (h) => {
          snapshot = h;
          sink.header(h);
        },
        rawRecord: (c, id, buf, start, end) => sink.rawRecord(c, id, buf, start, end),
        record: (c, id, value) => sink.record(c, id, value),
        bucket: (c, signature, key, positions) => sink.bucket(c, signature, key, positions),
      }) ?? 0;
    const journalPath = path.join(this.dir, JOURNAL);
    let lines = 0;
    let droppedBytes = 0;
    if (fs.existsSync(journalPath)) {
      const { acceptedBytes, totalBytes } = readLines(journalPath, (text) => {
        const line = parseLine(text);
        if (!line) return false;
        if (snapshot && line.seq <= snapshot.seq) return;
        sink.line(line);
        lines++;
        this.bytesSinceSnapshot += Buffer.byteLength(text, "utf8") + 1;
      });
      droppedBytes = totalBytes - acceptedBytes;
      if (droppedBytes > 0) fs.truncateSync(journalPath, acceptedBytes);
    }
    // 0600: the journal holds API secrets and signing keys of the sandbox.
    this.fd = fs.openSync(journalPath, "a", 0o600);
    this.linesSinceSnapshot = lines;
    return { snapshot, lines, droppedBytes };
  }

  /** Appends one committed change and waits until it is on disk. */
  append(line: JournalLine): void {
    if (this.fd === undefined) throw new Error("journal is not open");
    const bytes = Buffer.from(`${JSON.stringify(line)}\n`, "utf8");
    let off = 0;
    while (off < bytes.length) off += fs.writeSync(this.fd, bytes, off, bytes.length - off);
    fs.fsyncSync(this.fd);
    this.linesSinceSnapshot++;
    this.bytesSinceSnapshot += bytes.length;
  }

  get pendingLines(): number {
    return this.linesSinceSnapshot;
  }

  /** Bytes appended since the last snapshot. */
  get pendingBytes(): number {
    return this.bytesSinceSnapshot;
  }

  /** Size of the last snapshot written or read. */
  get snapshotBytes(): number {
    return this.lastSnapshotBytes;
  }

  /** Writes a full snapshot (temp + fsync + rename + dir fsync), then empties the journal. */
  compact(source: SnapshotSource): void {
    if (this.fd === undefined) throw new Error("journal is not open");
    this.lastSnapshotBytes = writeSnapshot(this.dir, source);
    // Lines up to source.seq are now covered; a crash before this truncation is harmless because
    // replay skips lines whose seq the snapshot already contains.
    fs.ftruncateSync(this.fd, 0);
    fs.fsyncSync(this.fd);
    this.linesSinceSnapshot = 0;
    this.bytesSinceSnapshot = 0;
  }

  close(): void {
    if (this.fd === undefined) return;
    fs.closeSync(this.fd);
    this.fd = undefined;
    fs.rmSync(path.join(this.dir, LOCK), { force: true });
  }

  /**
   * One process per data directory: two writers appending to one journal would interleave their
   * changes. The lock file holds the owner's pid; a lock whose process is gone (a crash) is taken
   * over, and so is one held by this very process (an instance abandoned without close, as tests of
   * crash recovery do).
   */
  private lock(): void {
    const lockPath = path.join(this.dir, LOCK);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        fs.writeFileSync(lockPath, String(process.pid), { flag: "wx", mode: 0o600 });
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        const owner = Number(fs.readFileSync(lockPath, "utf8").trim());
        if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && processAlive(owner)) {
          throw new Error(`data directory ${this.dir} is in use by process ${owner}`);
        }
        fs.rmSync(lockPath, { force: true });
      }
    }
    throw new Error(`could not lock data directory ${this.dir}`);
  }
}

/** One journal line, or undefined for a line that is not one (a torn append: replay stops there). */
function parseLine(text: string): JournalLine | undefined {
  let line: JournalLine;
  try {
    line = JSON.parse(text) as JournalLine;
  } catch {
    return undefined;
  }
  return typeof line?.seq === "number" && Array.isArray(line.ops) ? line : undefined;
}

/** Parses complete lines; stops at the first line that is unterminated or not valid JSON (a torn append). */
export function parseJournal(raw: string): { lines: JournalLine[]; validBytes: number } {
  const lines: JournalLine[] = [];
  let validBytes = 0;
  let start = 0;
  while (start < raw.length) {
    const nl = raw.indexOf("\n", start);
    if (nl < 0) break;
    const text = raw.slice(start, nl);
    const line = parseLine(text);
    if (!line) break;
    lines.push(line);
    validBytes += Buffer.byteLength(text, "utf8") + 1;
    start = nl + 1;
  }
  return { lines, validBytes };
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
