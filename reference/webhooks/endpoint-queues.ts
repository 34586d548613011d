// The pending deliveries, one queue per endpoint (webhook), each ordered by due time and then by the
// order the deliveries were queued. Kept up to date from the store's commits, so a look at the queues
// costs the endpoints that have work, never every delivery ever made. Removal is lazy: a heap entry
// is valid only while it is the delivery's current entry.

interface Entry {
  id: string;
  due: number;
  seq: number;
}

class EndpointQueue {
  private readonly heap: Entry[] = [];
  readonly current = new Map<string, Entry>();

  push(e: Entry): void {
    this.current.set(e.id, e);
    const h = this.heap;
    h.push(e);
    for (let i = h.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!before(h[i], h[parent])) break;
      [h[i], h[parent]] = [h[parent], h[i]];
      i = parent;
    }
  }

  /** The valid entry due first, dropping stale ones on the way. */
  peek(): Entry | undefined {
    while (this.heap.length > 0 && this.current.get(this.heap[0].id) !== this.heap[0]) this.pop();
    return this.heap[0];
  }

  private pop(): void {
    const h = this.heap;
    const last = h.pop() as Entry;
    if (h.length === 0) return;
    h[0] = last;
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && before(h[l], h[m])) m = l;
      if (r < h.length && before(h[r], h[m])) m = r;
      if (m === i) break;
      [h[i], h[m]] = [h[m], h[i]];
      i = m;
    }
  }
}

const before = (a: Entry, b: Entry) => a.due < b.due || (a.due === b.due && a.seq < b.seq);

export class EndpointQueues {
  private readonly queues = new Map<string, EndpointQueue>();
  /** delivery id → the endpoint whose queue holds it. */
  private readonly owner = new Map<string, string>();
  private seq = 0;
  /** Where the next round-robin pass starts, so no endpoint always goes first. */
  private cursor = 0;

  get size(): number {
    return this.owner.size;
  }

  /** Queues a pending delivery (or moves it to its new due time). */
  put(deliveryId: string, endpointId: string, due: number): void {
    const was = this.owner.get(deliveryId);
    if (was !== undefined && was !== endpointId) this.remove(deliveryId);
    let q = this.queues.get(endpointId);
    if (!q) this.queues.set(endpointId, (q = new EndpointQueue()));
    q.push({ id: deliveryId, due, seq: this.seq++ });
    this.owner.set(deliveryId, endpointId);
  }

  remove(deliveryId: string): void {
    const endpointId = this.owner.get(deliveryId);
    if (endpointId === undefined) return;
    this.owner.delete(deliveryId);
    const q = this.queues.get(endpointId);
    q?.current.delete(deliveryId);
    if (q && q.current.size === 0) this.queues.delete(endpointId);
  }

  has(deliveryId: string): boolean {
    return this.owner.has(deliveryId);
  }

  /** The ids of an endpoint's queued deliveries. */
  idsOf(endpointId: string): string[] {
    return [...(this.queues.get(endpointId)?.current.keys() ?? [])];
  }

  /** The delivery of `endpointId` due first, if any (without taking it). */
  head(endpointId: string): { id: string; due: number } | undefined {
    const e = this.queues.get(endpointId)?.peek();
    return e && { id: e.id, due: e.due };
  }

  /** The endpoints with queued deliveries, in this pass's round-robin order (the start moves every call). */
  rotation(): string[] {
    const ids = [...this.queues.keys()];
    if (ids.length === 0) return ids;
    const start = this.cursor++ % ids.length;
    return [...ids.slice(start), ...ids.slice(0, start)];
  }
}
