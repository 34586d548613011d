// `custody certify`: certifies a deployment given its URLs and credentials (flags or environment),
// or the embedded reference deployment with --sandbox. Exit 0 certified (every MUST check of the
// level ran and passed), 1 a MUST check failed, 2 bad usage or the preflight stopped the run,
// 3 no MUST check failed but some did not run. Secrets are never printed. SIGINT/SIGTERM stop the
// checks, remove what the run created, write the reports and exit 130/143 (a second signal: at once).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT_MS, defaultWsUrl, type Credentials, type OtherTenant, type RunOptions, type TargetConfig } from "../conformance/config.ts";
import type { OperationInfo } from "../conformance/operations.ts";
import { consoleReporter } from "../conformance/report/console.ts";
import { renderHtml } from "../conformance/report/html.ts";
import { renderJson } from "../conformance/report/json.ts";
import { renderJunit } from "../conformance/report/junit.ts";
import { EXIT, exitCodeOf, type Report } from "../conformance/report/model.ts";
import { supplyMode } from "../conformance/supply.ts";
import type { Redactor } from "../conformance/redact.ts";
import { GROUPS, type Group, type Level } from "../conformance/types.ts";
import { parseFlags } from "./flags.ts";
import { UsageError } from "./usage-error.ts";
import { FUZZ_FLAGS, FUZZ_USAGE, fuzzBanner, fuzzCatalog, fuzzOptionsOf } from "./certify-fuzz.ts";
import { HAR_FLAGS, HAR_USAGE, harRecorder, writeHar } from "./certify-har.ts";
import { walletApiBaseUrl } from "../runtime/base-url.ts";
import { startSandboxWorker, type SandboxHandle } from "./certify-sandbox.ts";
import { Interruption } from "./interruption.ts";

export interface CertifyIo {
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  env?: NodeJS.ProcessEnv;
  /** Tests pass their own operation table; the CLI reads generated/operations.ts. */
  operations?: OperationInfo[];
  /** false: leave SIGINT/SIGTERM alone (default: the first stops the run, cleanly). */
  signals?: boolean;
}

const OPTIONS = {
  "base-url": { type: "string" },
  "rpc-url": { type: "string" },
  "ws-url": { type: "string" },
  "api-key": { type: "string" },
  "api-secret": { type: "string" },
  "rpc-api-key": { type: "string" },
  "workspace-id": { type: "string" },
  level: { type: "string" },
  only: { type: "string" },
  json: { type: "string" },
  junit: { type: "string" },
  html: { type: "string" },
  "webhook-receiver-url": { type: "string" },
  "webhook-listen": { type: "string" },
  "webhook-profile": { type: "string" },
  "timeout-ms": { type: "string" },
  concurrency: { type: "string" },
  "wallet-id": { type: "string" },
  "asset-id": { type: "string" },
  "withdrawal-id": { type: "string" },
  "delivery-id": { type: "string" },
  "webhook-id": { type: "string" },
  "viewer-api-key": { type: "string" },
  "viewer-api-secret": { type: "string" },
  "scoped-api-key": { type: "string" },
  "scoped-api-secret": { type: "string" },
  "other-api-key": { type: "string" },
  "other-api-secret": { type: "string" },
  "other-workspace-id": { type: "string" },
  "faucet-private-key": { type: "string" },
  sandbox: { type: "boolean" },
  "create-fixtures": { type: "boolean" },
  quiet: { type: "boolean" },
  "no-color": { type: "boolean" },
  help: { type: "boolean", short: "h" },
  ...FUZZ_FLAGS,
  ...HAR_FLAGS,
} as const;

