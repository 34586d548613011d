// The report every reporter renders: the JSON shape other tools read (snake_case, stable).

import type { Check } from "../checks/check.ts";
import type {
  CheckResult,
  CheckStatus,
  Evidence,
  FailureKind,
  Group,
  Level,
  Severity,
  SkipKind,
} from "../checks/types.ts";
import { GROUPS } from "../checks/types.ts";
import type { RunOptions, Target } from "../run/config.ts";
import type { PreflightStep } from "../run/preflight.ts";
import type { RateLimited } from "../transport/probe.ts";
import type { Redactor } from "../transport/redact.ts";

export interface ReportCheck {
  id: string;
  group: Group;
  title: string;
  severity: Severity;
  status: CheckStatus;
  seed_ref: string;
  level: Level;
  duration_ms: number;
  message: string | null;
  evidence: Evidence | null;
  /** Seed statements (spec/trace.yaml ids) the check enforces. */
  statements: string[];
  /** Why it failed: violation, timeout, crash or prerequisite. */
  failure_kind?: FailureKind;
  /** Why it did not run: input (a flag is missing), inapplicable or prerequisite. */
  skip_kind?: SkipKind;
  /** For a skip: the flag or fixture that would let it run. */
  needs?: string;
  /** Time spent waiting for shared prerequisites before the check's own run. */
  waited_ms?: number;
  /** Set on webhooks.delivery-signature: the signature profile the deployment matched. */
  profile?: string;
  facts?: Record<string, string>;
  /** Parts of the check not judged (the owner's key refused on the same request, a shape certify cannot sign), with why. */
  skipped_cells?: Array<{ cell: string; reason: string }>;
  /** A MUST failure the --baseline file accepts (baseline.ts). */
  known_failure?: KnownFailure;
}

/** A known MUST failure of a --baseline file (baseline.ts). */
export interface KnownFailure {
  check: string;
  /** The failure's first line as recorded; compared with numbers and ids masked (failureKey). */
  failure: string;
  reason?: string;
  /** YYYY-MM-DD: the last day it is accepted. */
  expires?: string;
}

/** What the baseline made of a run, in the report's summary (snake_case like the rest of it). */
export interface BaselineSummary {
  file: string;
  /** certified, or known_failures_only (exit 0), incomplete (3), failed (1): the run judged with the baseline. */
  outcome: "certified" | "known_failures_only" | "incomplete" | "failed";
  /** MUST failures the baseline accepts. */
  known: KnownFailure[];
  /** MUST failures it does not accept: unknown checks, or failing otherwise than recorded (`recorded`). */
  new: Array<{ check: string; failure: string; recorded?: string }>;
  /** Known failures past their expiry date that still fail: they fail the run. */
  expired: KnownFailure[];
  /** Known failures whose check now passes: remove them from the file. */
  now_passing: string[];
  /** Known failures whose check did not run this time (skipped, not selected, or not of the level). */
  not_run: string[];
}

export interface GroupSummary {
  group: Group;
  passed: number;
  failed: number;
  skipped: number;
}

/**
 * certified: every MUST check of the level ran and passed. failed: a MUST check failed.
 * incomplete: none failed, but some MUST checks of the level did not run (skipped or not selected).
 */
export type Verdict = "certified" | "failed" | "incomplete";

export interface MustCounts {
  /** MUST checks the level puts in scope. */
  in_scope: number;
  passed: number;
  failed: number;
  skipped: number;
  /** Left out by --only. */
  not_selected: number;
}

/** What would let skipped checks run: one flag or fixture, and the checks it unlocks. */
export interface SkipNeed {
  needs: string;
  must: string[];
  should: string[];
}

export interface ReportSummary {
  verdict: Verdict;
  certified: boolean;
  level: Level;
  target: { base_url: string; rpc_url: string; ws_url: string };
  started_at: string;
  finished_at: string;
  duration_ms: number;
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  must_failed: number;
  should_failed: number;
  must: MustCounts;
  /** The groups --only selected, null when all ran. */
  only: Group[] | null;
  /** Skips grouped by the flag or fixture that would let them run. */
  skip_needs: SkipNeed[];
  /** Skips with no input that would help (nothing to examine, a prerequisite that broke). */
  other_skips: number;
  /** Parts of checks that were not judged, in all (each check lists its own in skipped_cells). */
  skipped_cells: number;
  /** Webhook signature profile the deployment matched, null when no delivery was verified. */
  webhook_profile: string | null;
  groups: GroupSummary[];
  /** Why the run stopped early (SIGINT, SIGTERM, its time bound), null when it ran to the end. */
  interrupted: string | null;
  cleanup: CleanupSummary;
  /** Answers 429 the run waited out and sent again (a rate limit is no failure), and the time it waited. */
  rate_limited: RateLimited;
  /** With --baseline: the run judged with the team's known failures (baseline.ts); it decides the exit. */
  baseline?: BaselineSummary;
}

/** What the run removed from the deployment, and what it could not (to remove by hand). */
export interface CleanupSummary {
  /** Records of earlier certify runs, cut short before their clean-up, removed before the checks. */
  earlier_runs_removed: string[];
  /** Records this run created and removed (or found already gone) when it ended. */
  removed: number;
  /** Records this run created and could not remove, with the reason. */
  left: Array<{ what: string; reason: string }>;
}

