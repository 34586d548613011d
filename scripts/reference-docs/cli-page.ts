// docs/reference/cli.md, from the same declarations `custody <command> --help` prints (cli/commands/).
import { COMMAND_SPECS } from "../../cli/commands/index.ts";
import { describeOption, sections, usageBlock } from "../../cli/help.ts";
import { type CommandSpec, flagLabel } from "../../cli/options.ts";
import { generatedNote, inline, prose, table } from "./markdown.ts";

export function cliPage(commands: readonly CommandSpec[] = COMMAND_SPECS): string {
  return [
    "# Command line",
    "",
    generatedNote("cli/commands/*.ts, the declarations `custody <command> --help` prints"),
    "",
    "One bin, `custody` (`npx custody …` where it is installed, `node bin/custody.js …` in a clone). Every command takes `--help`, which prints what this page says; " +
      "`custody --version` prints the version. Flags read the same way everywhere: `--flag value` or `--flag=value`, and a wrong one is named in one line with exit 2 " +
      "(`unknown option '--x'`, `--port needs a value`). Commands with a *config key* column also read [custody.config.yaml](config.md): " +
      "a flag typed on the command line wins over the file, and the file over the environment variable.",
    "",
    ...table(
      ["command", "what it does"],
      commands.map((c) => [`[\`custody ${c.name}\`](#custody-${c.name})`, c.summary]),
    ),
    "",
    ...commands.flatMap(commandSection),
  ].join("\n");
}

function commandSection(command: CommandSpec): string[] {
  const out = [`## custody ${command.name}`, "", "```text", usageBlock(command), "```", ""];
  if (command.about) out.push(inline(prose(command.about)), "");
  if (command.arguments?.length)
    out.push(
      ...table(
        ["argument", "what it is"],
        command.arguments.map((a) => [`\`${a.name}\``, prose(a.description)]),
      ),
      "",
    );
  const configurable = command.configSection !== undefined;
  for (const [section, entries] of sections(command)) {
    out.push(`### ${section[0].toUpperCase()}${section.slice(1)}`, "");
    const withEnv = entries.some(([, o]) => o.env);
    const header = [
      "flag",
      ...(withEnv ? ["environment"] : []),
      "what it does",
      ...(configurable ? ["config key"] : []),
    ];
    const rows = entries.map(([name, o]) => [
      `\`${flagLabel(name, o)}\``,
      ...(withEnv ? [o.env ? `\`${o.env}\`` : ""] : []),
      prose(describeOption(o)),
      ...(configurable
        ? [o.config === false ? "—" : `\`${name}\`${o.secret ? " (secret: `{ env: NAME }`)" : ""}`]
        : []),
    ]);
    out.push(...table(header, rows), "");
  }
  for (const note of command.notes ?? []) out.push(inline(prose(note)), "");
  if (command.examples?.length)
    out.push(
      "<!-- not-run: examples of the flags; the guides run these commands as written -->",
      "```sh",
      ...command.examples,
      "```",
      "",
    );
  if (command.exitStatus) out.push(`Exit status: ${inline(prose(command.exitStatus))}.`, "");
  return out;
}
