// The GitHub Action's inputs and outputs, from action.yml, for docs/guides/certify-in-ci.md.
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { packagePath } from "../../lib/package-root.ts";
import { table } from "./markdown.ts";

interface Action {
  inputs?: Record<string, { description?: string; default?: string; required?: boolean }>;
  outputs?: Record<string, { description?: string }>;
}

export function actionSection(): string {
  const action = parse(readFileSync(packagePath(import.meta.url, "action.yml"), "utf8")) as Action;
  return [
    "Inputs (all optional; from [action.yml](../../action.yml)):",
    "",
    ...table(
      ["input", "default", "what it is"],
      Object.entries(action.inputs ?? {}).map(([name, i]) => [
        `\`${name}\``,
        i.default === undefined || i.default === "" ? "" : `\`${i.default}\``,
        i.description ?? "",
      ]),
    ),
    "",
    "Outputs:",
    "",
    ...table(
      ["output", "what it is"],
      Object.entries(action.outputs ?? {}).map(([name, o]) => [`\`${name}\``, o.description ?? ""]),
    ),
  ].join("\n");
}
