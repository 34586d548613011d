// The README's commands table, from the same declarations as `custody --help` (cli/commands/).
import { COMMAND_SPECS } from "../../cli/commands/index.ts";
import { table } from "./markdown.ts";

export function commandsSection(): string {
  return table(
    ["command", "what it does"],
    COMMAND_SPECS.map((c) => [
      `[\`custody ${c.name}\`](docs/reference/cli.md#custody-${c.name})`,
      `${c.summary}${c.configSection ? " · reads the config file" : ""}`,
    ]),
  ).join("\n");
}
