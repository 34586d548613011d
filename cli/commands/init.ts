// `custody init`: its declaration (flags, help); the command is ../init.ts.
import { type CommandSpec, HELP_OPTION } from "../options.ts";

const TARGET = "the target `staging` (written into it; asked for when stdin is a terminal)";

/** Settings of the staging target init writes when given (each is the certify flag of that name). */
export const INIT_TARGET_SETTINGS = {
  "base-url": { type: "string", value: "URL", section: TARGET, description: "the wallet API base", config: false },
  "rpc-url": { type: "string", value: "URL", section: TARGET, description: "the node access base", config: false },
  "workspace-id": {
    type: "string",
    value: "ID",
    section: TARGET,
    description: "the workspace of the keys",
    config: false,
  },
  "wallet-id": { type: "string", value: "ID", section: TARGET, description: "an existing wallet", config: false },
  "asset-id": {
    type: "string",
    value: "ID",
    section: TARGET,
    description: "an asset attached to that wallet",
    config: false,
  },
  "withdrawal-id": {
    type: "string",
    value: "ID",
    section: TARGET,
    description: "an existing withdrawal",
    config: false,
  },
  "webhook-id": {
    type: "string",
    value: "ID",
    section: TARGET,
    description: "a webhook registered to --webhook-receiver-url (deleted by the run)",
    config: false,
  },
  "delivery-id": {
    type: "string",
    value: "ID",
    section: TARGET,
    description: "a delivery of that webhook",
    config: false,
  },
  "webhook-receiver-url": {
    type: "string",
    value: "URL",
    section: TARGET,
    description: "where the deployment reaches certify's receiver",
    config: false,
  },
} as const;

export const INIT_OPTIONS = {
  ci: {
    type: "string",
    value: "github",
    description: "also write the CI workflow: .github/workflows/custody.yml (certify with the custody action)",
  },
  format: {
    type: "string",
    value: "yaml|json",
    description: "the config file's format (json has no comments)",
    default: "yaml",
  },
  force: { type: "boolean", description: "overwrite files that exist" },
  ...INIT_TARGET_SETTINGS,
  "restricted-keys": {
    type: "boolean",
    section: TARGET,
    description:
      "the target names a viewer key and a balances:read key by variable\n(STAGING_VIEWER_API_KEY, ..._SECRET, STAGING_SCOPED_API_KEY, ..._SECRET)",
    config: false,
  },
  "other-workspace-id": {
    type: "string",
    value: "ID",
    section: TARGET,
    description: "a second workspace, for tenant isolation (its key by variable: STAGING_OTHER_API_KEY, ..._SECRET)",
    config: false,
  },
  ...HELP_OPTION,
} as const;

export const INIT_COMMAND: CommandSpec<typeof INIT_OPTIONS> = {
  name: "init",
  summary: "write a commented starter custody.config.yaml (--ci github: and the CI workflow)",
  usage: ["custody init [--ci github] [--format yaml|json] [--force] [--base-url URL --wallet-id ID ...]"],
  about:
    "Writes custody.config.yaml in the working directory: one SDK to generate, two certify targets whose\nsecrets are named by environment variable, and the mock's and sandbox's settings. The staging target's\nURLs and seed-level fixtures come from the flags below; on a terminal, init asks for those not given\n(Enter skips one). Then: custody certify --target staging --plan.",
  options: INIT_OPTIONS,
  exitStatus: "0 written, 2 bad usage or a file that exists (without --force)",
};