export interface Report {
  summary: ReportSummary;
  /** What the preflight found before the suite ran. */
  preflight: PreflightStep[];
  checks: ReportCheck[];
}

export function buildReport(input: {
  target: Target;
  options: RunOptions;
  startedAt: Date;
  finishedAt: Date;
  results: CheckResult[];
  /** Checks of the level that --only left out. */
  notSelected?: readonly Check[];
  preflight?: PreflightStep[];
  redactor: Redactor;
  interrupted?: string | null;
  cleanup?: CleanupSummary;
  rateLimited?: RateLimited;
}): Report {
  const { results, redactor } = input;
  const checks = results.map(toReportCheck);
  const count = (status: CheckStatus, list: ReportCheck[] = checks) => list.filter((c) => c.status === status).length;
  const mustFailed = checks.filter((c) => c.status === "failed" && c.severity === "MUST").length;
  const groups = GROUPS.filter((g) => checks.some((c) => c.group === g)).map((group) => {
    const inGroup = checks.filter((c) => c.group === group);
    return {
      group,
      passed: count("passed", inGroup),
      failed: count("failed", inGroup),
      skipped: count("skipped", inGroup),
    };
  });
  const profile = checks.find((c) => c.profile)?.profile ?? null;
  const must = mustCounts(checks, input.notSelected ?? []);
  const verdict: Verdict =
    must.failed > 0 ? "failed" : must.skipped + must.not_selected > 0 ? "incomplete" : "certified";
  return redactor.value({
    summary: {
      verdict,
      certified: verdict === "certified",
      level: input.options.level,
      target: { base_url: input.target.baseUrl, rpc_url: input.target.rpcUrl, ws_url: input.target.wsUrl },
      started_at: input.startedAt.toISOString(),
      finished_at: input.finishedAt.toISOString(),
      duration_ms: input.finishedAt.getTime() - input.startedAt.getTime(),
      total: checks.length,
      passed: count("passed"),
      failed: count("failed"),
      skipped: count("skipped"),
      must_failed: mustFailed,
      should_failed: checks.filter((c) => c.status === "failed" && c.severity === "SHOULD").length,
      must,
      only: input.options.only ? [...input.options.only] : null,
      skip_needs: skipNeeds(checks),
      other_skips: checks.filter((c) => c.status === "skipped" && !c.needs).length,
      skipped_cells: checks.reduce((n, c) => n + (c.skipped_cells?.length ?? 0), 0),
      webhook_profile: profile,
      groups,
      interrupted: input.interrupted ?? null,
      cleanup: input.cleanup ?? { earlier_runs_removed: [], removed: 0, left: [] },
      rate_limited: { ...(input.rateLimited ?? { requests: 0, waited_ms: 0 }) },
    },
    preflight: input.preflight ?? [],
    checks,
  });
}

function mustCounts(checks: ReportCheck[], notSelected: readonly Check[]): MustCounts {
  const must = checks.filter((c) => c.severity === "MUST");
  const n = (status: CheckStatus) => must.filter((c) => c.status === status).length;
  const missing = notSelected.filter((c) => c.severity === "MUST").length;
  return {
    in_scope: must.length + missing,
    passed: n("passed"),
    failed: n("failed"),
    skipped: n("skipped"),
    not_selected: missing,
  };
}

function skipNeeds(checks: ReportCheck[]): SkipNeed[] {
  const byNeed = new Map<string, SkipNeed>();
  for (const c of checks) {
    if (c.status !== "skipped" || !c.needs) continue;
    const entry = byNeed.get(c.needs) ?? { needs: c.needs, must: [], should: [] };
    (c.severity === "MUST" ? entry.must : entry.should).push(c.id);
    byNeed.set(c.needs, entry);
  }
  return [...byNeed.values()].sort((a, b) => b.must.length - a.must.length);
}

function toReportCheck(r: CheckResult): ReportCheck {
  const out: ReportCheck = {
    id: r.id,
    group: r.group,
    title: r.title,
    severity: r.severity,
    status: r.status,
    seed_ref: r.seedRef,
    level: r.level,
    duration_ms: r.durationMs,
    message: r.message ?? null,
    evidence: r.evidence ?? null,
    statements: r.statements,
  };
  if (r.failureKind) out.failure_kind = r.failureKind;
  if (r.skipKind) out.skip_kind = r.skipKind;
  if (r.needs) out.needs = r.needs;
  if (r.waitedMs) out.waited_ms = r.waitedMs;
  if (r.facts?.profile) out.profile = r.facts.profile;
  if (r.facts && Object.keys(r.facts).length > 0) out.facts = r.facts;
  if (r.skippedCells?.length) out.skipped_cells = r.skippedCells;
  return out;
}

/** Exit statuses of `custody certify` (docs/guides/certify-in-ci.md, "Read the verdict"). */
export const EXIT = {
  certified: 0,
  /** A MUST check failed. */
  failed: 1,
  /** Bad usage, or the preflight stopped the run (unreachable, not the service, refused credentials). */
  usageOrPreflight: 2,
  /** No MUST check failed, but some MUST checks of the level did not run: not a certification. */
  incomplete: 3,
} as const;

export function exitCodeOf(report: Report): number {
  const b = report.summary.baseline;
  if (b) return b.outcome === "known_failures_only" ? EXIT.certified : EXIT[b.outcome];
  return EXIT[report.summary.verdict === "certified" ? "certified" : report.summary.verdict];
}
