// The sandbox's state: named collections of JSON records plus a small key/value meta table.
// Everything lives in memory; with a data directory every committed change is also journaled
// (see journal.ts) before the commit returns, so what a response reported survives a crash.
//
// Changes are made in a synchronous transaction: the callback stages puts/deletes, then the whole
// set is journaled as one line and applied. Because a transaction never awaits, two requests can never
// interleave inside one, and a state change and the events it causes are committed together.
//
// Indexes (defineIndex) keep each collection's records in buckets by key, in creation order, so a list
// page or a filter costs the page, not the collection (collection-index.ts).
//
// A restart keeps the snapshot's records as bytes and parses one when it is first read (get keeps the
// parsed record; a page or a scan parses and lets go; record-table.ts), and takes the snapshot's index
// buckets as they are when the index definition is the same: opening a large data directory costs
// reading it, not parsing every record and recomputing every bucket. Records stay immutable: put
// stores a copy, adopt a frozen record nothing else holds, and nothing changes a record in place.
import { CollectionIndex, type KeysOf } from "./collection-index.ts";
import { Journal, type JournalLine, type Op } from "./journal.ts";
import { RecordTable } from "./record-table.ts";
import type { SnapshotCollection } from "./snapshot.ts";

export interface StoreOptions {
  /** Directory for the durable journal; absent = memory only. */
  dataDir?: string;
  /**
   * Compact (snapshot + truncate) once the journal has this many lines AND is at least as large as the
   * last snapshot: rewriting a large state costs its size, so it is done once per that much journal.
   */
  compactAfterLines?: number;
  now?: () => Date;
}

export interface Tx {
  put<T extends { id: string }>(collection: string, record: T): T;
  /**
   * Like put, for a record built for this write that nothing else holds: stored as it is, frozen, not
   * copied. Where one transaction writes hundreds of records (an event's deliveries, one per
   * endpoint), the copy is a third of the cost.
   */
  adopt<T extends { id: string }>(collection: string, record: T): T;
  delete(collection: string, id: string): void;
  setMeta(key: string, value: unknown): void;
  /** Runs after the change is durable and applied (to kick a dispatcher, resolve waiters, ...). */
  afterCommit(fn: () => void): void;
  /** The value staged in this transaction, or the committed one. */
  get<T>(collection: string, id: string): T | undefined;
}

type Listener = (ops: readonly Op[]) => void;

/** A snapshot's buckets for a collection, held until its index is defined, and what changed since. */
interface SavedIndex {
  signature: string;
  buckets: Map<string, number[]>;
  /** Records of the snapshot changed or deleted by the journal replay: their snapshot form, as JSON. */
  before: Map<number, string>;
  /** Ordinals below this came from the snapshot (the buckets cover them). */
  snapshotCount: number;
}

/** One collection: its records, and its index when one is defined. */
interface Collection {
  records: RecordTable;
  index?: CollectionIndex;
  saved?: SavedIndex;
}

/** Records a definition is checked on before a snapshot's buckets are trusted (spread over the collection). */
const INDEX_SAMPLE = 32;

export class StateStore {
  private readonly collections = new Map<string, Collection>();
  private readonly meta = new Map<string, unknown>();
  private readonly journal: Journal | undefined;
  private readonly compactAfter: number;
  private readonly now: () => Date;
  private readonly listeners = new Set<Listener>();
  private seq = 0;
  private inTx = false;
  private closed = false;

  private constructor(opts: StoreOptions) {
    this.journal = opts.dataDir ? new Journal(opts.dataDir) : undefined;
    this.compactAfter = opts.compactAfterLines ?? 5_000;
    this.now = opts.now ?? (() => new Date());
  }

  /** Opens a store; with a data directory, replays its snapshot and journal first. */
  static open(opts: StoreOptions = {}): StateStore {
    const store = new StateStore(opts);
    if (store.journal) store.replay(store.journal);
    return store;
  }

  get durable(): boolean {
    return this.journal !== undefined;
  }

  get<T>(collection: string, id: string): T | undefined {
    const records = this.collections.get(collection)?.records;
    const ord = records?.ordinalOf(id);
    return ord === undefined ? undefined : (records?.get(ord) as T);
  }

  /** All records of a collection in insertion order (the order they were first created). */
  list<T>(collection: string, filter?: (r: T) => boolean): T[] {
    const records = this.collections.get(collection)?.records;
    const all: T[] = [];
    if (!records) return all;
    for (const ord of records.ordinals()) {
      const record = records.peek(ord) as T;
      if (!filter || filter(record)) all.push(record);
    }
    return all;
  }

  /** How many records the collection holds. */
  size(collection: string): number {
    return this.collections.get(collection)?.records.size ?? 0;
  }

