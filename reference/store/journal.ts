// Durable form of the state store: an append-only NDJSON journal plus a compaction snapshot.
//
// Why this and not SQLite/LevelDB: a native module cannot be built here (npm install scripts are
// blocked), the sandbox's state is small (thousands of records, not millions), an append of one line
// followed by fsync is crash-safe (a torn last line is detected and dropped on replay), and both files
// are plain JSON a developer can read with `cat`/`jq` while debugging a frontend against the sandbox.
//
// Layout of a data directory:
//   snapshot.json   { format, seq, at, collections: { name: { id: record } }, meta: { k: v } }
//   journal.ndjson  one committed change per line: { seq, at, ops: [{ c, id, v } | { c, id, del: true } | { m, v }] }
// A commit is one line, so it is applied whole or not at all. Replay = snapshot, then every journal line
// with seq > snapshot.seq. Compaction writes the snapshot to a temp file, fsyncs it, renames it over the
// old one (atomic on POSIX), fsyncs the directory, and only then truncates the journal; a crash anywhere
// in between leaves either the old snapshot + full journal or the new snapshot + lines it already covers.
import fs from "node:fs";
import path from "node:path";

export type Op =
  | { c: string; id: string; v: unknown }
  | { c: string; id: string; del: true }
  | { m: string; v: unknown };

export interface JournalLine {
  seq: number;
  at: string;
  ops: Op[];
}

export interface SnapshotFile {
  format: "custody-sandbox-snapshot/1";
  seq: number;
  at: string;
  collections: Record<string, Record<string, unknown>>;
  meta: Record<string, unknown>;
}

export interface ReplayResult {
  snapshot: SnapshotFile | undefined;
  lines: JournalLine[];
  /** Bytes of a torn trailing line that were dropped (a crash mid-append). */
  droppedBytes: number;
}

const SNAPSHOT = "snapshot.json";
const JOURNAL = "journal.ndjson";
const LOCK = "lock";

export class Journal {
  private fd: number | undefined;
  private linesSinceSnapshot = 0;

  constructor(readonly dir: string) {}

  /** Reads the snapshot and the journal lines after it; truncates a torn last line so appends stay clean. */
  open(): ReplayResult {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.lock();
    const snapshot = this.readSnapshot();
    const journalPath = path.join(this.dir, JOURNAL);
    const raw = fs.existsSync(journalPath) ? fs.readFileSync(journalPath, "utf8") : "";
    const { lines, validBytes } = parseJournal(raw);
    const droppedBytes = Buffer.byteLength(raw, "utf8") - validBytes;
    if (droppedBytes > 0) fs.truncateSync(journalPath, validBytes);
    // 0600: the journal holds API secrets and signing keys of the sandbox.
    this.fd = fs.openSync(journalPath, "a", 0o600);
    const after = lines.filter((l) => !snapshot || l.seq > snapshot.seq);
    this.linesSinceSnapshot = after.length;
    return { snapshot, lines: after, droppedBytes };
  }

  /** Appends one committed change and waits until it is on disk. */
  append(line: JournalLine): void {
    if (this.fd === undefined) throw new Error("journal is not open");
    const bytes = Buffer.from(JSON.stringify(line) + "\n", "utf8");
    let off = 0;
    while (off < bytes.length) off += fs.writeSync(this.fd, bytes, off, bytes.length - off);
    fs.fsyncSync(this.fd);
    this.linesSinceSnapshot++;
  }

  get pendingLines(): number {
    return this.linesSinceSnapshot;
  }

  /** Writes a full snapshot (temp + fsync + rename + dir fsync), then empties the journal. */
  compact(snapshot: SnapshotFile): void {
    if (this.fd === undefined) throw new Error("journal is not open");
    const finalPath = path.join(this.dir, SNAPSHOT);
    const tmpPath = `${finalPath}.tmp-${process.pid}`;
    const fd = fs.openSync(tmpPath, "w", 0o600);
    try {
      fs.writeSync(fd, JSON.stringify(snapshot));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmpPath, finalPath);
    fsyncDir(this.dir);
    // Lines up to snapshot.seq are now covered; a crash before this truncation is harmless because
    // replay skips lines whose seq the snapshot already contains.
    fs.ftruncateSync(this.fd, 0);
    fs.fsyncSync(this.fd);
    this.linesSinceSnapshot = 0;
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

  private readSnapshot(): SnapshotFile | undefined {
    const p = path.join(this.dir, SNAPSHOT);
    if (!fs.existsSync(p)) return undefined;
    const parsed = JSON.parse(fs.readFileSync(p, "utf8")) as SnapshotFile;
    if (parsed.format !== "custody-sandbox-snapshot/1") {
      throw new Error(`${p}: unknown snapshot format ${String(parsed.format)}`);
    }
    return parsed;
  }
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
    let line: JournalLine;
    try {
      line = JSON.parse(text) as JournalLine;
    } catch {
      break;
    }
    if (typeof line?.seq !== "number" || !Array.isArray(line.ops)) break;
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

function fsyncDir(dir: string): void {
  // Directory fsync makes the rename durable; some platforms refuse to open a directory, which is fine there.
  try {
    const fd = fs.openSync(dir, "r");
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    /* best effort */
  }
}
