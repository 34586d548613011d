// A counting semaphore, first come first served: the runner's bound on checks running at once.
// A check takes a slot only for its own run, never while it waits for prerequisites or for the
// checks it must follow, so those waits overlap other work instead of holding the bound.
export class Slots {
  private free: number;
  private readonly queue: Array<() => void> = [];

  constructor(size: number) {
    this.free = Math.max(1, size);
  }

  /** Resolves with a release function once a slot is free (or at once, when one is). */
  async acquire(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.queue.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (next) next();
      else this.free++;
    };
  }
}
