// `custody generate`: its declaration (flags, help, config keys); the command is ../generate.ts.
import { CONFIG_OPTION, type CommandSpec, HELP_OPTION } from "../options.ts";

export const GENERATE_OPTIONS = {
  spec: {
    type: "string",
    value: "FILE",
    path: true,
    description: "OpenAPI 3.0 or 3.1 document, or Swagger 2.0 (converted; needs swagger2openapi)",
    default: "./spec/openapi.yaml, else the one custody ships",
  },
  "rpc-spec": {
    type: "string",
    value: "FILE",
    path: true,
    description: "OpenRPC document for rpc.ts",
    default: "spec/openrpc.json beside the default spec",
  },
  "no-rpc": { type: "boolean", description: "do not generate rpc.ts" },
  out: {
    type: "string",
    value: "DIR",
    path: true,
    description: "output directory; replaced as a whole, atomically",
    default: "generated",
  },
  runtime: {
    type: "string",
    value: "vendor|package",
    description:
      'vendor: copy custody\'s runtime into DIR/runtime (the code then needs only zod, undici, ws, @noble/*);\npackage: import it from "custody/runtime" (the project then depends on custody)',
    default: "vendor",
  },
  zod: {
    type: "string",
    value: "classic|mini",
    description:
      'how the schemas are written: classic: import * as z from "zod"; mini: "zod/mini"\'s functions,\nthe same validation in a smaller browser bundle (docs/reference/sdk.md#zod-mini)',
    default: "classic",
  },
  package: {
    type: "string",
    value: "NAME[@V]",
    description: "write a publishable package into DIR: package.json, tsconfig.json, README.md, sources in src/",
  },
  mcp: {
    type: "boolean",
    description:
      "also write an MCP server for AI agents (mcp.ts; with --package a `NAME-mcp` bin):\nread-only unless allowed, funds confirmed by a person (docs/guides/let-an-agent-use-the-wallet-api.md)",
  },
  check: { type: "boolean", config: false, description: "write nothing; exit 1 naming each file that would change" },
  lenient: {
    type: "boolean",
    description:
      "generate from documents invalid in common published ways (members the official schema\ndoes not allow, type names that are no JSON type, type 'null' in 3.0, schema: null, a query string in\na path key, ...), printing one warning per repair: file, pointer, what was done",
  },
  sdk: {
    type: "string",
    multiple: true,
    value: "NAME",
    config: false,
    description: "only this SDK of the config file's `sdks` (repeatable; default: every one)",
  },
  ...CONFIG_OPTION,
  ...HELP_OPTION,
} as const;

export const GENERATE_COMMAND: CommandSpec<typeof GENERATE_OPTIONS> = {
  name: "generate",
  summary: "spec → types, zod schemas, signing client, server stubs, webhooks, JSON-RPC (--check: fail on drift)",
  usage: [
    "custody generate [--spec FILE] [--rpc-spec FILE | --no-rpc] [--out DIR] [--runtime vendor|package] [--zod classic|mini] [--package NAME[@VERSION]] [--check] [--lenient]",
    "custody generate [--sdk NAME] [--check]      (the SDKs of custody.config.yaml)",
  ],
  options: GENERATE_OPTIONS,
  notes: [
    "It ends by printing what the output needs: the exact npm install lines for its packages and for TypeScript.",
  ],
  exitStatus: "0 done (with --check: nothing would change), 1 the spec is invalid or --check found drift, 2 bad usage",
  configSection: "generate",
};
