// custody.config.{yaml,yml,json}: found in the working directory (or named by --config), parsed and
// validated against the command declarations. Every key of a section is a flag of the command that
// section configures (commands/*.ts), so a new flag is a new key without a second list. Secrets are
// written only as the name of an environment variable: `api-secret: { env: STAGING_API_SECRET }`.
// Every problem is one line naming the file and the key path.
import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve } from "node:path";
import { LineCounter, parseDocument } from "yaml";
import { CERTIFY_COMMAND } from "./commands/certify.ts";
import { GENERATE_COMMAND } from "./commands/generate.ts";
import { MCP_COMMAND } from "./commands/mcp.ts";
import { MOCK_COMMAND } from "./commands/mock.ts";
import { SANDBOX_COMMAND } from "./commands/sandbox.ts";
import { type CommandSpec, type ConfigSection, configKeys, type OptionSpec } from "./options.ts";

export const CONFIG_FILE_NAMES = ["custody.config.yaml", "custody.config.yml", "custody.config.json"] as const;

/** The command each section configures. */
export const SECTION_COMMANDS: Readonly<Record<ConfigSection, CommandSpec>> = {
  generate: GENERATE_COMMAND,
  certify: CERTIFY_COMMAND,
  mock: MOCK_COMMAND,
  sandbox: SANDBOX_COMMAND,
  mcp: MCP_COMMAND,
};

/** Named entries: `sdks` are runs of generate (`--sdk NAME`), `targets` runs of certify (`--target NAME`). */
export const NAMED_SECTIONS = { sdks: "generate", targets: "certify" } as const satisfies Record<string, ConfigSection>;
export type NamedSection = keyof typeof NAMED_SECTIONS;

const TOP_KEYS = [...Object.keys(NAMED_SECTIONS), ...Object.keys(SECTION_COMMANDS)];

/** A value as written: literal, or an environment variable's name resolved when the section is used. */
export type ConfigValue = string | boolean | string[] | { env: string };
export type SectionValues = Record<string, ConfigValue>;

export interface LoadedConfig {
  /** The file as the user knows it (relative to the working directory when inside it). */
  file: string;
  /** Relative paths in the file are read from here. */
  dir: string;
  sections: Partial<Record<ConfigSection, SectionValues>>;
  sdks: Record<string, SectionValues>;
  targets: Record<string, SectionValues>;
}

/** A problem with the config file: one line, exit 2 (not a UsageError: no usage text follows it). */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/** `--config FILE`, else the one custody.config.* of the working directory, else undefined. */
export function findConfigFile(explicit: string | undefined, cwd: string): string | undefined {
  if (explicit !== undefined) {
    const file = resolve(cwd, explicit);
    if (!existsSync(file)) throw new ConfigError(`--config: ${explicit} does not exist`);
    return file;
  }
  const found = CONFIG_FILE_NAMES.map((name) => resolve(cwd, name)).filter((file) => existsSync(file));
  if (found.length > 1)
    throw new ConfigError(`${found.map((f) => relative(cwd, f)).join(" and ")} both exist: keep one`);
  return found[0];
}

/** Reads and validates the whole file (every section, whichever command reads it). */
export function loadConfig(path: string, cwd: string): LoadedConfig {
  const rel = relative(cwd, path);
  const file = rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
  const data = parseFile(path, file);
  const config: LoadedConfig = { file, dir: dirname(path), sections: {}, sdks: {}, targets: {} };
  if (data === null || data === undefined) return config;
  if (!isPlainObject(data)) throw new ConfigError(`${file}: expected a mapping of sections (${TOP_KEYS.join(", ")})`);
  for (const [key, value] of Object.entries(data)) {
    if (key === "$schema") continue;
    if (Object.hasOwn(NAMED_SECTIONS, key)) {
      const named = key as NamedSection;
      config[named] = namedEntries(file, named, value);
    } else if (Object.hasOwn(SECTION_COMMANDS, key)) {
      config.sections[key as ConfigSection] = sectionValues(file, key, SECTION_COMMANDS[key as ConfigSection], value);
    } else {
      throw new ConfigError(
        `${file}: ${key}: unknown key${suggestion(key, TOP_KEYS)} (sections: ${TOP_KEYS.join(", ")})`,
      );
    }
  }
  return config;
}

