// Runs the catalog against one target: a preflight, then every check the level and --only select,
// with a concurrency limit and a time limit each. A check that throws or hangs is a failure with
// the reason; the run itself never crashes and always produces a report (or a preflight failure).
import { CATALOG } from "./catalog.ts";
import type { RunOptions, TargetConfig } from "./config.ts";
import { CheckContext, Suite } from "./context.ts";
import { createFixtures } from "./fixtures/index.ts";
import type { OperationInfo } from "./operations.ts";
import { outcomeOf } from "./outcome.ts";
import { preflight, type PreflightFailure, type PreflightResult } from "./preflight.ts";
import { selectChecks } from "./levels.ts";
import { HttpProbe, type ProbeOptions } from "./probe.ts";
import { Redactor } from "./redact.ts";
import { buildReport, type Report } from "./report/model.ts";
import type { Check } from "./check.ts";
import type { CheckResult, Group, Outcome, Prerequisite } from "./types.ts";
import { GROUPS } from "./types.ts";

export type RunEvent =
  | { type: "start"; checks: Check[]; target: TargetConfig; options: RunOptions }
  | { type: "check-start"; check: Check }
  | { type: "check-end"; result: CheckResult }
  | { type: "group-end"; group: Group; results: CheckResult[] }
  | { type: "end"; report: Report };

export interface RunInput {
  target: TargetConfig;
  options: RunOptions;
  operations: OperationInfo[];
  /** Defaults to the full catalog. */
  catalog?: readonly Check[];
  onEvent?: (event: RunEvent) => void;
  /** Shared with reporters so everything they write is redacted the same way. */
  redactor?: Redactor;
  /** Sees every HTTP exchange of the run, redacted (certify --har). */
  onExchange?: ProbeOptions["onExchange"];
  /** Tests of the runner alone may skip the preflight (default: run it). */
  preflight?: boolean;
}

export type RunResult =
  | { kind: "completed"; report: Report }
  | { kind: "preflight"; failure: PreflightFailure; preflight: PreflightResult };

/** The redactor for a target: its secrets are masked everywhere evidence goes. */
export function redactorFor(target: TargetConfig): Redactor {
  const r = new Redactor();
  for (const creds of [target.admin, target.viewer, target.scoped]) {
    if (!creds) continue;
    r.addSecret(creds.apiSecret);
    r.addKeyId(creds.apiKey);
  }
  r.addSecret(target.rpcApiKey);
  r.addSecret(target.faucetPrivateKey);
  r.addSecret(target.faucetPrivateKey?.replace(/^0x/, ""));
  return r;
}

export async function runSuite(input: RunInput): Promise<RunResult> {
  const { target, options } = input;
  const redactor = input.redactor ?? redactorFor(target);
  const http = new HttpProbe({ timeoutMs: options.timeoutMs, maxBodyBytes: options.maxBodyBytes, redactor, ...(input.onExchange ? { onExchange: input.onExchange } : {}) });
  const stop = new AbortController();
  const suite = new Suite(target, options, input.operations, redactor, http, stop.signal);
  suite.fixtures = createFixtures(suite);
  try {
    const selection = selectChecks(input.catalog ?? CATALOG, options.level, options.only);
    const checks = selection.selected;
    let checked: PreflightResult = { steps: [] };
    if (input.preflight !== false) {
      checked = await preflight({ target, http, redactor, timeoutMs: options.timeoutMs, nodeAccess: checks.some((c) => c.group === "rpc") });
      if (checked.failure) return { kind: "preflight", failure: checked.failure, preflight: checked };
    }
    const startedAt = new Date();
    input.onEvent?.({ type: "start", checks, target, options });
    suite.fixtures.warm(prerequisitesToWarm(suite, checks));
    const results = await runChecks(suite, checks, options, input.onEvent);
    const report = buildReport({ target, options, startedAt, finishedAt: new Date(), results, notSelected: selection.notSelected, preflight: checked.steps, redactor });
    input.onEvent?.({ type: "end", report });
    return { kind: "completed", report };
  } finally {
    await runCleanups(suite);
    stop.abort();
    await http.close();
  }
}

/** Slow prerequisites of the selected checks start at once so their waits overlap. */
function prerequisitesToWarm(suite: Suite, checks: Check[]): Set<Prerequisite> {
  const names = new Set<Prerequisite>();
  for (const check of checks) {
    for (const p of [...(check.requires ?? []), ...(check.awaits ?? [])]) names.add(p);
  }
  if (suite.supply === "create" && checks.some((c) => c.group === "lifecycle")) {
    for (const p of ["wallet", "asset", "peer-asset", "deposit", "withdrawal-executed"] as const) names.add(p);
  }
  return names;
}

