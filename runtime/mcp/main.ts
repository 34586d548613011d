// Starting a server: the pieces wired once (policy, redaction, audit file, stdio or Streamable
// HTTP), for `custody mcp` and for the `<name>-mcp` bin of a generated package, which also parses
// its flags here. Logs go to stderr: on stdio, stdout is the protocol.
import { parseArgs } from "node:util";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { fileAuditSink, redactor } from "./audit.ts";
import type { Invoke } from "./call.ts";
import { serveHttp } from "./http.ts";
import { type ToolPolicy, unknownSelectors } from "./policy.ts";
import { createMcpServer } from "./server.ts";
import type { ToolOperation } from "./tool-table.ts";

export interface McpRunOptions {
  policy: ToolPolicy;
  dynamic?: boolean;
  auditLog?: string;
  /** Serve Streamable HTTP instead of stdio. */
  http?: { host?: string; port?: number; token?: string; allowedOrigins?: string[] };
}

export interface McpTarget {
  name: string;
  version: string;
  table: readonly ToolOperation[];
  invoke: Invoke;
  /** The API key and secret: redacted from every answer and audit line. */
  secrets: readonly (string | undefined)[];
  defaults?: Record<string, string>;
}

export interface McpServing {
  /** Resolves when the stdio client goes away (never for HTTP: stop it with close). */
  ended: Promise<void>;
  close(): Promise<void>;
}

/** Starts serving on stdio, or Streamable HTTP. */
export async function startMcp(
  target: McpTarget,
  run: McpRunOptions,
  log: (line: string) => void,
): Promise<McpServing> {
  // `--tools dynamic` is the dynamic mode; the other selectors still filter what it offers.
  const dynamic = run.dynamic === true || (run.policy.include ?? []).includes("dynamic");
  const policy = { ...run.policy, include: (run.policy.include ?? []).filter((s) => s !== "dynamic") };
  if (policy.allowFunds && !policy.allowWrites) throw new Error("--allow-funds needs --allow-writes as well");
  const bad = unknownSelectors(target.table, [...policy.include, ...(policy.exclude ?? [])]);
  if (bad.length > 0)
    throw new Error(
      `no operation matches ${bad.join(", ")} (use an operation name, tag:NAME or effect:read|write|funds)`,
    );
  const redact = redactor(target.secrets);
  const audit = run.auditLog ? fileAuditSink(run.auditLog, redact, (m) => log(m)) : undefined;
  const build = () => createMcpServer({ ...target, policy, dynamic, redact, audit, defaults: target.defaults });
  if (run.http) {
    const serving = await serveHttp({ ...run.http, createServer: build });
    log(`MCP over Streamable HTTP at ${serving.url}`);
    log(`bearer token: ${run.http.token ? "(the one given)" : serving.token}`);
    return { ended: new Promise<void>(() => undefined), close: serving.close };
  }
  const server = build();
  const ended = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
  });
  await server.connect(new StdioServerTransport());
  return { ended, close: () => server.close() };
}

export const MCP_USAGE = (
  bin: string,
  env: string,
) => `usage: ${bin} [--allow-writes] [--allow-funds] [--tools SEL,...|dynamic] [--exclude-tools SEL,...]
       ${" ".repeat(bin.length)} [--audit-log FILE] [--http [--host H] [--port N] [--token T]]

An MCP server over the API (stdio by default). Read-only unless --allow-writes; tools that move money
need --allow-funds as well, and a person confirms each call. Credentials come from the environment:
${env}_BASE_URL, ${env}_API_KEY, ${env}_API_SECRET (and ${env}_WORKSPACE_ID), never from flags.
Selectors: an operation name, tag:NAME or effect:read|write|funds.`;

/** The flags of a generated package's bin, as McpRunOptions. */
export function parseMcpArgs(argv: string[]): McpRunOptions & { help: boolean } {
  const { values } = parseArgs({
    args: argv,
    options: {
      "allow-writes": { type: "boolean" },
      "allow-funds": { type: "boolean" },
      tools: { type: "string" },
      "exclude-tools": { type: "string" },
      dynamic: { type: "boolean" },
      "audit-log": { type: "string" },
      http: { type: "boolean" },
      host: { type: "string" },
      port: { type: "string" },
      token: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const list = (text: string | undefined) =>
    (text ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536))
    throw new Error(`--port must be a port number, not ${values.port}`);
  return {
    help: values.help === true,
    policy: {
      allowWrites: values["allow-writes"] === true,
      allowFunds: values["allow-funds"] === true,
      include: list(values.tools),
      exclude: list(values["exclude-tools"]),
    },
    dynamic: values.dynamic === true,
    ...(values["audit-log"] ? { auditLog: values["audit-log"] } : {}),
    ...(values.http ? { http: { host: values.host, port, token: values.token } } : {}),
  };
}
