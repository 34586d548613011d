// Runs the catalog against one target: a preflight, the removal of what earlier cut-short runs left,
// then every check the level and --only select, with a concurrency limit and a time limit each, then
// the removal of everything the run created. A check that throws or hangs is a failure with the
// reason; the run itself never crashes and always produces a report (or a preflight failure), also
// when it is interrupted.
import { setMaxListeners } from "node:events";
import { CATALOG } from "../checks/catalog.ts";
import type { Check } from "../checks/check.ts";
import { outcomeOf } from "../checks/outcome.ts";
import type { CheckResult, Group, Outcome, Prerequisite } from "../checks/types.ts";
import { GROUPS } from "../checks/types.ts";
import { createFixtures } from "../provision/index.ts";
import { buildReport, type Report } from "../report/model.ts";
import { HttpProbe, type ProbeOptions } from "../transport/probe.ts";
import { redactorFor } from "../transport/redact.ts";
import type { CleanupResult } from "./cleanup.ts";
import type { RunOptions, Target } from "./config.ts";
import { CheckContext, Suite } from "./context.ts";
import { selectChecks } from "./levels.ts";
import { runBoundMs } from "./marker.ts";
import type { OperationInfo } from "./operations.ts";
import { severityIn } from "./plan.ts";
import { type PreflightFailure, type PreflightResult, preflight } from "./preflight.ts";
import { onProgress } from "./progress.ts";
import { Slots } from "./slots.ts";
import { sweepCertifyRecords } from "./sweep.ts";

export type RunEvent =
  | { type: "start"; checks: Check[]; target: Target; options: RunOptions }
  | { type: "check-start"; check: Check }
  | { type: "check-end"; result: CheckResult }
  | { type: "group-end"; group: Group; results: CheckResult[] }
  | { type: "end"; report: Report };

export interface RunInput {
  target: Target;
  options: RunOptions;
  operations: OperationInfo[];
  /** Defaults to the full catalog. */
  catalog?: readonly Check[];
  onEvent?: (event: RunEvent) => void;
  /** Sees every HTTP exchange of the run, redacted (certify --har). */
  onExchange?: ProbeOptions["onExchange"];
  /** Tests of the runner alone may skip the preflight (default: run it). */
  preflight?: boolean;
  /** Aborted on SIGINT/SIGTERM (its reason names the signal): the run stops, cleans up and reports. */
  signal?: AbortSignal;
}

export type RunResult =
  | { kind: "completed"; report: Report }
  | { kind: "preflight"; failure: PreflightFailure; preflight: PreflightResult };

export async function runSuite(input: RunInput): Promise<RunResult> {
  const { target, options } = input;
  const redactor = redactorFor(target);
  const http = new HttpProbe({
    timeoutMs: options.timeoutMs,
    maxBodyBytes: options.maxBodyBytes,
    redactor,
    ...(input.onExchange ? { onExchange: input.onExchange } : {}),
  });
  const stop = new AbortController();
  // Every waiting check listens for the stop: many listeners on one signal is the design here.
  setMaxListeners(0, stop.signal);
  const suite = new Suite(target, options, input.operations, redactor, http, stop.signal);
  suite.fixtures = createFixtures(suite);
  // An interruption (SIGINT, SIGTERM) and the run's own bound stop the checks the same way.
  const interrupt = (reason: string) => stop.signal.aborted || stop.abort(reason);
  const onSignal = () => interrupt(String(input.signal?.reason ?? "interrupted"));
  if (input.signal?.aborted) onSignal();
  input.signal?.addEventListener("abort", onSignal, { once: true });
  const bound = setTimeout(
    () => interrupt(`the run reached its bound of ${Math.round(runBoundMs(options.timeoutMs) / 60_000)} min`),
    runBoundMs(options.timeoutMs) - BOUND_MARGIN_MS,
  );
  bound.unref();
  let cleaned: Promise<CleanupResult> | undefined;
  const cleanUpOnce = () => (cleaned ??= cleanUp(suite));
  try {
    const selection = selectChecks(input.catalog ?? CATALOG, options.level, options.only);
    const checks = selection.selected;
    let checked: PreflightResult = { steps: [] };
    if (input.preflight !== false) {
      checked = await preflight({
        target,
        http,
        redactor,
        timeoutMs: options.timeoutMs,
        nodeAccess: checks.some((c) => c.group === "rpc"),
      });
      if (checked.failure) return { kind: "preflight", failure: checked.failure, preflight: checked };
    }
    const startedAt = new Date();
    input.onEvent?.({ type: "start", checks, target, options });
    const warm = prerequisitesToWarm(suite, checks);
    suite.fixtures.warm(warm);
    // Records of earlier runs go before the checks (while the fixtures are being set up), in the
    // workspace the run uses anyway.
    if (warm.has("workspace")) await suite.fixtures.settle("workspace");
    const earlier = stop.signal.aborted ? undefined : await sweepCertifyRecords(suite, "expired");
    const results = await runChecks(suite, checks, options, input.onEvent);
    const cleanup = await cleanUpOnce();
    const report = buildReport({
      target,
      options,
      startedAt,
      finishedAt: new Date(),
      results,
      // A check that is a MUST only with an input the run lacks is no MUST left out either.
      notSelected: selection.notSelected.map((c) => ({
        ...c,
        severity: severityIn(c, suite.level, target, suite.supply),
      })),
      preflight: checked.steps,
      redactor,
      interrupted: stop.signal.aborted ? String(stop.signal.reason) : null,
      cleanup: { earlier_runs_removed: earlier?.removed ?? [], removed: cleanup.removed, left: cleanup.left },
      rateLimited: http.rateLimited,
    });
    input.onEvent?.({ type: "end", report });
    return { kind: "completed", report };
  } finally {
    clearTimeout(bound);
    input.signal?.removeEventListener("abort", onSignal);
    await cleanUpOnce();
    stop.abort("the run ended");
    await http.close();
  }
}

