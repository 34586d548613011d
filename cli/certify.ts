// `custody certify`: certifies a deployment given its URLs and credentials (flags or environment),
// or the embedded reference deployment with --sandbox. Exit 0 certified (every MUST check of the
// level ran and passed), 1 a MUST check failed, 2 bad usage or the preflight stopped the run,
// 3 no MUST check failed but some did not run. Secrets are never printed. SIGINT/SIGTERM stop the
// checks, remove what the run created, write the reports and exit 130/143 (a second signal: at once).

import { GROUPS, type Group, type Level } from "../conformance/checks/types.ts";
import { consoleReporter } from "../conformance/report/console.ts";
import { EXIT, exitCodeOf } from "../conformance/report/model.ts";
import { redactConsole, writeReports } from "../conformance/report/write.ts";
import { DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT_MS, type RunOptions, type Target } from "../conformance/run/config.ts";
import type { OperationInfo } from "../conformance/run/operations.ts";
import { supplyMode } from "../conformance/run/supply.ts";
import { DEFAULT_MAX_BODY_BYTES } from "../conformance/transport/probe.ts";
import { type BaselineJudge, baselineJudge } from "./certify-baseline.ts";
import { fuzzBanner, fuzzCatalog, fuzzOptionsOf } from "./certify-fuzz.ts";
import { harRecorder, writeHar } from "./certify-har.ts";
import { printPlan } from "./certify-plan.ts";
import { type SandboxHandle, startSandboxWorker } from "./certify-sandbox.ts";
import { CERTIFY_COMMAND, CERTIFY_OPTIONS } from "./commands/certify.ts";
import { ConfigError } from "./config-file.ts";
import { configOf, namedHint, withConfig } from "./config-values.ts";
import { type FlagValues, parseFlags } from "./flags.ts";
import { helpText } from "./help.ts";
import { Interruption } from "./interruption.ts";
import { resolveTarget } from "./target.ts";
import { UsageError } from "./usage-error.ts";

export interface CertifyIo {
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  env?: NodeJS.ProcessEnv;
  /** Tests pass their own operation table; the CLI reads generated/operations.ts. */
  operations?: OperationInfo[];
  /** Where a custody.config.* is looked for (default: the working directory). */
  cwd?: string;
  /** false: leave SIGINT/SIGTERM alone (default: the first stops the run, cleanly). */
  signals?: boolean;
}

const MIB = 1024 * 1024;

export const CERTIFY_USAGE = helpText(CERTIFY_COMMAND);

/** The two lines a usage error ends with (the full text is --help). */
const SHORT_USAGE = `usage: custody certify --base-url U --rpc-url R --api-key K --api-secret S --rpc-api-key RK [options]
       custody certify --target NAME | --sandbox [options]     (custody certify --help lists every option)`;

type Values = FlagValues<typeof CERTIFY_OPTIONS>;

export async function run(argv: string[], io: CertifyIo = {}): Promise<number> {
  const stdout = io.stdout ?? ((t: string) => void process.stdout.write(t));
  const stderr = io.stderr ?? ((t: string) => void process.stderr.write(t));
  const env = io.env ?? process.env;
  let values: Values;
  try {
    values = parseFlags(argv, CERTIFY_OPTIONS).values;
  } catch (err) {
    stderr(`custody certify: ${(err as Error).message}\n${SHORT_USAGE}\n`);
    return EXIT.usageOrPreflight;
  }
  if (values.help) {
    stdout(`${CERTIFY_USAGE}\n`);
    return 0;
  }
  let sandbox: Promise<SandboxHandle> | undefined;
  const interruption = io.signals === false ? undefined : new Interruption(stderr);
  try {
    const config = configOf(values.config, { cwd: io.cwd, env });
    values = withConfig(
      values,
      config,
      "certify",
      values.target === undefined ? undefined : { kind: "targets", name: values.target },
      env,
    );
    if (values.target !== undefined && config === undefined)
      throw new ConfigError("--target needs a config file with targets (custody init writes one)");
    const options = runOptions(values, env);
    fuzzOptionsOf(values); // a wrong --fuzz value is named before a sandbox starts
    const baseline = baselineJudge(values.baseline, values["write-baseline"]); // a bad file too
    // The sandbox starts in its own thread while this one loads the suite.
    if (values.sandbox) sandbox = startSandboxWorker();
    const [operations, handle] = await Promise.all([io.operations ?? loadOperations(), sandbox]);
    const target = resolveTarget(
      {
        values,
        declared: CERTIFY_OPTIONS,
        env,
        sandbox: () => handle,
        sandboxSource: "--sandbox",
        missingHint: `; or use --sandbox${namedHint(config, "targets")}`,
      },
      options.level,
    );
    if (interruption?.signal.aborted) return interruption.exitCode;
    if (values.plan) return await printPlan(target, options, stdout, stderr); // certify-plan.ts
    const code = await certify({
      target,
      options,
      operations,
      values,
      stdout,
      stderr,
      baseline,
      signal: interruption?.signal,
    });
    return interruption?.signal.aborted ? interruption.exitCode : code;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    stderr(`custody certify: ${message}${err instanceof UsageError ? `\n${SHORT_USAGE}` : ""}\n`);
    return EXIT.usageOrPreflight;
  } finally {
    await sandbox?.then((s) => s.close()).catch(() => undefined);
    interruption?.dispose();
  }
}

