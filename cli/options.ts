// The declarations every command is read from: one entry per flag (what it does, its environment
// variable, its default, whether it is a secret or a path). The parser (flags.ts), `--help` (help.ts),
// the config file's keys (config-file.ts) and docs/reference/cli.md and config.md are all derived from
// them, so a new flag is a new entry here and nowhere else.
import type { FlagSpec } from "./flags.ts";

export interface OptionSpec extends FlagSpec {
  /** What the value looks like in usage lines ("URL", "N"); a boolean flag has none. */
  value?: string;
  /** What the flag does; "\n" starts a continuation line. */
  description: string;
  /** The environment variable read when neither the flag nor the config file gives a value. */
  env?: string;
  /** The default as a user reads it (help and reference); the command applies it. */
  default?: string;
  /** A credential: in the config file only as the name of an environment variable, never inline. */
  secret?: true;
  /** A file or folder: relative paths in the config file are read from the config file's folder. */
  path?: true;
  /** false: not a config key (help, --config itself, the selectors --sdk and --target). */
  config?: false;
  /** The heading under which --help and the reference list it ("target", "run", …). */
  section?: string;
}

export type Options = Readonly<Record<string, OptionSpec>>;

/** The config file's sections that configure a command (generate also has named `sdks`, certify named `targets`). */
export type ConfigSection = "generate" | "certify" | "mock" | "sandbox" | "mcp";

export interface CommandSpec<O extends Options = Options> {
  name: string;
  /** One line, for `custody --help`. */
  summary: string;
  /** Synopsis lines, each starting with "custody <name>". */
  usage: readonly string[];
  /** A paragraph after the synopsis. */
  about?: string;
  /** Positional arguments. */
  arguments?: ReadonlyArray<{ name: string; description: string }>;
  options: O;
  /** Paragraphs after the options (which environment variables, where files go, …). */
  notes?: readonly string[];
  examples?: readonly string[];
  exitStatus?: string;
  /** The config file section this command reads, when it reads one. */
  configSection?: ConfigSection;
}

/** The usual `--help`/`-h` flag. */
export const HELP_OPTION = {
  help: { type: "boolean", short: "h", description: "print this help and exit", config: false },
} as const satisfies Options;

/** `--config FILE`, on every command that reads the config file. */
export const CONFIG_OPTION = {
  config: {
    type: "string",
    value: "FILE",
    path: true,
    config: false,
    description: "read this config file (default: custody.config.yaml, .yml or .json in the working directory)",
  },
} as const satisfies Options;

/** The flag as written in usage lines: `--base-url URL`, `-h, --help`. */
export function flagLabel(name: string, option: OptionSpec): string {
  const long = `--${name}${option.value ? ` ${option.value}` : ""}`;
  return option.short ? `-${option.short}, ${long}` : long;
}

/** The options that are keys of the config file, in declaration order. */
export function configKeys(options: Options): string[] {
  return Object.entries(options)
    .filter(([, o]) => o.config !== false)
    .map(([name]) => name);
}
