// The compaction snapshot of a data directory. Format 2 (snapshot.ndjson) is one JSON value per line,
// so it is written and read a record at a time (no string of the whole state, no second copy of it in
// memory):
//   {"format":"custody-sandbox-snapshot/2","seq":N,"at":"…","meta":{…}}
//   ["wallets"]                    a collection starts (a JSON array; records are objects)
//   {"id":"…",…}                   its records, in creation order
// Format 1 (snapshot.json, one JSON document { format, seq, at, collections, meta }) is still read, so
// data directories written before format 2 open; the next compaction replaces it.
import fs from "node:fs";
import path from "node:path";
import { readLines } from "./line-reader.ts";

export const SNAPSHOT_V1 = "snapshot.json";
export const SNAPSHOT_V2 = "snapshot.ndjson";
const FORMAT_V1 = "custody-sandbox-snapshot/1";
const FORMAT_V2 = "custody-sandbox-snapshot/2";
const WRITE_BUFFER_BYTES = 4 * 1024 * 1024;

export interface SnapshotHeader {
  seq: number;
  at: string;
  meta: Record<string, unknown>;
}

/** What a snapshot is read into, a record at a time. */
export interface SnapshotSink {
  header(header: SnapshotHeader): void;
  record(collection: string, record: { id: string }): void;
}

/** What a snapshot is written from. */
export interface SnapshotSource extends SnapshotHeader {
  collections: Iterable<[name: string, records: Iterable<unknown>]>;
}

/** Reads the directory's snapshot into `sink`; returns its size in bytes, or undefined when there is none. */
export function readSnapshot(dir: string, sink: SnapshotSink): number | undefined {
  const v2 = path.join(dir, SNAPSHOT_V2);
  if (fs.existsSync(v2)) return readV2(v2, sink);
  const v1 = path.join(dir, SNAPSHOT_V1);
  if (fs.existsSync(v1)) return readV1(v1, sink);
  return undefined;
}

function readV2(file: string, sink: SnapshotSink): number {
  let collection: string | undefined;
  let first = true;
  const { totalBytes, acceptedBytes } = readLines(file, (text) => {
    const value = JSON.parse(text) as unknown;
    if (first) {
      first = false;
      const h = value as { format?: unknown } & SnapshotHeader;
      if (h?.format !== FORMAT_V2) throw new Error(`${file}: unknown snapshot format ${String(h?.format)}`);
      sink.header({ seq: h.seq, at: h.at, meta: h.meta ?? {} });
    } else if (Array.isArray(value)) {
      collection = String(value[0]);
    } else if (collection !== undefined) {
      sink.record(collection, value as { id: string });
    }
  });
  // A snapshot is renamed into place only once complete, so a torn one is damage, not a crash to recover from.
  if (acceptedBytes !== totalBytes || first) throw new Error(`${file}: the snapshot is incomplete (${acceptedBytes} of ${totalBytes} bytes end a line)`);
  return totalBytes;
}

function readV1(file: string, sink: SnapshotSink): number {
  const text = fs.readFileSync(file, "utf8");
  const parsed = JSON.parse(text) as { format?: unknown; collections: Record<string, Record<string, { id: string }>> } & SnapshotHeader;
  if (parsed.format !== FORMAT_V1) throw new Error(`${file}: unknown snapshot format ${String(parsed.format)}`);
  sink.header({ seq: parsed.seq, at: parsed.at, meta: parsed.meta ?? {} });
  for (const [c, records] of Object.entries(parsed.collections)) for (const record of Object.values(records)) sink.record(c, record);
  return Buffer.byteLength(text, "utf8");
}

/**
 * Writes a format-2 snapshot crash-safely (temp file, fsync, rename, directory fsync) and removes a
 * format-1 one it replaces. Returns its size in bytes.
 */
export function writeSnapshot(dir: string, source: SnapshotSource): number {
  const finalPath = path.join(dir, SNAPSHOT_V2);
  const tmpPath = `${finalPath}.tmp-${process.pid}`;
  const fd = fs.openSync(tmpPath, "w", 0o600);
  let size = 0;
  try {
    let pending: string[] = [];
    let pendingBytes = 0;
    const flush = () => {
      const bytes = Buffer.from(pending.join(""), "utf8");
      let off = 0;
      while (off < bytes.length) off += fs.writeSync(fd, bytes, off, bytes.length - off);
      size += bytes.length;
      pending = [];
      pendingBytes = 0;
    };
    const line = (value: unknown) => {
      const text = `${JSON.stringify(value)}\n`;
      pending.push(text);
      pendingBytes += text.length;
      if (pendingBytes >= WRITE_BUFFER_BYTES) flush();
    };
    line({ format: FORMAT_V2, seq: source.seq, at: source.at, meta: source.meta });
    for (const [name, records] of source.collections) {
      line([name]);
      for (const record of records) line(record);
    }
    flush();
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmpPath, finalPath);
  fsyncDir(dir);
  // The format-2 file is in place, so the older one is stale from here on (readSnapshot prefers format 2).
  fs.rmSync(path.join(dir, SNAPSHOT_V1), { force: true });
  return size;
}

export function fsyncDir(dir: string): void {
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
