// Secondary index of one collection: each record belongs to the buckets its keys name ("ws:<id>",
// "wallet:<id>:status:pending", …), and each bucket holds the records' creation ordinals in ascending
// order. A page is then a slice of one bucket: O(page) whatever the size of the collection, in creation
// order, and a record created later always lands after every record already in its buckets.
//
// A new record has the highest ordinal, so joining a bucket is a push; a record that changes keys (a
// status filter) leaves its old buckets and is inserted in order into the new ones (binary search).

export type KeysOf = (record: unknown) => readonly string[];

export class CollectionIndex {
  private readonly buckets: Map<string, number[]>;

  /** `buckets`: ones read back from a snapshot, taken as they are (ascending ordinals). */
  constructor(
    readonly keysOf: KeysOf,
    buckets?: Map<string, number[]>,
  ) {
    this.buckets = buckets ?? new Map();
  }

  /** What identifies the definition: a snapshot's buckets are reused only under the same one. */
  get signature(): string {
    return this.keysOf.toString();
  }

  /** Every bucket, for a snapshot. */
  entries(): IterableIterator<[string, readonly number[]]> {
    return this.buckets.entries();
  }

  /** Whether `ordinal` is filed under `key`. */
  has(key: string, ordinal: number): boolean {
    const bucket = this.buckets.get(key);
    if (!bucket) return false;
    return bucket[lowerBound(bucket, ordinal)] === ordinal;
  }

  /** Moves a record's ordinal from the buckets of `before` to those of `after` (either may be absent). */
  update(ordinal: number, before: unknown, after: unknown): void {
    // A new record (the bulk of a replay): only insertions, most of them appends.
    if (before === undefined) {
      if (after !== undefined) for (const key of this.keysOf(after)) this.insert(key, ordinal);
      return;
    }
    const old = this.keysOf(before);
    const next = after === undefined ? [] : this.keysOf(after);
    for (const key of old) if (!next.includes(key)) this.remove(key, ordinal);
    for (const key of next) if (!old.includes(key)) this.insert(key, ordinal);
  }

  /** Ordinals in `key`, ascending (the live array: callers must not change it). */
  ordinals(key: string): readonly number[] {
    return this.buckets.get(key) ?? EMPTY;
  }

  private insert(key: string, ordinal: number): void {
    let bucket = this.buckets.get(key);
    if (!bucket) this.buckets.set(key, (bucket = []));
    if (bucket.length === 0 || bucket[bucket.length - 1] < ordinal) {
      bucket.push(ordinal);
      return;
    }
    const at = lowerBound(bucket, ordinal);
    if (bucket[at] !== ordinal) bucket.splice(at, 0, ordinal);
  }

  private remove(key: string, ordinal: number): void {
    const bucket = this.buckets.get(key);
    if (!bucket) return;
    const at = lowerBound(bucket, ordinal);
    if (bucket[at] !== ordinal) return;
    bucket.splice(at, 1);
    if (bucket.length === 0) this.buckets.delete(key);
  }
}

const EMPTY: readonly number[] = Object.freeze([]);

/** First position whose value is >= `value`. */
function lowerBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
