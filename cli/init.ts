// `custody init`: writes a commented starter custody.config.yaml (templates/init/custody.config.yaml,
// or the same settings as JSON) and, with --ci github, a workflow that certifies one of its targets
// with custody's GitHub Action, passing exactly the secrets that target names.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { parse } from "yaml";
import { renderTemplate } from "../generator/emit/templates.ts";
import { packagePath } from "../lib/package-root.ts";
import { INIT_COMMAND, INIT_OPTIONS } from "./commands/init.ts";
import { loadConfig, type LoadedConfig } from "./config-file.ts";
import { parseFlags } from "./flags.ts";
import { helpText } from "./help.ts";
import { UsageError } from "./usage-error.ts";

export const INIT_USAGE = helpText(INIT_COMMAND);
export const WORKFLOW_PATH = join(".github", "workflows", "custody.yml");
const STARTER = packagePath(import.meta.url, "templates", "init", "custody.config.yaml");

export interface InitIo {
  cwd?: string;
  stdout?: (text: string) => void;
}

export async function run(argv: string[], io: InitIo = {}): Promise<number> {
  const cwd = io.cwd ?? process.cwd();
  const out = io.stdout ?? ((t: string) => void process.stdout.write(t));
  const { values } = parseFlags(argv, INIT_OPTIONS, { usage: INIT_USAGE });
  if (values.help) {
    out(`${INIT_USAGE}\n`);
    return 0;
  }
  const format = values.format ?? "yaml";
  if (format !== "yaml" && format !== "json") throw new UsageError(`--format must be yaml or json, not '${format}'`);
  if (values.ci !== undefined && values.ci !== "github") throw new UsageError(`--ci: only github is supported, not '${values.ci}'`);
  const configName = `custody.config.${format}`;
  const files: Array<[string, string]> = [[configName, starterConfig(format)]];
  if (values.ci === "github") files.push([WORKFLOW_PATH, githubWorkflow(configName, loadConfig(STARTER, dirname(STARTER)))]);
  const existing = files.map(([path]) => path).filter((path) => existsSync(join(cwd, path)));
  if (existing.length > 0 && !values.force) throw new UsageError(`${existing.join(" and ")} already exist${existing.length === 1 ? "s" : ""}; --force overwrites`);
  for (const [path, content] of files) {
    mkdirSync(dirname(join(cwd, path)), { recursive: true });
    writeFileSync(join(cwd, path), content);
    out(`wrote ${path}\n`);
  }
  out(nextSteps(configName, values.ci === "github"));
  return 0;
}

/** The starter: the commented YAML as shipped, or the same settings as JSON (which has no comments). */
export function starterConfig(format: "yaml" | "json"): string {
  const yaml = readFileSync(STARTER, "utf8");
  return format === "yaml" ? yaml : `${JSON.stringify(parse(yaml), null, 2)}\n`;
}

/** The workflow for the config's first target that is not the sandbox, with the secrets it names. */
export function githubWorkflow(configFile: string, config: LoadedConfig): string {
  const [target, settings] = Object.entries(config.targets).find(([, s]) => s.sandbox !== true) ?? [];
  if (target === undefined || settings === undefined) throw new Error(`${config.file} has no target to certify in CI`);
  const names = Object.values(settings).flatMap((v) => (typeof v === "object" && !Array.isArray(v) ? [v.env] : []));
  const env = names.map((name) => ({ name, expression: `\${{ secrets.${name} }}` }));
  return renderTemplate("init/github-workflow.yml", { target, configFile, env });
}

function nextSteps(configName: string, ci: boolean): string {
  const lines = [
    "",
    `Next: edit ${configName} (URLs, the secrets' variable names), then`,
    "  custody generate                    # the SDKs under sdks:",
    "  custody certify --target sandbox    # a passing run, against the embedded deployment",
    "  custody certify --target staging    # your deployment, with its secrets in the environment",
  ];
  if (ci) lines.push(`and in ${relative(".", WORKFLOW_PATH)}: replace OWNER/custody@main, add the secrets it names.`);
  return `${lines.join("\n")}\n`;
}
