// docs/reference/config.md: every key of custody.config.{yaml,json}, from the flag declarations the
// config file is validated against (cli/config-file.ts), and the starter `custody init` writes.
import { readFileSync } from "node:fs";
import { CONFIG_FILE_NAMES, NAMED_SECTIONS, SECTION_COMMANDS } from "../../cli/config-file.ts";
import { describeOption } from "../../cli/help.ts";
import { type CommandSpec, type ConfigSection, configKeys, type OptionSpec } from "../../cli/options.ts";
import { packagePath } from "../../lib/package-root.ts";
import { generatedNote, prose, table } from "./markdown.ts";

const STARTER = packagePath(import.meta.url, "templates", "init", "custody.config.yaml");

export function configPage(): string {
  const named = Object.entries(NAMED_SECTIONS) as Array<[keyof typeof NAMED_SECTIONS, ConfigSection]>;
  return [
    "# custody.config.yaml",
    "",
    generatedNote("cli/commands/*.ts (the flags each section takes) and templates/init/custody.config.yaml"),
    "",
    `\`custody generate\`, \`certify\`, \`mock\` and \`sandbox\` read ${CONFIG_FILE_NAMES.map((n) => `\`${n}\``).join(", ")} from the working directory ` +
      "(two of them side by side is an error), or the file `--config FILE` names. `custody init` writes a commented starter (below).",
    "",
    "- **Keys are flags.** Each key of a section is a flag of the command it configures, without the dashes: the tables below are those flags. " +
      "A flag added to a command is a key at once.",
    "- **Order.** A flag typed on the command line wins over the file; the file wins over the environment variables the commands read " +
      "(`CUSTODY_BASE_URL`, …) when neither gives a value. A named entry (`sdks.NAME`, `targets.NAME`) wins over its command's section.",
    "- **Secrets** are never written in the file: a key marked *secret* takes only `{ env: NAME }`, the name of the environment variable " +
      "that holds it, read when that section is used. An inline value is refused. Any other string key may use `{ env: NAME }` too.",
    "- **Paths** (keys marked *path*) are relative to the file's folder.",
    "- **Errors** are one line naming the file and the key path, exit 2: " +
      "`custody.config.yaml: targets.staging.bse-url: unknown key (did you mean 'base-url'?); certify takes …`, " +
      "`custody.config.yaml: targets.staging.api-secret: a secret is never written in the config file; …`, " +
      "`custody.config.yaml: targets.staging.api-secret: environment variable STAGING_API_SECRET is not set`, " +
      "`custody.config.yaml:3:1: not YAML: …`.",
    "",
    "## Sections",
    "",
    ...table(
      ["key", "what it holds", "used by"],
      [
        ...named.map(([key, section]) => [
          `\`${key}.<name>\``,
          `named runs of \`custody ${section}\`, each with [${section}'s keys](#${section}-and-${key}name)`,
          namedUse(key),
        ]),
        ...(Object.keys(SECTION_COMMANDS) as ConfigSection[]).map((section) => [
          `\`${section}\``,
          named.some(([, s]) => s === section)
            ? `settings for every run of \`custody ${section}\` (a named entry's own values win)`
            : `settings of \`custody ${section}\``,
          `\`custody ${section}\``,
        ]),
      ],
    ),
    "",
    ...(Object.entries(SECTION_COMMANDS) as Array<[ConfigSection, CommandSpec]>).flatMap(([section, command]) =>
      sectionKeys(section, command, named.find(([, s]) => s === section)?.[0]),
    ),
    "## The starter `custody init` writes",
    "",
    "```yaml",
    readFileSync(STARTER, "utf8").trimEnd(),
    "```",
    "",
  ].join("\n");
}

function namedUse(key: keyof typeof NAMED_SECTIONS): string {
  return key === "sdks" ? "`custody generate` (every SDK; `--sdk NAME` for one)" : "`custody certify --target NAME`";
}

function sectionKeys(section: ConfigSection, command: CommandSpec, named: string | undefined): string[] {
  const heading = named ? `## \`${section}\` and \`${named}.<name>\`` : `## \`${section}\``;
  const rows = configKeys(command.options).map((key) => {
    const option = command.options[key];
    return [`\`${key}\``, valueText(option), prose(describeOption(option))];
  });
  return [heading, "", ...table(["key", "value", "what it does"], rows), ""];
}

function valueText(option: OptionSpec): string {
  if (option.type === "boolean") return "`true` / `false`";
  if (option.secret) return "*secret*: `{ env: NAME }` only";
  const base = option.value ? `\`${option.value}\`` : "string";
  const kind = option.multiple ? `${base}, or a list of them` : base;
  return option.path ? `${kind} (*path*)` : kind;
}
