// `custody certify`: certifies a deployment given its URLs and credentials (flags or environment),
// or the embedded reference deployment with --sandbox. Exit 0 certified (every MUST check of the
// level ran and passed), 1 a MUST check failed, 2 bad usage or the preflight stopped the run,
// 3 no MUST check failed but some did not run. Secrets are never printed. SIGINT/SIGTERM stop the
// checks, remove what the run created, write the reports and exit 130/143 (a second signal: at once).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT_MS, defaultWsUrl, type Credentials, type OtherTenant, type RunOptions, type TargetConfig } from "../conformance/config.ts";
import type { OperationInfo } from "../conformance/operations.ts";
import { DEFAULT_MAX_BODY_BYTES } from "../conformance/probe.ts";
import { consoleReporter } from "../conformance/report/console.ts";
import { renderHtml } from "../conformance/report/html.ts";
import { renderJson } from "../conformance/report/json.ts";
import { renderJunit } from "../conformance/report/junit.ts";
import { EXIT, exitCodeOf, type Report } from "../conformance/report/model.ts";
import { supplyMode } from "../conformance/supply.ts";
import { startSandboxWorker, type SandboxHandle } from "./certify-sandbox.ts";
import { Interruption } from "./interruption.ts";
import type { Redactor } from "../conformance/redact.ts";
import { GROUPS, type Group, type Level } from "../conformance/types.ts";
import { parseFlags, type FlagValues } from "./flags.ts";
import { UsageError } from "./usage-error.ts";
import { fuzzBanner, fuzzCatalog, fuzzOptionsOf } from "./certify-fuzz.ts";
import { harRecorder, writeHar } from "./certify-har.ts";
import { CERTIFY_COMMAND, CERTIFY_OPTIONS } from "./commands/certify.ts";
import { ConfigError } from "./config-file.ts";
import { configOf, namedHint, withConfig } from "./config-values.ts";
import { helpText } from "./help.ts";
import { walletApiBaseUrl } from "../runtime/base-url.ts";
import { baselineJudge, type BaselineJudge } from "./certify-baseline.ts";
import { printPlan } from "./certify-plan.ts";

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
    values = withConfig(values, config, "certify", values.target === undefined ? undefined : { kind: "targets", name: values.target }, env);
    if (values.target !== undefined && config === undefined) throw new ConfigError("--target needs a config file with targets (custody init writes one)");
    const options = runOptions(values, env);
    fuzzOptionsOf(values); // a wrong --fuzz value is named before a sandbox starts
    const baseline = baselineJudge(values.baseline, values["write-baseline"]); // a bad file too
    // The sandbox starts in its own thread while this one loads the suite.
    if (values.sandbox) sandbox = startSandboxWorker();
    const [operations, handle] = await Promise.all([io.operations ?? loadOperations(), sandbox]);
    const target = targetConfig(values, env, options.level, handle, namedHint(config, "targets"));
    if (interruption?.signal.aborted) return interruption.exitCode;
    if (values.plan) return await printPlan(target, options, stdout, stderr); // certify-plan.ts
    const code = await certify(target, options, operations, values, stdout, stderr, baseline, interruption?.signal);
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
  return (await import("../conformance/operations.ts")).loadGeneratedOperations();
}

async function certify(
  target: TargetConfig,
  options: RunOptions,
  operations: OperationInfo[],
  values: Values,
  stdout: (t: string) => void,
  stderr: (t: string) => void,
  baseline: BaselineJudge,
  signal?: AbortSignal,
): Promise<number> {
  // The suite (every check, and what they import) loads here, while a sandbox worker starts.
  const [{ redactorFor, runSuite }, { CATALOG }] = await Promise.all([import("../conformance/runner.ts"), import("../conformance/catalog.ts")]);
  const redactor = redactorFor(target);
  const reporter = baseline.reporter(consoleReporter({ write: (t) => stdout(redactor.text(t)), color: !values["no-color"] && process.stdout.isTTY === true, verbose: !values.quiet }));
  const restoreConsole = redactConsole(redactor);
  const fuzz = fuzzOptionsOf(values);
  if (fuzz) stdout(fuzzBanner(fuzz));
  const har = harRecorder(values.har);
  let result;
  try {
    result = await runSuite({ target, options, operations, onEvent: reporter, redactor, catalog: [...CATALOG, ...(await fuzzCatalog(fuzz, operations, options.level, CATALOG))], ...(har ? { onExchange: har.record } : {}), ...(signal ? { signal } : {}) });
  } finally {
    restoreConsole();
  }
  if (result.kind === "preflight") {
    stderr(result.failure.lines.map((l) => `custody certify: ${redactor.text(l)}\n`).join(""));
    return EXIT.usageOrPreflight;
  }
  const report = baseline.judge(result.report); // --baseline: the known failures apart
  for (const [kind, file] of writeReports(report, values, redactor)) stdout(`${kind} report written to ${file}\n`);
  if (har && values.har) stdout(`HAR (${har.size} exchanges) written to ${writeHar(values.har, har, redactor)}\n`);
  const written = baseline.write(report);
  if (written) stdout(written);
  return exitCodeOf(report);
}

