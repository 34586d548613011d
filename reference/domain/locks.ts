// Serializes async work per key: callers with the same key run one after another, others in parallel.
// Used where a check and the write that depends on it are separated by an await (a chain read), e.g.
// two racing withdrawal requests with the same Idempotency-Key.
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous.then(fn, fn);
    const tail = current.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await current;
    } finally {
      // Only the last waiter clears the entry, so the map does not grow with every key ever seen.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
