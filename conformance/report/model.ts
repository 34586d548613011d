// The report every reporter renders: the JSON shape other tools read (snake_case, stable).
import type { RunOptions, TargetConfig } from "../config.ts";
import type { Redactor } from "../redact.ts";
import type { CheckResult, CheckStatus, Evidence, Group, Level, Severity } from "../types.ts";
import { GROUPS } from "../types.ts";

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
  /** Set on webhooks.delivery-signature: the signature profile the deployment matched. */
  profile?: string;
  facts?: Record<string, string>;
}

export interface GroupSummary {
  group: Group;
  passed: number;
  failed: number;
  skipped: number;
}

export interface ReportSummary {
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
  /** Webhook signature profile the deployment matched, null when no delivery was verified. */
  webhook_profile: string | null;
  groups: GroupSummary[];
}

export interface Report {
  summary: ReportSummary;
  checks: ReportCheck[];
}

export function buildReport(input: {
  target: TargetConfig;
  options: RunOptions;
  startedAt: Date;
  finishedAt: Date;
  results: CheckResult[];
  redactor: Redactor;
}): Report {
  const { results, redactor } = input;
  const checks = results.map(toReportCheck);
  const count = (status: CheckStatus, list: ReportCheck[] = checks) => list.filter((c) => c.status === status).length;
  const mustFailed = checks.filter((c) => c.status === "failed" && c.severity === "MUST").length;
  const groups = GROUPS.filter((g) => checks.some((c) => c.group === g)).map((group) => {
    const inGroup = checks.filter((c) => c.group === group);
    return { group, passed: count("passed", inGroup), failed: count("failed", inGroup), skipped: count("skipped", inGroup) };
  });
  const profile = checks.find((c) => c.profile)?.profile ?? null;
  return redactor.value({
    summary: {
      certified: mustFailed === 0,
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
      webhook_profile: profile,
      groups,
    },
    checks,
  });
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
  };
  if (r.facts?.profile) out.profile = r.facts.profile;
  if (r.facts && Object.keys(r.facts).length > 0) out.facts = r.facts;
  return out;
}

/** 0 when every MUST check passed, 1 otherwise. */
export function exitCodeOf(report: Report): 0 | 1 {
  return report.summary.certified ? 0 : 1;
}
