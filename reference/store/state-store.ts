// The sandbox's state: named collections of JSON records plus a small key/value meta table.
// Everything lives in memory; with a data directory every committed change is also journaled
// (see journal.ts) before the commit returns, so what a response reported survives a crash.
//
// Changes are made in a synchronous transaction: the callback stages puts/deletes, then the whole
// set is journaled as one line and applied. Because a transaction never awaits, two requests can never
// interleave inside one, and a state change and the events it causes are committed together.
import { Journal, type JournalLine, type Op, type SnapshotFile } from "./journal.ts";

export interface StoreOptions {
  /** Directory for the durable journal; absent = memory only. */
  dataDir?: string;
  /** Compact (snapshot + truncate) once the journal has this many lines. */
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

export class StateStore {
  private readonly collections = new Map<string, Map<string, unknown>>();
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
    return this.collections.get(collection)?.get(id) as T | undefined;
  }

  /** All records of a collection in insertion order (the order they were first created). */
  list<T>(collection: string, filter?: (r: T) => boolean): T[] {
    const all = [...((this.collections.get(collection)?.values() ?? []) as Iterable<T>)];
    return filter ? all.filter(filter) : all;
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

  /** Writes a snapshot now (also done automatically every `compactAfterLines`). */
  compact(): void {
    if (!this.journal || this.closed) return;
    this.journal.compact(this.snapshot());
  }

  /** Flushes (compacts) and closes the journal; the in-memory state stays readable. */
  close(): void {
    if (this.closed) return;
    if (this.journal) {
      if (this.journal.pendingLines > 0) this.compact();
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
    if (this.journal && this.journal.pendingLines >= this.compactAfter) this.compact();
  }

  private apply(ops: readonly Op[]): void {
    for (const op of ops) {
      if ("m" in op) {
        this.meta.set(op.m, op.v);
        continue;
      }
      let coll = this.collections.get(op.c);
      if (!coll) this.collections.set(op.c, (coll = new Map()));
      if ("del" in op) coll.delete(op.id);
      else coll.set(op.id, op.v);
    }
  }

  private replay(journal: Journal): void {
    const { snapshot, lines } = journal.open();
    if (snapshot) {
      this.seq = snapshot.seq;
      for (const [c, records] of Object.entries(snapshot.collections)) {
        this.collections.set(c, new Map(Object.entries(records)));
      }
      for (const [k, v] of Object.entries(snapshot.meta)) this.meta.set(k, v);
    }
    for (const line of lines) {
      this.apply(line.ops);
      this.seq = line.seq;
    }
  }

  private snapshot(): SnapshotFile {
    const collections: SnapshotFile["collections"] = {};
    for (const [c, records] of this.collections) collections[c] = Object.fromEntries(records);
    return {
      format: "custody-sandbox-snapshot/1",
      seq: this.seq,
      at: this.now().toISOString(),
      collections,
      meta: Object.fromEntries(this.meta),
    };
  }
}
