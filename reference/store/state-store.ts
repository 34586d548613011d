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
import { CollectionIndex } from "./collection-index.ts";
import { Journal, type JournalLine, type Op } from "./journal.ts";

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
  delete(collection: string, id: string): void;
  setMeta(key: string, value: unknown): void;
  /** Runs after the change is durable and applied (to kick a dispatcher, resolve waiters, ...). */
  afterCommit(fn: () => void): void;
  /** The value staged in this transaction, or the committed one. */
  get<T>(collection: string, id: string): T | undefined;
}

type Listener = (ops: readonly Op[]) => void;

/** One collection: its records by id, each record's creation ordinal, and its index when one is defined. */
interface Collection {
  records: Map<string, unknown>;
  ordinalOf: Map<string, number>;
  /** Id by ordinal; undefined where a record was deleted. */
  idAt: (string | undefined)[];
  index?: CollectionIndex;
}

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
    return this.collections.get(collection)?.records.get(id) as T | undefined;
  }

  /** All records of a collection in insertion order (the order they were first created). */
  list<T>(collection: string, filter?: (r: T) => boolean): T[] {
    const all = [...((this.collections.get(collection)?.records.values() ?? []) as Iterable<T>)];
    return filter ? all.filter(filter) : all;
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
    coll.index = new CollectionIndex(keysOf as (r: unknown) => readonly string[]);
    for (const [id, record] of coll.records) coll.index.update(coll.ordinalOf.get(id) as number, undefined, record);
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
    for (let i = offset; i < ordinals.length && out.length < limit; i++) out.push(coll.records.get(coll.idAt[ordinals[i]] as string) as T);
    return out;
  }

  /** Records filed under any of `keys` (each once), in creation order, lazily (stop early with break). */
  *scan<T>(collection: string, ...keys: string[]): Generator<T, void, undefined> {
    const coll = this.collection(collection);
    const index = this.indexOf(collection);
    // A copy of the ordinals: the caller may commit while iterating, which can move records between buckets.
    const ordinals = keys.length === 1 ? [...index.ordinals(keys[0])] : [...new Set(keys.flatMap((k) => index.ordinals(k)))].sort((a, b) => a - b);
    for (const ordinal of ordinals) {
      const id = coll.idAt[ordinal];
      const record = id === undefined ? undefined : coll.records.get(id);
      if (record !== undefined) yield record as T;
    }
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
    this.journal.compact({ seq: this.seq, at: this.now().toISOString(), meta: Object.fromEntries(this.meta), collections: this.snapshotCollections() });
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

  private upsert(collection: string, id: string, record: unknown): void {
    const coll = this.collection(collection);
    const before = coll.records.get(id);
    let ordinal = coll.ordinalOf.get(id);
    if (ordinal === undefined) {
      ordinal = coll.idAt.length;
      coll.idAt.push(id);
      coll.ordinalOf.set(id, ordinal);
    }
    coll.records.set(id, record);
    coll.index?.update(ordinal, before, record);
  }

  private remove(collection: string, id: string): void {
    const coll = this.collection(collection);
    const ordinal = coll.ordinalOf.get(id);
    if (ordinal === undefined) return;
    coll.index?.update(ordinal, coll.records.get(id), undefined);
    coll.records.delete(id);
    coll.ordinalOf.delete(id);
    coll.idAt[ordinal] = undefined;
  }

  private collection(name: string): Collection {
    let coll = this.collections.get(name);
    if (!coll) this.collections.set(name, (coll = { records: new Map(), ordinalOf: new Map(), idAt: [] }));
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
      record: (c, record) => this.upsert(c, record.id, record),
      line: (line) => {
        this.apply(line.ops);
        this.seq = line.seq;
      },
    });
  }

  private *snapshotCollections(): Generator<[string, Iterable<unknown>]> {
    for (const [name, coll] of this.collections) yield [name, coll.records.values()];
  }
}