function parseFile(path: string, file: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8").replace(/^\uFEFF/, "");
  } catch (error) {
    throw new ConfigError(
      `${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  if (path.endsWith(".json")) {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new ConfigError(`${file}: not JSON: ${(error as Error).message}`);
    }
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const [first] = doc.errors;
  if (first) {
    const at = lines.linePos(first.pos[0]);
    throw new ConfigError(`${file}:${at.line}:${at.col}: not YAML: ${first.message.split("\n")[0]}`);
  }
  return doc.toJS() as unknown;
}

function namedEntries(file: string, key: NamedSection, value: unknown): Record<string, SectionValues> {
  if (!isPlainObject(value)) throw new ConfigError(`${file}: ${key}: expected a mapping of names to settings`);
  const command = SECTION_COMMANDS[NAMED_SECTIONS[key]];
  const out: Record<string, SectionValues> = {};
  for (const [name, settings] of Object.entries(value)) {
    if (!/^[A-Za-z0-9][\w.-]*$/.test(name))
      throw new ConfigError(`${file}: ${key}.${name}: a name is letters, digits, '.', '_' or '-'`);
    out[name] = sectionValues(file, `${key}.${name}`, command, settings);
  }
  return out;
}

function sectionValues(file: string, where: string, command: CommandSpec, value: unknown): SectionValues {
  if (value === null || value === undefined) return {};
  if (!isPlainObject(value))
    throw new ConfigError(`${file}: ${where}: expected a mapping of ${command.name}'s settings`);
  const keys = configKeys(command.options);
  const out: SectionValues = {};
  for (const [key, raw] of Object.entries(value)) {
    if (!keys.includes(key)) {
      const why = Object.hasOwn(command.options, key)
        ? "is not a config key (give it on the command line)"
        : `unknown key${suggestion(key, keys)}`;
      throw new ConfigError(`${file}: ${where}.${key}: ${why}; ${command.name} takes ${keys.join(", ")}`);
    }
    out[key] = checkedValue(`${file}: ${where}.${key}`, key, command.options[key], raw);
  }
  return out;
}

/** One value against its flag's declaration. */
function checkedValue(at: string, key: string, option: OptionSpec, raw: unknown): ConfigValue {
  if (option.type === "boolean") {
    if (typeof raw !== "boolean") throw new ConfigError(`${at}: expected true or false`);
    return raw;
  }
  if (isPlainObject(raw) && Object.keys(raw).length === 1 && "env" in raw) {
    if (typeof raw.env !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(raw.env))
      throw new ConfigError(`${at}: env must name an environment variable (letters, digits, _)`);
    return { env: raw.env };
  }
  if (option.secret) {
    throw new ConfigError(
      `${at}: a secret is never written in the config file; name its environment variable instead: ${key}: { env: ${suggestedEnv(option, key)} }`,
    );
  }
  if (option.multiple && Array.isArray(raw)) {
    if (raw.length === 0 || !raw.every(isScalarText)) throw new ConfigError(`${at}: expected a list of strings`);
    return raw.map(String);
  }
  if (!isScalarText(raw))
    throw new ConfigError(
      `${at}: expected ${option.multiple ? "a string or a list of strings" : "a string"}${option.value ? ` (${option.value})` : ""}`,
    );
  const text = String(raw);
  if (text === "") throw new ConfigError(`${at}: empty; leave the key out instead`);
  return option.multiple ? [text] : text;
}

/** The section's values with environment variables read and paths made absolute: what the flags would have given. */
export function resolveSection(
  config: LoadedConfig,
  where: string,
  command: CommandSpec,
  values: SectionValues,
  env: NodeJS.ProcessEnv,
): Record<string, string | boolean | string[]> {
  const out: Record<string, string | boolean | string[]> = {};
  for (const [key, value] of Object.entries(values)) {
    let resolved: string | boolean | string[];
    if (typeof value === "object" && !Array.isArray(value)) {
      const fromEnv = env[value.env];
      if (fromEnv === undefined || fromEnv === "")
        throw new ConfigError(`${config.file}: ${where}.${key}: environment variable ${value.env} is not set`);
      resolved = command.options[key].multiple ? [fromEnv] : fromEnv;
    } else resolved = value;
    out[key] = command.options[key].path && typeof resolved === "string" ? resolve(config.dir, resolved) : resolved;
  }
  return out;
}

function suggestedEnv(option: OptionSpec, key: string): string {
  return option.env ?? `CUSTODY_${key.toUpperCase().replace(/-/g, "_")}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isScalarText(value: unknown): value is string | number {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/** ", did you mean 'port'?" for a key one or two edits away from a known one. */
function suggestion(key: string, known: readonly string[]): string {
  const best = known.map((k) => [k, editDistance(key, k)] as const).sort((a, b) => a[1] - b[1])[0];
  return best && best[1] <= 2 ? ` (did you mean '${best[0]}'?)` : "";
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}
