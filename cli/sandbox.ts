// `custody sandbox`: serves the reference deployment until SIGINT/SIGTERM.
// With --json it prints exactly one JSON line once both servers listen (the sandbox's own seeded
// credentials: printing them is the point, they exist only in this sandbox).

import { createServer } from "node:net";
import { type Sandbox, type SandboxOptions, sandboxCredentials, startSandbox } from "../reference/sandbox.ts";
import { parseCorsOrigins } from "../runtime/server/cors.ts";
import { SANDBOX_COMMAND, SANDBOX_OPTIONS, SDK_LOCAL_PORT } from "./commands/sandbox.ts";
import { type ConfigContext, configOf, withConfig } from "./config-values.ts";
import { parseFlags } from "./flags.ts";
import { helpText } from "./help.ts";
import { removeSandboxFile, type SandboxFile, sandboxFilePath, writeSandboxFile } from "./sandbox-file.ts";
import { UsageError } from "./usage-error.ts";

export const SANDBOX_USAGE = helpText(SANDBOX_COMMAND);

interface ParsedArgs {
  options: SandboxOptions;
  json: boolean;
  help: boolean;
}

/** The flags over the config file's `sandbox` section. */
export function parseSandboxArgs(argv: string[], ctx: ConfigContext = {}): ParsedArgs {
  const flags = parseFlags(argv, SANDBOX_OPTIONS, { usage: SANDBOX_USAGE }).values;
  const values = flags.help ? flags : withConfig(flags, configOf(flags.config, ctx), "sandbox", undefined, ctx.env);
  const options: SandboxOptions = {};
  if (values.port !== undefined) options.port = parsePort("--port", values.port);
  if (values["rpc-port"] !== undefined) options.rpcPort = parsePort("--rpc-port", values["rpc-port"]);
  if (values["solana-rpc-port"] !== undefined)
    options.solanaRpcPort = parsePort("--solana-rpc-port", values["solana-rpc-port"]);
  if (values["no-solana"]) options.solana = false;
  if (values.host !== undefined) options.host = values.host;
  if (values.upstream !== undefined) options.upstreamUrl = parseUrl(values.upstream);
  if (values.data !== undefined) options.dataDir = values.data;
  const blockTime = values["block-time"];
  if (blockTime !== undefined) {
    const s = Number(blockTime);
    if (!/^[0-9]+(\.[0-9]+)?$/.test(blockTime) || !Number.isFinite(s) || s > 3600)
      throw new UsageError("--block-time must be a number of seconds between 0 and 3600");
    options.blockTimeSeconds = s;
  }
  if (values.seed !== undefined) options.seed = values.seed;
  if (values["cors-origin"] !== undefined) {
    try {
      options.corsOrigins = parseCorsOrigins(values["cors-origin"]);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  const profile = values["webhook-profile"];
  if (profile !== undefined) {
    if (profile !== "standard-webhooks" && profile !== "canonical-json")
      throw new UsageError("--webhook-profile must be standard-webhooks or canonical-json");
    options.webhookProfile = profile;
  }
  const schedule = values["webhook-schedule"];
  if (schedule !== undefined) {
    if (schedule !== "sandbox" && schedule !== "production")
      throw new UsageError("--webhook-schedule must be sandbox or production");
    options.webhookSchedule = schedule;
  }
  if (options.port !== undefined && options.port !== 0 && options.port === options.rpcPort)
    throw new UsageError("--port and --rpc-port must differ");
  return { options, json: values.json ?? false, help: values.help ?? false };
}

export { SDK_LOCAL_PORT };

/** True when nothing listens on host:port yet (a bind probe, closed at once). */
export function portIsFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

function parsePort(flag: string, value: string): number {
  const n = Number(value);
  if (!/^[0-9]{1,5}$/.test(value) || n > 65535) throw new UsageError(`${flag} must be a port number (0-65535)`);
  return n;
}

function parseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError("--upstream must be an http(s) URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError("--upstream must be an http(s) URL");
  return value;
}

/** The --json line: the sandbox's credentials record (reference/sandbox.ts), in its declared order. */
export function sandboxJson(s: Sandbox): string {
  return JSON.stringify(sandboxCredentials(s));
}

function summary(
  s: Sandbox,
  dataDir: string | undefined,
  file: string | undefined,
  corsOrigins: readonly string[] | undefined,
): string {
  return [
    "custody sandbox is running (the credentials below exist only in this sandbox)",
    "",
    `  wallet API      ${s.base_url}   (the base URL for clients and certify; operation paths start with /api/v1)`,
    `  console         ${s.base_url}/console/   (acts with the owner key below)`,
    `  API reference   ${s.base_url}/docs/`,
    `  node access     ${s.rpc_url}/rpc   ${s.ws_url}`,
    s.solana_rpc_url
      ? `  Solana RPC      ${s.solana_rpc_url}   ${s.solana_ws_url}   (same key: ${s.solana_rpc_url}/?api_key=<rpc api key>)`
      : "  Solana RPC      off (Solana addresses are still derived; see the warning above)",
    `  workspace       ${s.workspace_id}`,
    `  owner key       ${s.api_key}   secret ${s.api_secret}`,
    `  viewer key      ${s.viewer_api_key}   secret ${s.viewer_api_secret}`,
    `  balances key    ${s.scoped_api_key}   secret ${s.scoped_api_secret}   (balances:read only)`,
    `  other workspace ${s.other_workspace_id}   owner key ${s.other_api_key}   secret ${s.other_api_secret}   (another tenant)`,
    `  rpc api key     ${s.rpc_api_key}`,
    `  faucet key      ${s.faucet_private_key}`,
    `  CORS            ${corsOrigins?.length ? corsOrigins.join(", ") : "any origin"} (--cors-origin to restrict)`,
    `  state           ${dataDir ? `kept in ${dataDir}` : "in memory (lost on exit; use --data DIR to keep it)"}`,
    ...(file ? [`  credentials     ${file}   (read by custody request / custody trigger)`] : []),
    "",
    "Try:  custody request listWallets        custody trigger deposit",
    "",
    "Press Ctrl+C to stop.",
  ].join("\n");
}

/** What the sandbox file holds (see sandbox-file.ts). */
export function sandboxFileContent(s: Sandbox): SandboxFile {
  return {
    pid: process.pid,
    ...sandboxCredentials(s),
    docs_url: `${s.base_url}/docs/`,
    console_url: `${s.base_url}/console/`,
  };
}

export async function run(argv: string[]): Promise<number> {
  const { options, json, help } = parseSandboxArgs(argv);
  if (help) {
    console.log(SANDBOX_USAGE);
    return 0;
  }
  if (options.port === undefined)
    options.port = (await portIsFree(SDK_LOCAL_PORT, options.host ?? "127.0.0.1")) ? SDK_LOCAL_PORT : 0;
  const sandbox = await startSandbox(options);
  const file = sandboxFilePath();
  let written: string | undefined;
  try {
    writeSandboxFile(file, sandboxFileContent(sandbox));
    written = file;
  } catch (error) {
    process.stderr.write(
      `custody sandbox: could not write ${file} (${(error as Error).message}); custody request needs --base-url/--api-key/--api-secret then\n`,
    );
  }
  process.stdout.write(
    `${json ? sandboxJson(sandbox) : summary(sandbox, options.dataDir, written, options.corsOrigins)}\n`,
  );
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    const onSignal = (sig: NodeJS.Signals) => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      resolve(sig);
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  });
  if (!json) process.stderr.write(`custody sandbox: ${signal} received, stopping\n`);
  if (written) removeSandboxFile(written);
  await sandbox.close();
  return 0;
}
