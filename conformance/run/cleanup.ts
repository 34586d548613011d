// What a run must undo when it ends, however it ends (all checks done, failures, SIGINT/SIGTERM,
// its time bound): records it created on the deployment (webhooks, API keys, pending withdrawals),
// then what it opened on this machine (the webhook receiver). Each undo gets its own deadline, so a
// clean-up still runs after the run's own signal was aborted. What could not be undone is reported.
import type { HttpExchange } from "../transport/probe.ts";

export interface LeftBehind {
  what: string;
  reason: string;
}

export interface CleanupResult {
  /** Undo calls that removed their record, or found it already gone or final. */
  removed: number;
  left: LeftBehind[];
}

type Undo = (signal: AbortSignal) => Promise<HttpExchange | void>;

/** Answers that mean the record is gone or can no longer change: removed, unknown, or already final. */
const SETTLED = (status: number) =>
  (status >= 200 && status < 300) || status === 404 || status === 409 || status === 410;

export class Cleanup {
  private readonly onDeployment: Array<{ what: string; undo: Undo }> = [];
  private readonly onRunner: Array<() => Promise<void>> = [];
  private result: Promise<CleanupResult> | undefined;

  /** A record on the deployment to remove when the run ends (`what` names it in the report). */
  deployment(what: string, undo: Undo): void {
    this.onDeployment.push({ what, undo });
  }

  /** Something of the runner's own to close once the deployment's records are gone. */
  runner(close: () => Promise<void>): void {
    this.onRunner.push(close);
  }

  /** Runs every undo once (later calls get the same result); deployment calls go out together. */
  run(timeoutMs: number): Promise<CleanupResult> {
    this.result ??= this.runOnce(timeoutMs);
    return this.result;
  }

  private async runOnce(timeoutMs: number): Promise<CleanupResult> {
    const outcomes = await Promise.all(
      this.onDeployment.splice(0).map(async ({ what, undo }): Promise<LeftBehind | undefined> => {
        try {
          const ex = await undo(AbortSignal.timeout(timeoutMs));
          if (!ex || SETTLED(ex.response.status)) return undefined;
          return { what, reason: `answered HTTP ${ex.response.status}` };
        } catch (err) {
          return { what, reason: err instanceof Error ? err.message : String(err) };
        }
      }),
    );
    for (const close of this.onRunner.splice(0).reverse()) await close().catch(() => undefined);
    const left = outcomes.filter((o): o is LeftBehind => o !== undefined);
    return { removed: outcomes.length - left.length, left };
  }
}
