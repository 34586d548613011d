// SIGINT and SIGTERM while `custody certify` runs: the first stops the checks; the runner then removes
// what the run created on the deployment, the reports are written, and the command exits 130 (SIGINT)
// or 143 (SIGTERM), as shells expect of a process a signal stopped. A second signal exits at once.
const SIGNALS = ["SIGINT", "SIGTERM"] as const;
const NUMBER: Record<(typeof SIGNALS)[number], number> = { SIGINT: 2, SIGTERM: 15 };

export class Interruption {
  private readonly controller = new AbortController();
  private received: (typeof SIGNALS)[number] | undefined;

  constructor(private readonly stderr: (text: string) => void) {
    for (const name of SIGNALS) process.on(name, this.onSignal);
  }

  /** Aborted by the first signal; its reason is the signal's name. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get exitCode(): number {
    return 128 + NUMBER[this.received ?? "SIGINT"];
  }

  dispose(): void {
    for (const name of SIGNALS) process.off(name, this.onSignal);
  }

  private readonly onSignal = (name: (typeof SIGNALS)[number]): void => {
    if (this.received) {
      this.stderr(
        `custody certify: ${name} again: stopping at once (what the run created may be left; the next run removes it once its lease ends)\n`,
      );
      process.exit(128 + NUMBER[name]);
    }
    this.received = name;
    this.stderr(
      `custody certify: ${name} received: stopping the checks, removing what the run created, writing the reports (${name} again to stop at once)\n`,
    );
    this.controller.abort(name);
  };
}
