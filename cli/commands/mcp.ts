// `custody mcp`: its declaration (flags, help, config keys); the command is ../mcp.ts.
import { CONFIG_OPTION, type CommandSpec, HELP_OPTION } from "../options.ts";
import { CREDENTIAL_OPTIONS } from "./signed-call.ts";

const TARGET = "target (default: the running sandbox's file, see CUSTODY_SANDBOX_FILE)";
const TOOLS = "tools (read-only by default)";
const HTTP = "Streamable HTTP (default: stdio)";

export const MCP_OPTIONS = {
  ...CREDENTIAL_OPTIONS,
  target: {
    type: "string",
    value: "NAME",
    config: false,
    section: TARGET,
    description: "a target of the config file's `targets` (its base-url, api-key, api-secret)",
  },
  sandbox: {
    type: "boolean",
    config: false,
    section: TARGET,
    description: "start the embedded reference deployment in-process and serve it",
  },
  spec: {
    type: "string",
    value: "FILE",
    path: true,
    section: TARGET,
    description: "the OpenAPI document whose operations become tools",
    default: "the contract custody ships",
  },
  "allow-writes": {
    type: "boolean",
    section: TOOLS,
    description: "add the tools that change settings or records (effect write)",
  },
  "allow-funds": {
    type: "boolean",
    section: TOOLS,
    description:
      "add the tools that move or sign for money (effect funds; needs --allow-writes);\na person confirms each call through the client (MCP elicitation)",
  },
  tools: {
    type: "string",
    value: "SEL,...",
    section: TOOLS,
    description:
      "only these tools: operation names, tag:NAME, effect:read|write|funds;\n`dynamic`: three tools (list, describe, call) instead of one per operation",
  },
  "exclude-tools": {
    type: "string",
    value: "SEL,...",
    section: TOOLS,
    description: "leave these out (same selectors)",
  },
  "audit-log": {
    type: "string",
    value: "FILE",
    path: true,
    section: TOOLS,
    description: "append one JSON line per tool call (no secrets, no bodies)",
  },
  http: {
    type: "boolean",
    section: HTTP,
    description: "serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio",
  },
  host: { type: "string", value: "HOST", section: HTTP, description: "address to bind", default: "127.0.0.1" },
  port: { type: "string", value: "N", section: HTTP, description: "port", default: "a free one (printed)" },
  token: {
    type: "string",
    value: "TOKEN",
    env: "CUSTODY_MCP_TOKEN",
    secret: true,
    section: HTTP,
    description: "the bearer token clients must send",
    default: "a random one (printed at start)",
  },
  "allow-origin": {
    type: "string",
    multiple: true,
    value: "ORIGIN",
    section: HTTP,
    description: "a browser Origin allowed to call (repeatable; default: none, against DNS rebinding)",
  },
  ...CONFIG_OPTION,
  ...HELP_OPTION,
} as const;

export const MCP_COMMAND: CommandSpec<typeof MCP_OPTIONS> = {
  name: "mcp",
  summary: "an MCP server over the wallet API for AI agents (read-only unless allowed)",
  usage: [
    "custody mcp [--target NAME | --sandbox | --base-url U --api-key K] [--allow-writes [--allow-funds]]",
    "            [--tools SEL,...|dynamic] [--exclude-tools SEL,...] [--audit-log FILE] [--http [--port N]]",
  ],
  about:
    "Every operation has an effect (x-custody-effect: read, write, funds). Without flags only read tools exist;\n" +
    "--allow-writes adds write tools, --allow-funds funds tools, which a person confirms in the client and\n" +
    "whose idempotency key the server derives from the confirmed arguments (the same call never sends twice).\n" +
    "Operations marked x-custody-agent: never (approvals, API key writes) are never offered.",
  options: MCP_OPTIONS,
  notes: [
    "Credentials stay in the server: from flags, CUSTODY_* variables or the config file's { env: NAME }; never in a tool,\nan answer or a log line. Logs go to standard error (standard output is the protocol on stdio).",
    "Guide: docs/guides/let-an-agent-use-the-wallet-api.md",
  ],
  examples: [
    "custody mcp --sandbox",
    "custody mcp --target staging --allow-writes --allow-funds --audit-log mcp-audit.jsonl",
    "custody mcp --http --port 8765 --tools tag:wallets,tag:withdrawals",
  ],
  exitStatus: "0 when the client closes the session, 2 for bad usage or an unreachable target",
  configSection: "mcp",
};
