// `custody mcp`: an MCP server over a deployment's API for AI agents. The tools come from the
// contract custody ships (or --spec FILE) through mcp/; the calls go through the generated client
// (custody's own contract) or the same runtime call (another document); serving, safety and audit
// are runtime/mcp's, shared with the servers `custody generate --mcp` emits.

import { loadToolTable } from "../generator/mcp/load.ts";
import { packagePath } from "../lib/package-root.ts";
import type { ApiTarget } from "../lib/target.ts";
import { custodyVersion } from "../lib/version.ts";
import { ApiError, TransportError } from "../runtime/errors.ts";
import { createTransport } from "../runtime/http/transport.ts";
import { clientInvoke, type Invoke, type McpRunOptions, startMcp, transportInvoke } from "../runtime/mcp/index.ts";
import { startSandboxWorker } from "./certify-sandbox.ts";
import { MCP_COMMAND, MCP_OPTIONS } from "./commands/mcp.ts";
import { ConfigError } from "./config-file.ts";
import { type ConfigContext, configOf, withConfig } from "./config-values.ts";
import { type FlagValues, parseFlags } from "./flags.ts";
import { helpText } from "./help.ts";
import { callTarget, resolveApiTarget } from "./target.ts";
import { UsageError } from "./usage-error.ts";

type Values = FlagValues<typeof MCP_OPTIONS>;

/** The deployment the tools call, and how to stop what was started for it (the in-process sandbox). */
export interface McpTarget {
  target: ApiTarget;
  close(): Promise<void>;
}

/**
 * Where the calls go, through the one target resolver (cli/target.ts): --sandbox (a reference
 * deployment started here), else the flags over --target NAME's entry of the config file, the
 * CUSTODY_* variables, and last the running sandbox's file.
 */
export async function resolveMcpTarget(values: Values, ctx: ConfigContext): Promise<McpTarget> {
  const env = ctx.env ?? process.env;
  let merged = values;
  let entry: string | undefined;
  if (values.target !== undefined) {
    const config = configOf(values.config, ctx);
    if (config === undefined)
      throw new ConfigError("--target needs a config file with targets (custody init writes one)");
    merged = withConfig(values, config, "certify", { kind: "targets", name: values.target }, env);
    entry = `targets.${values.target} of ${config.file}`;
  }
  if (!values.sandbox) {
    const target = callTarget(merged, MCP_OPTIONS, env);
    // Messages name the config file's entry, unless the running sandbox's file filled the gaps.
    const named = entry !== undefined && target.source === "flags/environment";
    return { target: named ? { ...target, source: entry } : target, close: async () => undefined };
  }
  const sandbox = await startSandboxWorker();
  const target = resolveApiTarget({
    values: merged,
    declared: MCP_OPTIONS,
    env,
    sandbox: () => sandbox,
    sandboxSource: "--sandbox",
  });
  return { target, close: sandbox.close };
}

/** Where these settings came from: the config file's entry, the flags and variables, or a sandbox's file. */
function settingsOf(source: string | undefined, keys: Array<"base-url" | "api-key" | "api-secret">): string {
  if (source?.startsWith("targets.")) return `${keys.join(" and ")} of ${source}`;
  if (source === "flags/environment")
    return `${keys.map((k) => `--${k}`).join(" and ")} (or ${keys.map((k) => MCP_OPTIONS[k].env).join(", ")})`;
  return `${keys.join(" and ")} in ${source ?? "the sandbox's file"}`;
}

function runOptions(values: Values): McpRunOptions {
  const list = (text: string | undefined) =>
    (text ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536))
    throw new UsageError(`--port must be a port number, not ${values.port}`);
  return {
    policy: {
      allowWrites: values["allow-writes"] === true,
      allowFunds: values["allow-funds"] === true,
      include: list(values.tools),
      exclude: list(values["exclude-tools"]),
    },
    ...(values["audit-log"] ? { auditLog: values["audit-log"] } : {}),
    ...(values.http
      ? {
          http: {
            host: values.host,
            port,
            token: values.token ?? process.env.CUSTODY_MCP_TOKEN,
            allowedOrigins: values["allow-origin"],
          },
        }
      : {}),
  };
}

/**
 * The generated client for custody's own contract (its validation and errors), once its credentials
 * were accepted; the runtime call for another document, whose operations say nothing of which one
 * is safe to try first.
 */
async function invokerFor(own: boolean, target: ApiTarget): Promise<Invoke> {
  const options = {
    baseUrl: target.baseUrl,
    apiKey: target.admin.apiKey,
    apiSecret: target.admin.apiSecret,
    logLevel: "off" as const,
  };
  if (!own) return transportInvoke(createTransport(options));
  const { CustodialWalletServiceClient } = await import("../generated/client.ts");
  const client = new CustodialWalletServiceClient(options);
  await checkCredentials(target, () => client.listNetworks({ query: { limit: 1 } }));
  return clientInvoke(client);
}

/**
 * One read before serving, so a wrong key or URL stops the command with one line naming the setting
 * (the person sees it in the client's server log) instead of failing every tool call later.
 */
async function checkCredentials(target: ApiTarget, read: () => Promise<unknown>): Promise<void> {
  try {
    await read();
  } catch (error) {
    const where = (keys: Parameters<typeof settingsOf>[1]) => settingsOf(target.source, keys);
    if (error instanceof ApiError && error.status === 401)
      throw new UsageError(
        `${target.baseUrl} refused the credentials (HTTP 401: ${error.shortMessage}): check ${where(["api-key", "api-secret"])}`,
      );
    if (error instanceof TransportError)
      throw new UsageError(
        `no answer from ${target.baseUrl} (${error.kind}: ${error.shortMessage}): check ${where(["base-url"])}`,
      );
    throw error;
  }
}

export async function run(argv: string[], ctx: ConfigContext = {}): Promise<number> {
  let values = parseFlags(argv, MCP_OPTIONS).values;
  if (values.help) {
    console.log(helpText(MCP_COMMAND));
    return 0;
  }
  const env = ctx.env ?? process.env;
  values = withConfig(values, configOf(values.config, ctx), "mcp", undefined, env);
  const run = runOptions(values);
  // On stdio, standard output is the protocol: anything printed there would break the session.
  if (!run.http) console.log = console.error;
  const specPath = values.spec ?? packagePath(import.meta.url, "spec/openapi.yaml");
  // The target first: a wrong setting is told before the document is read.
  const { target, close } = await resolveMcpTarget(values, { ...ctx, env });
  const log = (line: string) => void process.stderr.write(`custody mcp: ${line}\n`);
  try {
    const { title, apiVersion, table } = await loadToolTable(specPath);
    const serving = await startMcp(
      {
        name: `custody-mcp (${title} ${apiVersion})`,
        version: custodyVersion(),
        table,
        invoke: await invokerFor(values.spec === undefined, target),
        secrets: [target.admin.apiKey, target.admin.apiSecret],
        defaults: target.workspaceId ? { workspace_id: target.workspaceId } : {},
      },
      run,
      log,
    );
    log(
      `serving ${table.length} operations of ${title} at ${target.baseUrl}${run.policy.allowWrites ? "" : " (read-only)"}`,
    );
    await Promise.race([serving.ended, stopSignal()]);
    await serving.close();
    return 0;
  } finally {
    await close();
  }
}

function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
}
