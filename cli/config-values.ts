// What a command runs with when there is a config file: its section (and the named SDK or target)
// under the flags, as if those values had been typed. So the order is decided here, once: a flag wins
// over the config file, and the config file over the environment variables the commands read when a
// value is still missing.
import {
  ConfigError,
  findConfigFile,
  type LoadedConfig,
  loadConfig,
  type NamedSection,
  resolveSection,
  SECTION_COMMANDS,
} from "./config-file.ts";
import type { ConfigSection } from "./options.ts";

export interface ConfigContext {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

/** The config file of this run (`--config FILE`, else the working directory's), loaded and validated; undefined without one. */
export function configOf(explicit: string | undefined, ctx: ConfigContext = {}): LoadedConfig | undefined {
  const cwd = ctx.cwd ?? process.cwd();
  const path = findConfigFile(explicit, cwd);
  return path === undefined ? undefined : loadConfig(path, cwd);
}

/**
 * The flags with the config file's values beneath them: the command's section, then the named entry
 * (`sdks.NAME`, `targets.NAME`) over it, then the flags over both.
 */
export function withConfig<V extends object>(
  flags: V,
  config: LoadedConfig | undefined,
  section: ConfigSection,
  named?: { kind: NamedSection; name: string },
  env: NodeJS.ProcessEnv = process.env,
): V {
  if (config === undefined) return flags;
  const command = SECTION_COMMANDS[section];
  const base = resolveSection(config, section, command, config.sections[section] ?? {}, env);
  const entry = named
    ? resolveSection(config, `${named.kind}.${named.name}`, command, entryOf(config, named.kind, named.name), env)
    : {};
  const given = Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined));
  return { ...base, ...entry, ...given } as V;
}

/** The named entry, or a one-line error listing the names the file defines. */
export function entryOf(config: LoadedConfig, kind: NamedSection, name: string) {
  const entries = config[kind];
  if (!Object.hasOwn(entries, name)) {
    const names = Object.keys(entries);
    throw new ConfigError(
      `${config.file} defines no ${singular(kind)} '${name}'${names.length ? ` (${kind}: ${names.join(", ")})` : ` (it has no ${kind})`}`,
    );
  }
  return entries[name];
}

/** "; or --target NAME (custody.config.yaml defines staging, production)", for a missing-target message. */
export function namedHint(config: LoadedConfig | undefined, kind: NamedSection): string {
  const names = config ? Object.keys(config[kind]) : [];
  const flag = kind === "targets" ? "--target" : "--sdk";
  return names.length ? `; or ${flag} NAME (${config!.file} defines ${names.join(", ")})` : "";
}

function singular(kind: NamedSection): string {
  return kind === "sdks" ? "SDK" : "target";
}