export const CERTIFY_USAGE = `usage: custody certify --base-url U --rpc-url R [--ws-url W] --api-key K --api-secret S --rpc-api-key RK
                      [--workspace-id ID] [--level seed|full] [--only GROUP,...] [--timeout-ms N]
                      [--json FILE] [--junit FILE] [--html FILE] [--webhook-receiver-url PUBLIC_URL]
       custody certify --sandbox [same report options]

target (flag or environment variable):
  --base-url U              CUSTODY_BASE_URL         wallet API base (operation paths start with /api/v1)
  --rpc-url R               CUSTODY_RPC_URL          node access base (HTTP JSON-RPC at R/rpc)
  --ws-url W                CUSTODY_WS_URL           WebSocket URL (default, seed 4.1: wss://{host of R}/ws)
  --api-key K               CUSTODY_API_KEY          HMAC key id (owner or admin)
  --api-secret S            CUSTODY_API_SECRET       its secret (prefer the environment variable)
  --rpc-api-key RK          CUSTODY_RPC_API_KEY      node access key
  --workspace-id ID         CUSTODY_WORKSPACE_ID
seed-level fixtures (ids of existing records; each skipped check names the one it needs):
  --wallet-id --asset-id --withdrawal-id --delivery-id --webhook-id
  --create-fixtures         create them instead, through the spec's assumed operations (createWallet,
                            createWebhook, ...); implied by --level full and by --sandbox
restricted keys (created with createApiKey at --level full when not given):
  --viewer-api-key/--viewer-api-secret      CUSTODY_VIEWER_API_KEY / CUSTODY_VIEWER_API_SECRET
  --scoped-api-key/--scoped-api-secret      CUSTODY_SCOPED_API_KEY / CUSTODY_SCOPED_API_SECRET (balances:read only)
tenant isolation (a key of a second workspace; without it the isolation checks do not run):
  --other-api-key/--other-api-secret        CUSTODY_OTHER_API_KEY / CUSTODY_OTHER_API_SECRET
  --other-workspace-id ID   CUSTODY_OTHER_WORKSPACE_ID   its workspace (found with its key at --level full)
deposits (lifecycle checks):
  --faucet-private-key HEX  CUSTODY_FAUCET_PRIVATE_KEY  funded chain key
webhooks:
  --webhook-receiver-url U  CUSTODY_WEBHOOK_RECEIVER_URL  public URL of the runner's receiver
  --webhook-listen HOST:PORT                     where the receiver listens (default 127.0.0.1:0)
  --webhook-profile standard-webhooks|canonical-json   require this signature profile (default: either, reported)
run:
  --level seed|full   seed: only what the seed specifies; full (default): also drive assumed operations
  --only GROUP,...    ${GROUPS.join(", ")}
  --timeout-ms N      per-check time limit, also bounds each request (default ${DEFAULT_TIMEOUT_MS})
  --concurrency N     checks at a time (default ${DEFAULT_CONCURRENCY})
  --json/--junit/--html FILE   write reports;  --quiet: print failures only;  --no-color
${HAR_USAGE}

${FUZZ_USAGE}

exit status: 0 certified: every MUST check of the level ran and passed; 1 a MUST check failed;
             2 bad usage, or the preflight stopped the run; 3 no MUST check failed but some did not run;
             130/143 stopped by SIGINT/SIGTERM (what ran is reported, what the run created removed)`;

/** The two lines a usage error ends with (the full text is --help). */
const SHORT_USAGE = `usage: custody certify --base-url U --rpc-url R --api-key K --api-secret S --rpc-api-key RK [options]
       custody certify --sandbox [options]          (custody certify --help lists every option)`;

type Values = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]["type"] extends "boolean" ? boolean : string };

