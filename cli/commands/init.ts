// `custody init`: its declaration (flags, help); the command is ../init.ts.
import { HELP_OPTION, type CommandSpec } from "../options.ts";

export const INIT_OPTIONS = {
  ci: { type: "string", value: "github", description: "also write the CI workflow: .github/workflows/custody.yml (certify with the custody action)" },
  format: { type: "string", value: "yaml|json", description: "the config file's format (json has no comments)", default: "yaml" },
  force: { type: "boolean", description: "overwrite files that exist" },
  ...HELP_OPTION,
} as const;

export const INIT_COMMAND: CommandSpec<typeof INIT_OPTIONS> = {
  name: "init",
  summary: "write a commented starter custody.config.yaml (--ci github: and the CI workflow)",
  usage: ["custody init [--ci github] [--format yaml|json] [--force]"],
  about: "Writes custody.config.yaml in the working directory: one SDK to generate, two certify targets whose\nsecrets are named by environment variable, and the mock's and sandbox's settings. Edit it, then run\ncustody generate, custody certify --target staging, custody sandbox.",
  options: INIT_OPTIONS,
  exitStatus: "0 written, 2 bad usage or a file that exists (without --force)",
};