function writeReports(report: Report, values: Values, redactor: Redactor): Array<[string, string]> {
  const written: Array<[string, string]> = [];
  const outputs: Array<[string | undefined, (r: Report) => string]> = [
    [values.json, renderJson],
    [values.junit, renderJunit],
    [values.html, renderHtml],
  ];
  for (const [i, [file, render]] of outputs.entries()) {
    if (!file) continue;
    mkdirSync(dirname(file), { recursive: true });
    // Everything was redacted when captured; this pass is the last safety net.
    writeFileSync(file, redactor.text(render(report)));
    written.push([["JSON", "JUnit", "HTML"][i], resolve(file)]);
  }
  return written;
}

/** Third-party libraries (the Substrate client, for one) log URLs with api_key; mask them during the run. */
function redactConsole(redactor: Redactor): () => void {
  const methods = ["log", "info", "warn", "error", "debug"] as const;
  const saved = methods.map((m) => console[m]);
  for (const m of methods) {
    const original = console[m];
    console[m] = (...args: unknown[]) => original(...args.map((a) => (typeof a === "string" ? redactor.url(a) : a instanceof Error ? redactor.url(a.message) : a)));
  }
  return () => methods.forEach((m, i) => (console[m] = saved[i]));
}

function runOptions(v: Values, env: NodeJS.ProcessEnv): RunOptions {
  const problems: string[] = [];
  const level = (v.level ?? "full") as Level;
  if (level !== "seed" && level !== "full") problems.push(`--level must be seed or full, not "${v.level}"`);
  let only: Group[] | undefined;
  if (v.only) {
    only = v.only.split(",").map((g) => g.trim()).filter(Boolean) as Group[];
    const unknown = only.filter((g) => !(GROUPS as readonly string[]).includes(g));
    if (unknown.length > 0) problems.push(`--only: unknown group ${unknown.join(", ")} (groups: ${GROUPS.join(", ")})`);
  }
  const options: RunOptions = {
    level,
    only,
    timeoutMs: positiveInt(v["timeout-ms"], "--timeout-ms", DEFAULT_TIMEOUT_MS, problems),
    concurrency: positiveInt(v.concurrency, "--concurrency", DEFAULT_CONCURRENCY, problems),
    maxBodyBytes: MIB * positiveInt(v["max-body-mib"] ?? (env.CUSTODY_MAX_BODY_MIB || undefined), "--max-body-mib (CUSTODY_MAX_BODY_MIB)", DEFAULT_MAX_BODY_BYTES / MIB, problems),
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

function targetConfig(v: Values, env: NodeJS.ProcessEnv, level: Level, sandbox?: SandboxHandle, hint = ""): TargetConfig {
  type TextFlag = { [K in keyof Values]-?: Values[K] extends string | undefined ? K : never }[keyof Values];
  const envOf = (flag: TextFlag): string => (CERTIFY_OPTIONS[flag] as { env?: string }).env ?? "";
  const pick = (flag: TextFlag, fromSandbox?: string): string | undefined => {
    const name = envOf(flag);
    const value = v[flag] ?? (name ? env[name] : undefined) ?? fromSandbox;
    return value === "" ? undefined : value;
  };
  const missing: string[] = [];
  const required = (flag: TextFlag, fromSandbox?: string): string => {
    const value = pick(flag, fromSandbox);
    if (!value) missing.push(`--${flag} (or ${envOf(flag)})`);
    return value ?? "";
  };
  const rawBase = required("base-url", sandbox?.base_url);
  const rawRpc = required("rpc-url", sandbox?.rpc_url);
  const admin = { apiKey: required("api-key", sandbox?.api_key), apiSecret: required("api-secret", sandbox?.api_secret) };
  const rpcApiKey = required("rpc-api-key", sandbox?.rpc_api_key);
  if (missing.length > 0) throw new UsageError(`missing ${missing.join(", ")}${sandbox ? "" : `; or use --sandbox${hint}`}`);
  const baseUrl = walletApiBaseUrl(httpUrl(rawBase, "--base-url"));
  const rpcUrl = httpUrl(rawRpc, "--rpc-url");
  const wsRaw = pick("ws-url", sandbox?.ws_url);
  const wsUrl = wsRaw ? wsUrlOf(wsRaw) : defaultWsUrl(rpcUrl);
  const pair = (keyFlag: TextFlag, secretFlag: TextFlag, s?: { key?: string; secret?: string }): Credentials | undefined => {
    const apiKey = pick(keyFlag, s?.key);
    const apiSecret = pick(secretFlag, s?.secret);
    if (!apiKey && !apiSecret) return undefined;
    if (!apiKey || !apiSecret) throw new UsageError(`--${keyFlag} and --${secretFlag} go together`);
    return { apiKey, apiSecret };
  };
  const listen = v["webhook-listen"];
  let webhookListenHost: string | undefined;
  let webhookListenPort: number | undefined;
  if (listen) {
    const m = /^(.+):(\d+)$/.exec(listen);
    if (!m) throw new UsageError(`--webhook-listen must be HOST:PORT, not "${listen}"`);
    webhookListenHost = m[1].replace(/^\[|\]$/g, "");
    webhookListenPort = Number(m[2]);
  }
  const receiverUrl = pick("webhook-receiver-url");
  const other = otherTenant(admin, pick, sandbox);
  const workspaceId = pick("workspace-id", sandbox?.workspace_id);
  if (other?.workspaceId !== undefined && other.workspaceId === workspaceId) throw new UsageError("--other-workspace-id is the --workspace-id: tenant isolation needs another workspace");
  const solanaRpc = pick("solana-rpc-url", sandbox?.solana_rpc_url);
  const profile = v["webhook-profile"];
  if (profile !== undefined && profile !== "standard-webhooks" && profile !== "canonical-json") {
    throw new UsageError(`--webhook-profile must be standard-webhooks or canonical-json, not "${profile}"`);
  }
  // At full level the sandbox's restricted keys are left out so that createApiKey gets exercised too.
  const restricted =
    sandbox && level === "seed"
      ? { viewer: { key: sandbox.viewer_api_key, secret: sandbox.viewer_api_secret }, scoped: { key: sandbox.scoped_api_key, secret: sandbox.scoped_api_secret } }
      : undefined;
  return {
    baseUrl,
    rpcUrl,
    wsUrl,
    admin,
    rpcApiKey,
    workspaceId,
    viewer: pair("viewer-api-key", "viewer-api-secret", restricted?.viewer),
    scoped: pair("scoped-api-key", "scoped-api-secret", restricted?.scoped),
    ...(other ? { other } : {}),
    faucetPrivateKey: pick("faucet-private-key", sandbox?.faucet_private_key),
    solanaRpcUrl: solanaRpc ? httpUrl(solanaRpc, "--solana-rpc-url") : undefined,
    fixtureIds: {
      walletId: v["wallet-id"],
      assetId: v["asset-id"],
      withdrawalId: v["withdrawal-id"],
      deliveryId: v["delivery-id"],
      webhookId: v["webhook-id"],
    },
    webhookReceiverUrl: receiverUrl ? httpUrl(receiverUrl, "--webhook-receiver-url") : undefined,
    webhookListenHost,
    webhookListenPort,
    webhookProfile: profile,
  };
}

function httpUrl(raw: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`${flag} is not a URL: "${raw}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`${flag} must be http:// or https://, not ${url.protocol}`);
  return raw.replace(/\/+$/, "");
}

function wsUrlOf(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--ws-url is not a URL: "${raw}"`);
  }
  if (url.protocol !== "ws:" && url.protocol !== "wss:") throw new UsageError(`--ws-url must be ws:// or wss://, not ${url.protocol}`);
  return raw;
}

/**
 * The key of a second workspace (flags, environment, or the sandbox's second workspace): the tenant
 * isolation checks run with it. It must not be the --api-key itself.
 */
function otherTenant(admin: Credentials, pick: (flag: "other-api-key" | "other-api-secret" | "other-workspace-id", fromSandbox?: string) => string | undefined, sandbox?: SandboxHandle): OtherTenant | undefined {
  const apiKey = pick("other-api-key", sandbox?.other_api_key);
  const apiSecret = pick("other-api-secret", sandbox?.other_api_secret);
  const workspaceId = pick("other-workspace-id", sandbox?.other_workspace_id);
  if (!apiKey && !apiSecret) {
    if (workspaceId) throw new UsageError("--other-workspace-id needs --other-api-key and --other-api-secret");
    return undefined;
  }
  if (!apiKey || !apiSecret) throw new UsageError("--other-api-key and --other-api-secret go together");
  if (apiKey === admin.apiKey) throw new UsageError("--other-api-key is the --api-key: tenant isolation needs a key of another workspace");
  return { credentials: { apiKey, apiSecret }, ...(workspaceId ? { workspaceId } : {}) };
}
