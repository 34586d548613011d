// The records of one collection, by creation ordinal (the position among every record the collection
// ever held) and by id. Kept as columns (ids, parsed records, and for records read from a snapshot the
// span of bytes they were read from) rather than one object per record: a large data directory then
// opens into a few arrays and one map, and the garbage collector has little to walk.
//
// A record read from a snapshot stays bytes (outside the JavaScript heap) until it is read: get()
// parses it and keeps the result, peek() parses it for one read (pages and scans of many records).

export class RecordTable {
  private readonly byId = new Map<string, number>();
  /** Id by ordinal; undefined where a record was deleted. */
  private readonly ids: (string | undefined)[] = [];
  /** Parsed record by ordinal; undefined while it is still bytes. */
  private readonly recs: unknown[] = [];
  private readonly bufs: (Buffer | undefined)[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  /** Records held. */
  get size(): number {
    return this.byId.size;
  }

  /** Ordinals handed out so far (deleted ones included). */
  get length(): number {
    return this.ids.length;
  }

  ordinalOf(id: string): number | undefined {
    return this.byId.get(id);
  }

  /** Whether the ordinal holds a record (false once deleted). */
  live(ord: number): boolean {
    return this.ids[ord] !== undefined;
  }

  idAt(ord: number): string | undefined {
    return this.ids[ord];
  }

  /** A record read from a snapshot, kept as bytes: buf[start, end). */
  appendBytes(id: string, buf: Buffer, start: number, end: number): number {
    const ord = this.append(id, undefined);
    this.bufs[ord] = buf;
    this.starts[ord] = start;
    this.ends[ord] = end;
    return ord;
  }

  append(id: string, rec: unknown): number {
    const ord = this.ids.length;
    this.ids.push(id);
    this.recs.push(rec);
    this.bufs.push(undefined);
    this.starts.push(0);
    this.ends.push(0);
    this.byId.set(id, ord);
    return ord;
  }

  replace(ord: number, rec: unknown): void {
    this.recs[ord] = rec;
    this.bufs[ord] = undefined;
  }

  remove(ord: number): void {
    const id = this.ids[ord];
    if (id === undefined) return;
    this.byId.delete(id);
    this.ids[ord] = undefined;
    this.recs[ord] = undefined;
    this.bufs[ord] = undefined;
  }

  /** The record, parsed once and kept. */
  get(ord: number): unknown {
    const buf = this.bufs[ord];
    if (buf !== undefined) {
      this.recs[ord] = JSON.parse(buf.toString("utf8", this.starts[ord], this.ends[ord]));
      this.bufs[ord] = undefined;
    }
    return this.recs[ord];
  }

  /** The record for one read: parsed without being kept when it is still bytes. */
  peek(ord: number): unknown {
    const buf = this.bufs[ord];
    return buf !== undefined ? JSON.parse(buf.toString("utf8", this.starts[ord], this.ends[ord])) : this.recs[ord];
  }

  /** The record as JSON text (its bytes as read, or the parsed record serialized). */
  json(ord: number): string {
    const buf = this.bufs[ord];
    return buf !== undefined ? buf.toString("utf8", this.starts[ord], this.ends[ord]) : JSON.stringify(this.recs[ord]);
  }

  /** Live ordinals, ascending. */
  *ordinals(): Generator<number> {
    for (let ord = 0; ord < this.ids.length; ord++) if (this.ids[ord] !== undefined) yield ord;
  }
}