  /**
   * Indexes a collection: each record is filed under the keys `keysOf` gives it, and stays filed under
   * the right ones as it changes. One index per collection (its keys carry their own prefixes).
   */
  defineIndex<T>(collection: string, keysOf: (record: T) => readonly string[]): void {
    const coll = this.collection(collection);
    if (coll.index) throw new Error(`collection ${collection} already has an index`);
    const keys = keysOf as KeysOf;
    const saved = coll.saved;
    coll.saved = undefined;
    if (saved && saved.signature === keys.toString() && this.savedHolds(coll, saved, keys)) {
      coll.index = new CollectionIndex(keys, saved.buckets);
      // The journal replayed after the snapshot moved some records: file them where they are now.
      for (const [ord, before] of saved.before) coll.index.update(ord, JSON.parse(before), liveRecord(coll, ord));
      for (let ord = saved.snapshotCount; ord < coll.records.length; ord++)
        if (!saved.before.has(ord)) coll.index.update(ord, undefined, liveRecord(coll, ord));
      return;
    }
    coll.index = new CollectionIndex(keys);
    for (const ord of coll.records.ordinals()) coll.index.update(ord, undefined, coll.records.peek(ord));
  }

  hasIndex(collection: string): boolean {
    return this.collections.get(collection)?.index !== undefined;
  }

  /** How many records are filed under `key`. */
  count(collection: string, key: string): number {
    return this.indexOf(collection).ordinals(key).length;
  }

  /** Records filed under `key`, in creation order, from `offset`, at most `limit` of them. */
  page<T>(collection: string, key: string, offset: number, limit: number): T[] {
    const coll = this.collection(collection);
    const ordinals = this.indexOf(collection).ordinals(key);
    const out: T[] = [];
    for (let i = offset; i < ordinals.length && out.length < limit; i++) out.push(coll.records.peek(ordinals[i]) as T);
    return out;
  }

  /** Records filed under any of `keys` (each once), in creation order, lazily (stop early with break). */
  *scan<T>(collection: string, ...keys: string[]): Generator<T, void, undefined> {
    const coll = this.collection(collection);
    const index = this.indexOf(collection);
    // A copy of the ordinals: the caller may commit while iterating, which can move records between buckets.
    const ordinals =
      keys.length === 1
        ? [...index.ordinals(keys[0])]
        : [...new Set(keys.flatMap((k) => index.ordinals(k)))].sort((a, b) => a - b);
    for (const ordinal of ordinals) if (coll.records.live(ordinal)) yield coll.records.peek(ordinal) as T;
  }

  getMeta<T>(key: string): T | undefined {
    return this.meta.get(key) as T | undefined;
  }

  /** Runs `fn` as one atomic, durable change. Throwing inside `fn` discards everything it staged. */
  transact<R>(fn: (tx: Tx) => R): R {
    if (this.closed) throw new Error("state store is closed");
    if (this.inTx) throw new Error("nested transaction");
    const ops: Op[] = [];
    const staged = new Map<string, unknown>();
    const after: Array<() => void> = [];
    const key = (c: string, id: string) => `${c}\u0000${id}`;
    const tx: Tx = {
      put: (c, record) => {
        // A copy, so a caller that keeps mutating its object cannot change committed state behind the journal.
        const copy = structuredClone(record);
        ops.push({ c, id: record.id, v: copy });
        staged.set(key(c, record.id), copy);
        return copy;
      },
      adopt: (c, record) => {
        const frozen = deepFreeze(record);
        ops.push({ c, id: record.id, v: frozen });
        staged.set(key(c, record.id), frozen);
        return frozen;
      },
      delete: (c, id) => {
        ops.push({ c, id, del: true });
        staged.set(key(c, id), undefined);
      },
      setMeta: (m, v) => {
        ops.push({ m, v: structuredClone(v) });
      },
      afterCommit: (f) => {
        after.push(f);
      },
      get: <T>(c: string, id: string) => {
        const k = key(c, id);
        return (staged.has(k) ? staged.get(k) : this.get(c, id)) as T | undefined;
      },
    };
    this.inTx = true;
    let result: R;
    try {
      result = fn(tx);
    } finally {
      this.inTx = false;
    }
    if (ops.length > 0) this.commit(ops);
    for (const f of after) f();
    return result;
  }

