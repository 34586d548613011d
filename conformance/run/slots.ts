// A counting semaphore: the runner's bound on checks running at once. A check takes a slot only for
// its own run, never while it waits for prerequisites or for the checks it must follow, so those waits
// overlap other work instead of holding the bound. Waiting checks get a free slot longest first (by
// the priority they ask with, their time-limit scale), then first come first served: starting the
// long waits early (on the chain, on deliveries) shortens the run, the classic longest-first rule.
export class Slots {
  private free: number;
  private readonly queue: Array<{ priority: number; order: number; grant: () => void }> = [];
  private arrivals = 0;

  constructor(size: number) {
    this.free = Math.max(1, size);
  }

  /** Resolves with a release function once a slot is free (or at once, when one is). */
  async acquire(priority = 1): Promise<() => void> {
    if (this.free > 0) this.free--;
    else {
      await new Promise<void>((grant) => {
        this.queue.push({ priority, order: this.arrivals++, grant });
        this.queue.sort((a, b) => b.priority - a.priority || a.order - b.order);
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (next) next.grant();
      else this.free++;
    };
  }
}