/** Stops the run this long before its lease ends, to leave time for its clean-up. */
const BOUND_MARGIN_MS = 60_000;

/** Everything the run created goes: what it registered to undo, then whatever else carries its marker. */
async function cleanUp(suite: Suite): Promise<CleanupResult> {
  const own = await sweepCertifyRecords(suite, "own");
  const registered = await suite.cleanup.run(suite.options.timeoutMs);
  return { removed: registered.removed + own.removed.length, left: [...registered.left, ...own.left] };
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

/**
 * Every check starts at once and waits, without holding a slot, for the checks it must follow and
 * for its prerequisites; only its own run takes one of the `concurrency` slots.
 */
async function runChecks(
  suite: Suite,
  checks: Check[],
  options: RunOptions,
  onEvent?: (e: RunEvent) => void,
): Promise<CheckResult[]> {
  const results = new Map<string, CheckResult>();
  const selected = new Set(checks.map((c) => c.id));
  const finished = new Map(checks.map((c) => [c.id, deferred()]));
  const slots = new Slots(options.concurrency);
  const remainingInGroup = new Map<Group, number>();
  for (const c of checks) remainingInGroup.set(c.group, (remainingInGroup.get(c.group) ?? 0) + 1);

  await Promise.all(
    checks.map(async (check) => {
      try {
        const after = [...(check.after ?? []), ...(options.level === "seed" ? (check.afterAtSeed ?? []) : [])];
        await Promise.all(
          after.filter((id) => selected.has(id) && id !== check.id).map((id) => finished.get(id)!.promise),
        );
        const result = await runOne(suite, check, options, slots, onEvent);
        results.set(check.id, result);
        onEvent?.({ type: "check-end", result });
        const left = (remainingInGroup.get(check.group) ?? 1) - 1;
        remainingInGroup.set(check.group, left);
        if (left === 0)
          onEvent?.({
            type: "group-end",
            group: check.group,
            results: checks.filter((c) => c.group === check.group).map((c) => results.get(c.id)!),
          });
      } finally {
        finished.get(check.id)!.resolve();
      }
    }),
  );
  return orderByCatalog(checks, results);
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function orderByCatalog(checks: Check[], results: Map<string, CheckResult>): CheckResult[] {
  const groupIndex = (g: Group) => GROUPS.indexOf(g);
  return checks
    .map((c) => results.get(c.id))
    .filter((r): r is CheckResult => r !== undefined)
    .sort((a, b) => groupIndex(a.group) - groupIndex(b.group));
}

/**
 * One check: its prerequisites (shared fixtures, each bounded by the fixture cap), then, in a slot,
 * its own run under its time limit (withTimeLimit). The reported duration is the check's own run; the
 * wait for shared fixtures and for a slot is reported apart (waitedMs). An interrupted run stops
 * what runs and starts nothing more. Never throws.
 */
export async function runOne(
  suite: Suite,
  check: Check,
  options: RunOptions,
  slots: Slots,
  onEvent?: (e: RunEvent) => void,
): Promise<CheckResult> {
  onEvent?.({ type: "check-start", check });
  const waitStarted = Date.now();
  const limitMs = Math.round(options.timeoutMs * (check.timeoutScale ?? 1));
  const controller = new AbortController();
  const ctx = new CheckContext(suite, controller.signal);
  let outcome = suite.signal.aborted
    ? interrupted(suite, "ran")
    : await untilStopped(suite, prerequisitesOf(suite, check), "ran");
  let started = Date.now();
  if (outcome.status === "passed") {
    const release = await slots.acquire(check.timeoutScale ?? 1);
    try {
      started = Date.now();
      outcome = suite.signal.aborted
        ? interrupted(suite, "ran")
        : await withTimeLimit(check, ctx, controller, limitMs, suite.signal);
    } finally {
      release();
    }
  }
  const result = toResult(suite, check, outcome, Date.now() - started, started - waitStarted, ctx.facts);
  if (ctx.skippedCells.length > 0) result.skippedCells = suite.redactor.value(ctx.skippedCells);
  return result;
}

/** The skip of a check the run's interruption kept from running or finishing. */
function interrupted(suite: Suite, what: "ran" | "finished"): Outcome {
  return {
    status: "skipped",
    kind: "interrupted",
    message: `the run was interrupted (${String(suite.signal.reason)}) before this check ${what}`,
  };
}

/** `work`, or the interruption's skip when the run stops first. */
function untilStopped(suite: Suite, work: Promise<Outcome>, what: "ran" | "finished"): Promise<Outcome> {
  return new Promise((resolve) => {
    const onStop = () => resolve(interrupted(suite, what));
    suite.signal.addEventListener("abort", onStop, { once: true });
    void work.then((outcome) => {
      suite.signal.removeEventListener("abort", onStop);
      resolve(outcome);
    });
  });
}

async function prerequisitesOf(suite: Suite, check: Check): Promise<Outcome> {
  await Promise.all((check.awaits ?? []).map((name) => suite.fixtures.settle(name)));
  for (const name of check.requires ?? []) {
    const result = await suite.fixtures.settle(name);
    if (result.ok) continue;
    if (result.failure)
      return { status: "skipped", kind: "prerequisite", message: `prerequisite ${name} failed: ${result.reason}` };
    const out: Outcome = { status: "skipped", kind: result.needs ? "input" : "inapplicable", message: result.reason };
    if (result.needs) out.needs = result.needs;
    return out;
  }
  return { status: "passed" };
}

/** How long a check may take to wind down after its time limit, to say what it was waiting for. */
const WIND_DOWN_MS = 250;

/** However often a check's limit restarts, it stops after this many limits in all. */
const LIMIT_CAP_FACTOR = 10;

/**
 * Runs the check under its limit. The limit restarts whenever one of the check's requests finishes
 * (progress.ts), so it measures how long the target leaves the check without an answer, not how long
 * a loaded machine takes over many answers; LIMIT_CAP_FACTOR limits bound the whole run of it.
 */
async function withTimeLimit(
  check: Check,
  ctx: CheckContext,
  controller: AbortController,
  limitMs: number,
  stopped: AbortSignal,
): Promise<Outcome> {
  let idle: NodeJS.Timeout | undefined;
  let cap: NodeJS.Timeout | undefined;
  let answered = false;
  const run = (async (): Promise<Outcome> => {
    try {
      return (await check.run(ctx)) ?? { status: "passed" };
    } catch (err) {
      return outcomeOf(err);
    }
  })();
  const timedOut = new Promise<"idle" | "cap">((resolve) => {
    // Each answer restarts the same timer (refresh: no new timer per exchange).
    idle = setTimeout(() => resolve("idle"), limitMs);
    onProgress(controller.signal, () => {
      answered = true;
      idle?.refresh();
    });
    cap = setTimeout(() => resolve("cap"), LIMIT_CAP_FACTOR * limitMs);
  });
  const stop = new Promise<"stopped">((resolve) =>
    stopped.addEventListener("abort", () => resolve("stopped"), { once: true }),
  );
  try {
    const first = await Promise.race([run, timedOut, stop]);
    if (first === "stopped") {
      controller.abort();
      await Promise.race([run, delay(WIND_DOWN_MS)]);
      return {
        status: "skipped",
        kind: "interrupted",
        message: `the run was interrupted (${String(stopped.reason)}) before this check finished`,
      };
    }
    if (first !== "idle" && first !== "cap") return first;
    // Cancel what is in flight; a request cut short says what it was waiting for, with evidence.
    controller.abort();
    const late = await Promise.race([run, delay(WIND_DOWN_MS)]);
    const message =
      first === "cap"
        ? `timed out after ${LIMIT_CAP_FACTOR * limitMs} ms in all (${LIMIT_CAP_FACTOR} times the check's time limit; --timeout-ms)`
        : answered
          ? `timed out: no answer for ${limitMs} ms (the check's time limit; --timeout-ms)`
          : `timed out after ${limitMs} ms (the check's time limit; --timeout-ms)`;
    if (late && late.status === "failed")
      return { status: "failed", kind: "timeout", message: `${message}: ${late.message}`, evidence: late.evidence };
    return { status: "failed", kind: "timeout", message };
  } finally {
    clearTimeout(idle);
    clearTimeout(cap);
    controller.abort();
  }
}

function delay(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms).unref());
}

/** Said of a check that is a MUST only with an input this run lacks (severityIn). */
function optInNote(check: Check, result: CheckResult): string {
  return result.severity !== check.severity && result.status === "skipped"
    ? ` (a MUST at --level seed only when ${result.needs ?? "that input"} is given)`
    : "";
}

function toResult(
  suite: Suite,
  check: Check,
  outcome: Outcome,
  durationMs: number,
  waitedMs: number,
  facts: Record<string, string>,
): CheckResult {
  const r = suite.redactor;
  const result: CheckResult = {
    id: check.id,
    group: check.group,
    title: check.title,
    severity: severityIn(check, suite.level, suite.config, suite.supply),
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
  if (outcome.message !== undefined) result.message = r.text(outcome.message + optInNote(check, result));
  if (outcome.status === "failed" && outcome.evidence) result.evidence = r.value(outcome.evidence);
  if (Object.keys(facts).length > 0) result.facts = r.value(facts);
  return result;
}