export async function run(argv: string[], io: CertifyIo = {}): Promise<number> {
  const stdout = io.stdout ?? ((t: string) => void process.stdout.write(t));
  const stderr = io.stderr ?? ((t: string) => void process.stderr.write(t));
  const env = io.env ?? process.env;
  let values: Values;
  try {
    values = parseFlags(argv, OPTIONS).values as Values;
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
    const options = runOptions(values);
    fuzzOptionsOf(values); // a wrong --fuzz value is named before a sandbox starts
    // The sandbox starts in its own thread while this one loads the suite.
    if (values.sandbox) sandbox = startSandboxWorker();
    const [operations, handle] = await Promise.all([io.operations ?? loadOperations(), sandbox]);
    const target = targetConfig(values, env, options.level, handle);
    if (interruption?.signal.aborted) return interruption.exitCode;
    const code = await certify(target, options, operations, values, stdout, stderr, interruption?.signal);
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
  signal?: AbortSignal,
): Promise<number> {
  // The suite (every check, and what they import) loads here, while a sandbox worker starts.
  const [{ redactorFor, runSuite }, { CATALOG }] = await Promise.all([import("../conformance/runner.ts"), import("../conformance/catalog.ts")]);
  const redactor = redactorFor(target);
  const reporter = consoleReporter({ write: (t) => stdout(redactor.text(t)), color: !values["no-color"] && process.stdout.isTTY === true, verbose: !values.quiet });
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
  for (const [kind, file] of writeReports(result.report, values, redactor)) stdout(`${kind} report written to ${file}\n`);
  if (har && values.har) stdout(`HAR (${har.size} exchanges) written to ${writeHar(values.har, har, redactor)}\n`);
  return exitCodeOf(result.report);
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

function runOptions(v: Values): RunOptions {
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

function targetConfig(v: Values, env: NodeJS.ProcessEnv, level: Level, sandbox?: SandboxHandle): TargetConfig {
  const pick = (flag: keyof Values, envName: string, fromSandbox?: string): string | undefined => {
    const value = (v[flag] as string | undefined) ?? env[envName] ?? fromSandbox;
    return value === "" ? undefined : value;
  };
  const missing: string[] = [];
  const required = (flag: keyof Values, envName: string, fromSandbox?: string): string => {
    const value = pick(flag, envName, fromSandbox);
    if (!value) missing.push(`--${String(flag)} (or ${envName})`);
    return value ?? "";
  };
  const rawBase = required("base-url", "CUSTODY_BASE_URL", sandbox?.base_url);
  const rawRpc = required("rpc-url", "CUSTODY_RPC_URL", sandbox?.rpc_url);
  const admin = { apiKey: required("api-key", "CUSTODY_API_KEY", sandbox?.api_key), apiSecret: required("api-secret", "CUSTODY_API_SECRET", sandbox?.api_secret) };
  const rpcApiKey = required("rpc-api-key", "CUSTODY_RPC_API_KEY", sandbox?.rpc_api_key);
  if (missing.length > 0) throw new UsageError(`missing ${missing.join(", ")}${sandbox ? "" : "; or use --sandbox"}`);
  const baseUrl = walletApiBaseUrl(httpUrl(rawBase, "--base-url"));
  const rpcUrl = httpUrl(rawRpc, "--rpc-url");
  const wsRaw = pick("ws-url", "CUSTODY_WS_URL", sandbox?.ws_url);
  const wsUrl = wsRaw ? wsUrlOf(wsRaw) : defaultWsUrl(rpcUrl);
  const pair = (keyFlag: keyof Values, secretFlag: keyof Values, prefix: string, s?: { key?: string; secret?: string }): Credentials | undefined => {
    const apiKey = pick(keyFlag, `CUSTODY_${prefix}_API_KEY`, s?.key);
    const apiSecret = pick(secretFlag, `CUSTODY_${prefix}_API_SECRET`, s?.secret);
    if (!apiKey && !apiSecret) return undefined;
    if (!apiKey || !apiSecret) throw new UsageError(`--${String(keyFlag)} and --${String(secretFlag)} go together`);
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
  const receiverUrl = pick("webhook-receiver-url", "CUSTODY_WEBHOOK_RECEIVER_URL");
  const profile = v["webhook-profile"];
  if (profile !== undefined && profile !== "standard-webhooks" && profile !== "canonical-json") {
    throw new UsageError(`--webhook-profile must be standard-webhooks or canonical-json, not "${profile}"`);
  }
  const other = otherTenant(admin, pick, sandbox);
  // At full level the sandbox's restricted keys are left out so that createApiKey gets exercised too.
  const restricted =
    sandbox && level === "seed"
      ? { viewer: { key: sandbox.viewer_api_key, secret: sandbox.viewer_api_secret }, scoped: { key: sandbox.scoped_api_key, secret: sandbox.scoped_api_secret } }
      : undefined;
  const workspaceId = pick("workspace-id", "CUSTODY_WORKSPACE_ID", sandbox?.workspace_id);
  if (other?.workspaceId !== undefined && other.workspaceId === workspaceId) throw new UsageError("--other-workspace-id is the --workspace-id: tenant isolation needs another workspace");
  return {
    baseUrl,
    rpcUrl,
    wsUrl,
    admin,
    rpcApiKey,
    workspaceId,
    viewer: pair("viewer-api-key", "viewer-api-secret", "VIEWER", restricted?.viewer),
    scoped: pair("scoped-api-key", "scoped-api-secret", "SCOPED", restricted?.scoped),
    ...(other ? { other } : {}),
    faucetPrivateKey: pick("faucet-private-key", "CUSTODY_FAUCET_PRIVATE_KEY", sandbox?.faucet_private_key),
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
function otherTenant(
  admin: Credentials,
  pick: (flag: keyof Values, envName: string, fromSandbox?: string) => string | undefined,
  sandbox?: SandboxHandle,
): OtherTenant | undefined {
  const apiKey = pick("other-api-key", "CUSTODY_OTHER_API_KEY", sandbox?.other_api_key);
  const apiSecret = pick("other-api-secret", "CUSTODY_OTHER_API_SECRET", sandbox?.other_api_secret);
  const workspaceId = pick("other-workspace-id", "CUSTODY_OTHER_WORKSPACE_ID", sandbox?.other_workspace_id);
  if (!apiKey && !apiSecret) {
    if (workspaceId) throw new UsageError("--other-workspace-id needs --other-api-key and --other-api-secret");
    return undefined;
  }
  if (!apiKey || !apiSecret) throw new UsageError("--other-api-key and --other-api-secret go together");
  if (apiKey === admin.apiKey) throw new UsageError("--other-api-key is the --api-key: tenant isolation needs a key of another workspace");
  return { credentials: { apiKey, apiSecret }, ...(workspaceId ? { workspaceId } : {}) };
}
