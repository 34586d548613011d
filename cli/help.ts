// `custody <command> --help`, rendered from the command's declaration (options.ts): the synopsis, the
// options under their sections with environment variable and default, then notes, examples and exit
// status. docs/reference/cli.md is rendered from the same declarations (docs/reference-pages/cli.ts).
import { type CommandSpec, flagLabel, type OptionSpec } from "./options.ts";

const INDENT = "  ";
const GAP = 2;

/** The full help text of a command. */
export function helpText(command: CommandSpec): string {
  const blocks: string[] = [usageBlock(command)];
  if (command.about) blocks.push(command.about);
  if (command.arguments?.length)
    blocks.push(
      table(
        "arguments",
        command.arguments.map((a) => [a.name, "", a.description]),
      ),
    );
  for (const [section, entries] of sections(command)) {
    // An environment column where most flags of the section have one; else "(env X)" after the few that do.
    const column = entries.filter(([, o]) => o.env).length * 2 >= entries.length;
    blocks.push(
      table(
        section,
        entries.map(([name, o]) => [
          flagLabel(name, o),
          column ? (o.env ?? "") : "",
          column || !o.env ? describeOption(o) : `${describeOption(o)} (env ${o.env})`,
        ]),
      ),
    );
  }
  if (command.notes?.length) blocks.push(...command.notes);
  if (command.examples?.length) blocks.push(["examples:", ...command.examples.map((e) => `${INDENT}${e}`)].join("\n"));
  if (command.exitStatus) blocks.push(`exit status: ${command.exitStatus}`);
  return blocks.join("\n\n");
}

/** The synopsis: "usage: " before the first line, aligned continuation lines. */
export function usageBlock(command: CommandSpec): string {
  return command.usage.map((line, i) => `${i === 0 ? "usage: " : "       "}${line}`).join("\n");
}

/** Options grouped by section, in the order sections first appear; "-h" last. */
export function sections(command: CommandSpec): Array<[string, Array<[string, OptionSpec]>]> {
  const grouped = new Map<string, Array<[string, OptionSpec]>>();
  for (const [name, option] of Object.entries(command.options)) {
    const section = option.section ?? "options";
    grouped.set(section, [...(grouped.get(section) ?? []), [name, option]]);
  }
  return [...grouped];
}

/** The description with the default appended, as help and the reference show it. */
export function describeOption(option: OptionSpec): string {
  return option.default === undefined ? option.description : `${option.description} (default ${option.default})`;
}

/** Rows of [flag, env, description] under a heading, in aligned columns; the env column only when used. */
function table(heading: string, rows: Array<[string, string, string]>): string {
  const flagWidth = Math.max(...rows.map(([flag]) => flag.length)) + GAP;
  const envWidth = rows.some(([, env]) => env) ? Math.max(...rows.map(([, env]) => env.length)) + GAP : 0;
  const lines = rows.flatMap(([flag, env, description]) => {
    const [first, ...rest] = description.split("\n");
    const pad = " ".repeat(INDENT.length + flagWidth + envWidth);
    return [
      `${INDENT}${flag.padEnd(flagWidth)}${env.padEnd(envWidth)}${first}`.trimEnd(),
      ...rest.map((line) => `${pad}${line.trim()}`),
    ];
  });
  return [`${heading}:`, ...lines].join("\n");
}