async function loadOperations(): Promise<OperationInfo[]> {
  return (await import("../conformance/run/operations.ts")).loadGeneratedOperations();
}

interface CertifyRun {
  target: Target;
  options: RunOptions;
  operations: OperationInfo[];
  values: Values;
  /** --baseline: known failures, judged apart. */
  baseline: BaselineJudge;
  stdout: (t: string) => void;
  stderr: (t: string) => void;
  signal?: AbortSignal;
}

async function certify({
  target,
  options,
  operations,
  values,
  stdout,
  stderr,
  baseline,
  signal,
}: CertifyRun): Promise<number> {
  // The suite (every check, and what they import) loads here, while a sandbox worker starts.
  const [{ runSuite }, { redactorFor }, { CATALOG }] = await Promise.all([
    import("../conformance/run/runner.ts"),
    import("../conformance/transport/redact.ts"),
    import("../conformance/checks/catalog.ts"),
  ]);
  const redactor = redactorFor(target);
  const reporter = baseline.reporter(
    consoleReporter({
      write: (t) => stdout(redactor.text(t)),
      color: !values["no-color"] && process.stdout.isTTY === true,
      verbose: !values.quiet,
    }),
  );
  const restoreConsole = redactConsole(redactor);
  const fuzz = fuzzOptionsOf(values);
  if (fuzz) stdout(fuzzBanner(fuzz));
  const har = harRecorder(values.har);
  let result;
  try {
    result = await runSuite({
      target,
      options,
      operations,
      onEvent: reporter,
      catalog: [...CATALOG, ...(await fuzzCatalog(fuzz, operations, options.level, CATALOG))],
      ...(har ? { onExchange: har.record } : {}),
      ...(signal ? { signal } : {}),
    });
  } finally {
    restoreConsole();
  }
  if (result.kind === "preflight") {
    stderr(result.failure.lines.map((l) => `custody certify: ${redactor.text(l)}\n`).join(""));
    return EXIT.usageOrPreflight;
  }
  const report = baseline.judge(result.report); // --baseline: the known failures apart
  const files = { json: values.json, junit: values.junit, html: values.html };
  for (const [kind, file] of writeReports(report, files, redactor)) stdout(`${kind} report written to ${file}\n`);
  if (har && values.har) stdout(`HAR (${har.size} exchanges) written to ${writeHar(values.har, har, redactor)}\n`);
  const written = baseline.write(report);
  if (written) stdout(written);
  return exitCodeOf(report);
}

function runOptions(v: Values, env: NodeJS.ProcessEnv): RunOptions {
  const problems: string[] = [];
  const level = (v.level ?? "full") as Level;
  if (level !== "seed" && level !== "full") problems.push(`--level must be seed or full, not "${v.level}"`);
  let only: Group[] | undefined;
  if (v.only) {
    only = v.only
      .split(",")
      .map((g) => g.trim())
      .filter(Boolean) as Group[];
    const unknown = only.filter((g) => !(GROUPS as readonly string[]).includes(g));
    if (unknown.length > 0) problems.push(`--only: unknown group ${unknown.join(", ")} (groups: ${GROUPS.join(", ")})`);
  }
  const options: RunOptions = {
    level,
    only,
    timeoutMs: positiveInt(v["timeout-ms"], "--timeout-ms", DEFAULT_TIMEOUT_MS, problems),
    concurrency: positiveInt(v.concurrency, "--concurrency", DEFAULT_CONCURRENCY, problems),
    maxBodyBytes:
      MIB *
      positiveInt(
        v["max-body-mib"] ?? (env.CUSTODY_MAX_BODY_MIB || undefined),
        "--max-body-mib (CUSTODY_MAX_BODY_MIB)",
        DEFAULT_MAX_BODY_BYTES / MIB,
        problems,
      ),
    // Decided once: fixtures come from flags, or are created at --level full and against the sandbox.
    supply: supplyMode(level, v.sandbox === true || v["create-fixtures"] === true),
  };
  if (problems.length > 0) throw new UsageError(problems.join("; "));
  return options;
}

function positiveInt(raw: string | undefined, flag: string, fallback: number, problems: string[]): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) <= 0) problems.push(`${flag} must be a positive integer, not "${raw}"`);
  return Number(raw);
}
