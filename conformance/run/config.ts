// How a run goes (level, groups, bounds), and URL helpers. What the suite knows about a target is
// lib/target.ts's Target: URLs and credentials, nothing else.
import type { Group, Level, SupplyMode } from "../checks/types.ts";

export type { Credentials, OtherTenant, SeedFixtureIds, Target } from "../../lib/target.ts";

export interface RunOptions {
  level: Level;
  only?: Group[];
  /** Per-check time limit; a single request gets the same bound. */
  timeoutMs: number;
  /** Checks run at the same time. */
  concurrency: number;
  /** How fixtures are supplied (supply.ts); default: created at --level full, given at seed. */
  supply?: SupplyMode;
  /** Response body limit in bytes (--max-body-mib); default probe.ts's DEFAULT_MAX_BODY_BYTES. */
  maxBodyBytes?: number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_CONCURRENCY = 8;

export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, "")}${path.startsWith("/") ? path : `/${path}`}`;
}

/** True when the host is this machine, so a receiver on 127.0.0.1 is reachable from the deployment. */
export function isLoopbackUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
    return host === "localhost" || host === "::1" || host.startsWith("127.");
  } catch {
    return false;
  }
}
