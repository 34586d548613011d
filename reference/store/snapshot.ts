// The compaction snapshot of a data directory. Format 2 (snapshot.ndjson) is one JSON value per line,
// written and read a line at a time (no string of the whole state):
//   {"format":"custody-sandbox-snapshot/2","seq":N,"at":"…","meta":{…}}
//   {"records":"wallets"}                   a collection's records follow, in creation order
//   "<id>"<TAB>{"id":"<id>",…}               one record: its id as a JSON string, a tab, the record
//   {"index":"wallets","signature":"…"}     the collection's index buckets follow
//   ["ws:<id>",[0,1,5,…]]                   one bucket: its key and its records' positions above
// A record's JSON is kept as text until it is read (state-store.ts), and the buckets are taken as they
// are when the index definition has not changed, so a restart parses ids and buckets, not every record.
// JSON.stringify escapes every tab inside strings, so the first raw tab of a record line ends its id.
// Format 1 (snapshot.json, one JSON document { format, seq, at, collections, meta }) is still read, so
// data directories written before format 2 open; the next compaction replaces it.
import fs from "node:fs";
import path from "node:path";
import { readLineSpans } from "./line-reader.ts";

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

/** What a snapshot is read into, a line at a time. */
export interface SnapshotSink {
  header(header: SnapshotHeader): void;
  /** A record as bytes, buf[start, end) of a buffer never reused (format 2: kept unparsed until read). */
  rawRecord(collection: string, id: string, buf: Buffer, start: number, end: number): void;
  /** A record already parsed (format 1). */
  record(collection: string, id: string, value: unknown): void;
  /** An index bucket: positions among the collection's records in the snapshot, ascending. */
  bucket(collection: string, signature: string, key: string, positions: number[]): void;
}

/** One collection as written: its records (id and JSON text) in creation order, and its index buckets. */
export interface SnapshotCollection {
  name: string;
  records: Iterable<[id: string, json: string]>;
  /** Buckets with positions among `records` (0 = the first record written). */
  index?: { signature: string; buckets: Iterable<[key: string, positions: readonly number[]]> };
}

export interface SnapshotSource extends SnapshotHeader {
  collections: Iterable<SnapshotCollection>;
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
  let records: string | undefined;
  let index: { collection: string; signature: string } | undefined;
  let first = true;
  const { totalBytes, acceptedBytes } = readLineSpans(file, (buf, start, end) => {
    if (first) {
      first = false;
      const h = JSON.parse(buf.toString("utf8", start, end)) as { format?: unknown } & SnapshotHeader;
      if (h?.format !== FORMAT_V2) throw new Error(`${file}: unknown snapshot format ${String(h?.format)}`);
      sink.header({ seq: h.seq, at: h.at, meta: h.meta ?? {} });
      return;
    }
    const lead = buf[start];
    if (lead === 0x22 /* " */ && records !== undefined) {
      const tab = buf.indexOf(0x09, start);
      sink.rawRecord(records, idOf(buf, start, tab), buf, tab + 1, end);
    } else if (lead === 0x5b /* [ */ && index !== undefined) {
      const [key, positions] = JSON.parse(buf.toString("utf8", start, end)) as [string, number[]];
      sink.bucket(index.collection, index.signature, key, positions);
    } else {
      const section = JSON.parse(buf.toString("utf8", start, end)) as {
        records?: string;
        index?: string;
        signature?: string;
      };
      records = section.records;
      index =
        section.index !== undefined ? { collection: section.index, signature: String(section.signature) } : undefined;
    }
  });
  // A snapshot is renamed into place only once complete, so a torn one is damage, not a crash to recover from.
  if (acceptedBytes !== totalBytes || first)
    throw new Error(`${file}: the snapshot is incomplete (${acceptedBytes} of ${totalBytes} bytes end a line)`);
  return totalBytes;
}

/** The JSON string at buf[start, end): read directly when it has no escape (ids never do), else parsed. */
function idOf(buf: Buffer, start: number, end: number): string {
  for (let i = start + 1; i < end - 1; i++)
    if (buf[i] === 0x5c /* backslash */) return JSON.parse(buf.toString("utf8", start, end)) as string;
  return buf.toString("utf8", start + 1, end - 1);
}

function readV1(file: string, sink: SnapshotSink): number {
  const text = fs.readFileSync(file, "utf8");
  const parsed = JSON.parse(text) as {
    format?: unknown;
    collections: Record<string, Record<string, unknown>>;
  } & SnapshotHeader;
  if (parsed.format !== FORMAT_V1) throw new Error(`${file}: unknown snapshot format ${String(parsed.format)}`);
  sink.header({ seq: parsed.seq, at: parsed.at, meta: parsed.meta ?? {} });
  for (const [c, records] of Object.entries(parsed.collections))
    for (const [id, value] of Object.entries(records)) sink.record(c, id, value);
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
    let pendingChars = 0;
    const flush = () => {
      const bytes = Buffer.from(pending.join(""), "utf8");
      let off = 0;
      while (off < bytes.length) off += fs.writeSync(fd, bytes, off, bytes.length - off);
      size += bytes.length;
      pending = [];
      pendingChars = 0;
    };
    const line = (text: string) => {
      pending.push(text, "\n");
      pendingChars += text.length + 1;
      if (pendingChars >= WRITE_BUFFER_BYTES) flush();
    };
    line(JSON.stringify({ format: FORMAT_V2, seq: source.seq, at: source.at, meta: source.meta }));
    for (const c of source.collections) {
      line(JSON.stringify({ records: c.name }));
      for (const [id, json] of c.records) line(`${JSON.stringify(id)}\t${json}`);
      if (!c.index) continue;
      line(JSON.stringify({ index: c.name, signature: c.index.signature }));
      for (const [key, positions] of c.index.buckets) line(JSON.stringify([key, positions]));
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
