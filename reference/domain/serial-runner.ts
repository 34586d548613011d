// Background passes that must never overlap (scanning blocks, sending approved withdrawals): a kick
// while a pass runs asks for exactly one more pass right after it, so no kick is lost and no work runs twice.
export class SerialRunner {
  #running: Promise<void> | undefined;
  #again = false;
  #closed = false;

  constructor(private readonly pass: () => Promise<void>) {}

  get closed(): boolean {
    return this.#closed;
  }

  /** Asks for one more pass after the current one (a pass that stopped early with work left). */
  again(): void {
    this.#again = true;
  }

  /** Runs a pass now, or right after the one in progress; resolves when the passes settle. */
  kick(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = (async () => {
      try {
        do {
          this.#again = false;
          await this.pass();
        } while (this.#again && !this.#closed);
      } finally {
        this.#running = undefined;
      }
    })();
    return this.#running;
  }

  /** Stops further passes and waits for the one in progress. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#running?.catch(() => undefined);
  }
}