  /** Observers of committed changes (tests, the dispatcher's wake-up). */
  onCommit(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Writes a snapshot now (also done automatically, see compactAfterLines). */
  compact(): void {
    if (!this.journal || this.closed) return;
    this.journal.compact({
      seq: this.seq,
      at: this.now().toISOString(),
      meta: Object.fromEntries(this.meta),
      collections: this.snapshotCollections(),
    });
  }

  /**
   * Closes the journal; the in-memory state stays readable. It compacts first when the journal is at
   * least a quarter of the snapshot, so a restart replays little, and a large state with a few new
   * lines is not rewritten on every stop.
   */
  close(): void {
    if (this.closed) return;
    if (this.journal) {
      if (this.journal.pendingLines > 0 && this.journal.pendingBytes * 4 >= this.journal.snapshotBytes) this.compact();
      this.journal.close();
    }
    this.closed = true;
  }

  private commit(ops: Op[]): void {
    this.seq++;
    const line: JournalLine = { seq: this.seq, at: this.now().toISOString(), ops };
    // Durable first: if the append throws (disk full), memory is left unchanged and the caller sees the error.
    this.journal?.append(line);
    this.apply(ops);
    for (const l of this.listeners) l(ops);
    const j = this.journal;
    if (j && j.pendingLines >= this.compactAfter && j.pendingBytes >= j.snapshotBytes) this.compact();
  }

  private apply(ops: readonly Op[]): void {
    for (const op of ops) {
      if ("m" in op) this.meta.set(op.m, op.v);
      else if ("del" in op) this.remove(op.c, op.id);
      else this.upsert(op.c, op.id, op.v);
    }
  }

  private upsert(collection: string, id: string, rec: unknown): void {
    const coll = this.collection(collection);
    const ord = coll.records.ordinalOf(id);
    if (ord === undefined) {
      const fresh = coll.records.append(id, rec);
      coll.index?.update(fresh, undefined, rec);
      return;
    }
    this.keepSnapshotForm(coll, ord);
    const before = coll.index ? coll.records.peek(ord) : undefined;
    coll.records.replace(ord, rec);
    coll.index?.update(ord, before, rec);
  }

  private remove(collection: string, id: string): void {
    const coll = this.collection(collection);
    const ord = coll.records.ordinalOf(id);
    if (ord === undefined) return;
    this.keepSnapshotForm(coll, ord);
    coll.index?.update(ord, coll.records.peek(ord), undefined);
    coll.records.remove(ord);
  }

  /** Before a snapshot record changes while its buckets wait for defineIndex, remember how it was filed. */
  private keepSnapshotForm(coll: Collection, ord: number): void {
    const saved = coll.saved;
    if (saved && ord < saved.snapshotCount && !saved.before.has(ord)) saved.before.set(ord, coll.records.json(ord));
  }

  /** Whether a snapshot's buckets agree with `keysOf` on a sample of records (a changed definition is rebuilt). */
  private savedHolds(coll: Collection, saved: SavedIndex, keysOf: KeysOf): boolean {
    const check = new CollectionIndex(keysOf, saved.buckets);
    const step = Math.max(1, Math.floor(saved.snapshotCount / INDEX_SAMPLE));
    for (let ord = 0; ord < saved.snapshotCount; ord += step) {
      const before = saved.before.get(ord);
      const record =
        before !== undefined ? JSON.parse(before) : coll.records.live(ord) ? coll.records.peek(ord) : undefined;
      if (record !== undefined && !keysOf(record).every((key) => check.has(key, ord))) return false;
    }
    return true;
  }

  private collection(name: string): Collection {
    let coll = this.collections.get(name);
    if (!coll) this.collections.set(name, (coll = { records: new RecordTable() }));
    return coll;
  }

  private indexOf(collection: string): CollectionIndex {
    const index = this.collections.get(collection)?.index;
    if (!index) throw new Error(`collection ${collection} has no index (defineIndex)`);
    return index;
  }

  private replay(journal: Journal): void {
    journal.open({
      header: (h) => {
        this.seq = h.seq;
        for (const [k, v] of Object.entries(h.meta)) this.meta.set(k, v);
      },
      rawRecord: (c, id, buf, start, end) => void this.collection(c).records.appendBytes(id, buf, start, end),
      record: (c, id, value) => this.upsert(c, id, value),
      bucket: (c, signature, key, positions) => {
        const coll = this.collection(c);
        coll.saved ??= { signature, buckets: new Map(), before: new Map(), snapshotCount: coll.records.length };
        coll.saved.buckets.set(key, positions);
      },
      line: (line) => {
        this.apply(line.ops);
        this.seq = line.seq;
      },
    });
  }

  private *snapshotCollections(): Generator<SnapshotCollection> {
    for (const [name, coll] of this.collections) {
      // Positions among the records written (deleted ones leave no gap in the file).
      const position = new Array<number>(coll.records.length);
      let written = 0;
      for (const ord of coll.records.ordinals()) position[ord] = written++;
      const index = coll.index;
      const records = coll.records;
      yield {
        name,
        records: (function* () {
          for (const ord of records.ordinals())
            yield [records.idAt(ord) as string, records.json(ord)] as [string, string];
        })(),
        index: index && {
          signature: index.signature,
          buckets: (function* () {
            for (const [key, ordinals] of index.entries())
              yield [key, ordinals.map((o) => position[o])] as [string, number[]];
          })(),
        },
      };
    }
  }
}

/** Freezes a record and everything in it (parts already frozen, shared with an older record, are skipped). */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const part of Object.values(value)) deepFreeze(part);
  }
  return value;
}

function liveRecord(coll: Collection, ord: number): unknown {
  return coll.records.live(ord) ? coll.records.peek(ord) : undefined;
}
