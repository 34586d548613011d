// `custody sandbox`: its declaration (flags, help, config keys); the command is ../sandbox.ts.
import { CREDENTIAL_ENV, PROFILE_ENV, SEED_ENV } from "../../reference/credential-env.ts";
import { CONFIG_OPTION, type CommandSpec, HELP_OPTION } from "../options.ts";

/**
 * The port of the real service's self-hosted deployment: its public SDK's environment 'local' targets
 * http://localhost:8150/api/v1 (fystack/platform-sdk src/config.ts), so the SDK and its examples reach
 * the sandbox with no code change.
 */
export const SDK_LOCAL_PORT = 8150;

export const SANDBOX_OPTIONS = {
  port: {
    type: "string",
    value: "P",
    description: `wallet API port; ${SDK_LOCAL_PORT} is where the real service's SDK looks with environment 'local'`,
    default: `${SDK_LOCAL_PORT} when free, else a free port`,
  },
  "rpc-port": { type: "string", value: "R", description: "node access (JSON-RPC) port", default: "a free port" },
  "solana-rpc-port": {
    type: "string",
    value: "S",
    description: "Solana JSON-RPC port; its WebSocket takes S + 1, where @solana/web3.js looks",
    default: "a free pair",
  },
  "no-solana": {
    type: "boolean",
    description: "run without the embedded Solana runtime (Solana addresses are still derived)",
  },
  host: { type: "string", value: "H", description: "address to listen on", default: "127.0.0.1" },
  json: { type: "boolean", description: "print one JSON line with URLs and credentials once listening" },
  upstream: {
    type: "string",
    value: "URL",
    description: "forward node access to this JSON-RPC node instead of the embedded chain",
  },
  data: {
    type: "string",
    value: "DIR",
    path: true,
    description: "keep state in DIR across restarts",
    default: "in memory",
  },
  "block-time": {
    type: "string",
    value: "S",
    description: "seconds between blocks of the embedded chain",
    default: "1",
  },
  seed: {
    type: "string",
    value: "TEXT",
    env: SEED_ENV,
    description: "derive every seeded credential from TEXT (reproducible runs)",
  },
  "webhook-profile": {
    type: "string",
    value: "P",
    env: PROFILE_ENV,
    description: "canonical-json (the real service's) or standard-webhooks",
    default: "canonical-json",
  },
  "webhook-schedule": {
    type: "string",
    value: "S",
    description:
      "sandbox: retries after seconds, endpoints disabled after 10 minutes of failures; production: the\nspec's x-custody-webhook-delivery (retries up to 6 h apart, disabled after 5 days)",
    default: "sandbox",
  },
  "cors-origin": {
    type: "string",
    multiple: true,
    value: "O",
    description:
      "origin allowed to call the API from a browser, e.g. http://localhost:5173\n(repeat or comma-separate)",
    default: "'*', any origin: the sandbox is for local work",
  },
  ...CONFIG_OPTION,
  ...HELP_OPTION,
} as const;

export const SANDBOX_COMMAND: CommandSpec<typeof SANDBOX_OPTIONS> = {
  name: "sandbox",
  summary: "serve the reference deployment until stopped",
  usage: ["custody sandbox [options]"],
  options: SANDBOX_OPTIONS,
  notes: [`Fixed values can also come from the environment: ${Object.values(CREDENTIAL_ENV).join(", ")}.`],
  exitStatus: "0 stopped by SIGINT or SIGTERM, 2 bad usage",
  configSection: "sandbox",
};