async function runChecks(suite: Suite, checks: Check[], options: RunOptions, onEvent?: (e: RunEvent) => void): Promise<CheckResult[]> {
  const results = new Map<string, CheckResult>();
  const selected = new Set(checks.map((c) => c.id));
  const pending = [...checks];
  const running = new Set<Promise<void>>();
  const remainingInGroup = new Map<Group, number>();
  for (const c of checks) remainingInGroup.set(c.group, (remainingInGroup.get(c.group) ?? 0) + 1);

  const ready = (c: Check) => (c.after ?? []).every((id) => !selected.has(id) || results.has(id));
  while (pending.length > 0 || running.size > 0) {
    while (running.size < options.concurrency) {
      const index = pending.findIndex(ready);
      if (index === -1) break;
      const [check] = pending.splice(index, 1);
      const task = runOne(suite, check, options, onEvent).then((result) => {
        results.set(check.id, result);
        onEvent?.({ type: "check-end", result });
        const left = (remainingInGroup.get(check.group) ?? 1) - 1;
        remainingInGroup.set(check.group, left);
        if (left === 0) onEvent?.({ type: "group-end", group: check.group, results: checks.filter((c) => c.group === check.group).map((c) => results.get(c.id)!) });
        running.delete(task);
      });
      running.add(task);
    }
    if (running.size === 0) break; // only unsatisfiable orderings left (cannot happen with catalog ids)
    await Promise.race(running);
  }
  return orderByCatalog(checks, results);
}

function orderByCatalog(checks: Check[], results: Map<string, CheckResult>): CheckResult[] {
  const groupIndex = (g: Group) => GROUPS.indexOf(g);
  return checks
    .map((c) => results.get(c.id))
    .filter((r): r is CheckResult => r !== undefined)
    .sort((a, b) => groupIndex(a.group) - groupIndex(b.group));
}

/**
 * One check: its prerequisites (shared fixtures, each bounded by the fixture cap), then its own run
 * under its time limit. The reported duration is the check's own run; the wait for shared fixtures
 * is reported apart (waitedMs), so no check ever shows more than its limit. Never throws.
 */
export async function runOne(suite: Suite, check: Check, options: RunOptions, onEvent?: (e: RunEvent) => void): Promise<CheckResult> {
  onEvent?.({ type: "check-start", check });
  const waitStarted = Date.now();
  const limitMs = Math.round(options.timeoutMs * (check.timeoutScale ?? 1));
  const controller = new AbortController();
  const ctx = new CheckContext(suite, controller.signal);
  let outcome = await prerequisitesOf(suite, check);
  const started = Date.now();
  if (outcome.status === "passed") outcome = await withTimeLimit(check, ctx, controller, limitMs);
  return toResult(suite, check, outcome, Date.now() - started, started - waitStarted, ctx.facts);
}

async function prerequisitesOf(suite: Suite, check: Check): Promise<Outcome> {
  await Promise.all((check.awaits ?? []).map((name) => suite.fixtures.settle(name)));
  for (const name of check.requires ?? []) {
    const result = await suite.fixtures.settle(name);
    if (result.ok) continue;
    if (result.failure) return { status: "skipped", kind: "prerequisite", message: `prerequisite ${name} failed: ${result.reason}` };
    const out: Outcome = { status: "skipped", kind: result.needs ? "input" : "inapplicable", message: result.reason };
    if (result.needs) out.needs = result.needs;
    return out;
  }
  return { status: "passed" };
}

/** How long a check may take to wind down after its time limit, to say what it was waiting for. */
const WIND_DOWN_MS = 250;

async function withTimeLimit(check: Check, ctx: CheckContext, controller: AbortController, limitMs: number): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const run = (async (): Promise<Outcome> => {
    try {
      return (await check.run(ctx)) ?? { status: "passed" };
    } catch (err) {
      return outcomeOf(err);
    }
  })();
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), limitMs);
  });
  try {
    const first = await Promise.race([run, timedOut]);
    if (first !== "timeout") return first;
    // Cancel what is in flight; a request cut short says what it was waiting for, with evidence.
    controller.abort();
    const late = await Promise.race([run, delay(WIND_DOWN_MS)]);
    const message = `timed out after ${limitMs} ms (the check's time limit; --timeout-ms)`;
    if (late && late.status === "failed") return { status: "failed", kind: "timeout", message: `${message}: ${late.message}`, evidence: late.evidence };
    return { status: "failed", kind: "timeout", message };
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

function delay(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms).unref());
}

function toResult(suite: Suite, check: Check, outcome: Outcome, durationMs: number, waitedMs: number, facts: Record<string, string>): CheckResult {
  const r = suite.redactor;
  const result: CheckResult = {
    id: check.id,
    group: check.group,
    title: check.title,
    severity: check.severity,
    seedRef: check.seedRef,
    level: check.level,
    status: outcome.status,
    durationMs,
    waitedMs,
    statements: [...(check.statements ?? [])],
  };
  if (outcome.status === "failed") result.failureKind = outcome.kind ?? "violation";
  if (outcome.status === "skipped") {
    result.skipKind = outcome.kind ?? (outcome.needs ? "input" : "inapplicable");
    if (outcome.needs) result.needs = outcome.needs;
  }
  if (outcome.message !== undefined) result.message = r.text(outcome.message);
  if (outcome.status === "failed" && outcome.evidence) result.evidence = r.value(outcome.evidence);
  if (Object.keys(facts).length > 0) result.facts = r.value(facts);
  return result;
}

async function runCleanups(suite: Suite): Promise<void> {
  for (const cleanup of suite.cleanups.reverse()) {
    await cleanup().catch(() => undefined);
  }
}
