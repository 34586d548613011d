// How every subcommand reads its flags: node:util's parseArgs (strict: `--flag value` and
// `--flag=value`, `-h`, `--` ends the flags), with its errors turned into the one-line UsageErrors
// the CLI prints (exit 2), each naming the flag. A flag given an empty value counts as missing it.
import { parseArgs } from "node:util";
import { UsageError } from "./usage-error.ts";

export interface FlagSpec {
  type: "string" | "boolean";
  short?: string;
  /** Repeatable: the values come as an array, in order. */
  multiple?: boolean;
}

type FlagValue<S extends FlagSpec> = S["type"] extends "boolean"
  ? boolean
  : S["multiple"] extends true
    ? string[]
    : string;
export type FlagValues<O extends Record<string, FlagSpec>> = { [K in keyof O]?: FlagValue<O[K]> };

/** The usual `--help`/`-h` flag. */
export const HELP_FLAG = { help: { type: "boolean", short: "h" } } as const satisfies Record<string, FlagSpec>;

/**
 * Parses argv against `options`. `usage` is appended to an unknown-option error (the user asked for
 * something that is not there); the other errors are one line.
 */
export function parseFlags<const O extends Record<string, FlagSpec>>(
  argv: readonly string[],
  options: O,
  opts: { positionals?: boolean; usage?: string } = {},
): { values: FlagValues<O>; positionals: string[] } {
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({
      args: dashValues(argv, options),
      options: parseArgsOptions(options),
      allowPositionals: opts.positionals ?? false,
      strict: true,
    });
  } catch (error) {
    throw withDashHint(usageErrorOf(error as Error & { code?: string }, opts.usage), argv, options);
  }
  for (const [name, value] of Object.entries(parsed.values)) {
    if (value === "" || (Array.isArray(value) && value.includes(""))) throw new UsageError(`--${name} needs a value`);
  }
  return parsed as { values: FlagValues<O>; positionals: string[] };
}

/** Only what parseArgs reads: declarations carry more (description, env, default), which it must not apply. */
function parseArgsOptions(options: Record<string, FlagSpec>): Record<string, FlagSpec> {
  return Object.fromEntries(
    Object.entries(options).map(([name, o]) => [
      name,
      { type: o.type, ...(o.short !== undefined ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}) },
    ]),
  );
}

/**
 * `--amount -1` as `--amount=-1`: parseArgs refuses a separate value that starts with a dash as
 * ambiguous, which would tell a user who typed a negative number that the value is missing instead of
 * what is wrong with it. A value starting with `--`, or a known short flag, stays a flag.
 */
function dashValues(argv: readonly string[], options: Record<string, FlagSpec>): string[] {
  const shorts = new Set(Object.values(options).map((o) => (o.short === undefined ? undefined : `-${o.short}`)));
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const next = argv[i + 1];
    const takesValue = arg.startsWith("--") && !arg.includes("=") && options[arg.slice(2)]?.type === "string";
    if (takesValue && next !== undefined && /^-[^-]/.test(next) && !shorts.has(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/**
 * `--api-secret --x…` where `--x…` is no flag of the command: most likely a value that starts with `--` (a
 * base64url secret may), which only `--api-secret=--x…` passes; say so instead of only "needs a value".
 */
function withDashHint(error: UsageError, argv: readonly string[], options: Record<string, FlagSpec>): UsageError {
  const missing = /^(--[^\s]+) needs a value$/.exec(error.message)?.[1];
  const next = missing === undefined ? undefined : argv[argv.indexOf(missing) + 1];
  if (next === undefined || !next.startsWith("--") || next === "--" || next.slice(2).split("=")[0] in options)
    return error;
  return new UsageError(`${missing} needs a value; a value that starts with '-' is written ${missing}=<value>`);
}

/** parseArgs' messages, shortened to what the user needs: which flag, and what is wrong with it. */
function usageErrorOf(error: Error & { code?: string }, usage: string | undefined): UsageError {
  const flag = /'(-{1,2}[^'\s<=]+)/.exec(error.message)?.[1];
  const positional = /Unexpected argument '([^']*)'/.exec(error.message)?.[1];
  switch (error.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return new UsageError(`unknown option '${flag}'${usage ? `\n\n${usage}` : ""}`);
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      return new UsageError(
        /does not take an argument/.test(error.message) ? `${flag} takes no value` : `${flag} needs a value`,
      );
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return new UsageError(`unexpected argument '${positional}'`);
    default:
      return new UsageError(error.message);
  }
}
