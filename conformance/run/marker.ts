// The mark on everything certify creates on a deployment: a token `custody-certify-<expires>-<run>`
// in the record's name, description or URL, where <expires> is the end of the run's lease (Unix
// seconds) and <run> 8 hex digits drawn per run. A run removes its own records when it ends, and at
// its start the records of earlier runs whose lease has passed (runs cut short before their clean-up).
// A record without the token is never touched, nor one whose lease still runs: that may be a run in
// progress elsewhere. The runner stops a run before its lease ends (runner.ts), so this holds.
import { randomBytes } from "node:crypto";

const TOKEN = /custody-certify-(\d{10})-([0-9a-f]{8})(?![0-9a-f])/;

export interface MarkerFound {
  runId: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export class RunMarker {
  readonly runId: string;
  /** Epoch milliseconds, rounded up to the second the token carries. */
  readonly expiresAt: number;
  readonly token: string;

  constructor(leaseMs: number, now = Date.now(), runId = randomBytes(4).toString("hex")) {
    const seconds = Math.ceil((now + leaseMs) / 1000);
    this.runId = runId;
    this.expiresAt = seconds * 1000;
    this.token = `custody-certify-${seconds}-${runId}`;
  }

  /** A record name (wallets, API keys): the token, then what it is for. At most 100 characters. */
  name(what: string): string {
    return `${this.token}-${what}`.slice(0, 100);
  }

  /** A description that says what created the record and carries the token. */
  description(what: string): string {
    return `custody certify: ${what} (${this.token})`;
  }

  /** True when a record carrying `found` belongs to this run. */
  owns(found: MarkerFound | undefined): boolean {
    return found?.runId === this.runId;
  }
}

/** The token in any of these texts (name, description, URL), or undefined: not certify's record. */
export function markerIn(...texts: unknown[]): MarkerFound | undefined {
  for (const text of texts) {
    if (typeof text !== "string") continue;
    const m = TOKEN.exec(text);
    if (m) return { runId: m[2], expiresAt: Number(m[1]) * 1000 };
  }
  return undefined;
}

/**
 * How long a run may last, and so its lease: generous, since a run that outlives its lease would let
 * another run remove its records. 30 minutes, or 180 per-check time limits when those are longer.
 */
export function runBoundMs(timeoutMs: number): number {
  return Math.max(30 * 60_000, 180 * timeoutMs);
}
