// `custody init`: writes a commented starter custody.config.yaml (templates/init/custody.config.yaml,
// or the same settings as JSON) and, with --ci github, a workflow that certifies one of its targets
// with custody's GitHub Action, passing exactly the secrets that target names.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { createInterface } from "node:readline/promises";
import { parse, parseDocument } from "yaml";
import { renderTemplate } from "../generator/emit/templates.ts";
import { packagePath } from "../lib/package-root.ts";
import { INIT_COMMAND, INIT_OPTIONS, INIT_TARGET_SETTINGS } from "./commands/init.ts";
import { type LoadedConfig, loadConfig } from "./config-file.ts";
import { parseFlags } from "./flags.ts";
import { helpText } from "./help.ts";
import { UsageError } from "./usage-error.ts";

export const INIT_USAGE = helpText(INIT_COMMAND);
export const WORKFLOW_PATH = join(".github", "workflows", "custody.yml");
const STARTER = packagePath(import.meta.url, "templates", "init", "custody.config.yaml");

export interface InitIo {
  cwd?: string;
  stdout?: (text: string) => void;
  /** Asks one question (default: on the terminal when stdin is one; otherwise init asks nothing). */
  ask?: (question: string) => Promise<string>;
}

/** The target init fills in. */
const CI_TARGET = "staging";

type Settings = Partial<Record<keyof typeof INIT_TARGET_SETTINGS, string>>;

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
  if (values.ci !== undefined && values.ci !== "github")
    throw new UsageError(`--ci: only github is supported, not '${values.ci}'`);
  const configName = `custody.config.${format}`;
  const paths = [configName, ...(values.ci === "github" ? [WORKFLOW_PATH] : [])];
  const existing = paths.filter((path) => existsSync(join(cwd, path)));
  if (existing.length > 0 && !values.force)
    throw new UsageError(
      `${existing.join(" and ")} already exist${existing.length === 1 ? "s" : ""}; --force overwrites`,
    );
  const settings = await askMissing(settingsOf(values), io.ask ?? terminalQuestion(), out);
  const extras = { restrictedKeys: values["restricted-keys"] === true, otherWorkspaceId: values["other-workspace-id"] };
  write(cwd, configName, configText(format, settings, extras), out);
  if (values.ci === "github")
    write(cwd, WORKFLOW_PATH, githubWorkflow(configName, loadConfig(join(cwd, configName), cwd)), out);
  out(nextSteps(configName, values.ci === "github", settings));
  return 0;
}

function write(cwd: string, path: string, content: string, out: (t: string) => void): void {
  mkdirSync(dirname(join(cwd, path)), { recursive: true });
  writeFileSync(join(cwd, path), content);
  out(`wrote ${path}\n`);
}

function settingsOf(values: Record<string, unknown>): Settings {
  const settings: Settings = {};
  for (const key of Object.keys(INIT_TARGET_SETTINGS) as Array<keyof Settings>) {
    if (typeof values[key] === "string" && values[key] !== "") settings[key] = values[key] as string;
  }
  return settings;
}

/** On a terminal, the settings not given as flags, one question each (Enter skips). */
async function askMissing(
  settings: Settings,
  ask: ((q: string) => Promise<string>) | undefined,
  out: (t: string) => void,
): Promise<Settings> {
  if (!ask) return settings;
  out(
    `The target ${CI_TARGET}: each answer goes into the config file (Enter skips; a skipped fixture leaves its checks skipped).\n`,
  );
  const answered: Settings = { ...settings };
  for (const [key, spec] of Object.entries(INIT_TARGET_SETTINGS) as Array<[keyof Settings, { description: string }]>) {
    if (answered[key] !== undefined) continue;
    const answer = (await ask(`  ${key} (${spec.description}): `)).trim();
    if (answer !== "") answered[key] = answer;
  }
  return answered;
}

/** A question on the terminal, or undefined when stdin is not one (then init takes flags only). */
function terminalQuestion(): ((q: string) => Promise<string>) | undefined {
  if (!process.stdin.isTTY) return undefined;
  return async (question) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    try {
      return await rl.question(question);
    } finally {
      rl.close();
    }
  };
}

/** The starter with the staging target's settings written in (comments kept). */
function configText(
  format: "yaml" | "json",
  settings: Settings,
  extras: { restrictedKeys: boolean; otherWorkspaceId?: string },
): string {
  const doc = parseDocument(readFileSync(STARTER, "utf8"));
  const set = (key: string, value: unknown) => doc.setIn(["targets", CI_TARGET, key], value);
  const envRef = (name: string) => {
    const node = doc.createNode({ env: name });
    node.flow = true;
    return node;
  };
  for (const [key, value] of Object.entries(settings)) set(key, value);
  if (extras.restrictedKeys) {
    for (const kind of ["viewer", "scoped"]) {
      set(`${kind}-api-key`, envRef(`STAGING_${kind.toUpperCase()}_API_KEY`));
      set(`${kind}-api-secret`, envRef(`STAGING_${kind.toUpperCase()}_API_SECRET`));
    }
  }
  if (extras.otherWorkspaceId) {
    set("other-workspace-id", extras.otherWorkspaceId);
    set("other-api-key", envRef("STAGING_OTHER_API_KEY"));
    set("other-api-secret", envRef("STAGING_OTHER_API_SECRET"));
  }
  const yaml = doc.toString();
  return format === "yaml" ? yaml : `${JSON.stringify(parse(yaml), null, 2)}\n`;
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

function nextSteps(configName: string, ci: boolean, settings: Settings): string {
  const edit = settings["base-url"] ? "check" : "edit";
  const lines = [
    "",
    `Next: ${edit} ${configName} (URLs, the secrets' variable names, the seed-level fixtures), then`,
    "  custody generate                           # the SDKs under sdks:",
    "  custody certify --target sandbox           # a passing run, against the embedded deployment",
  ];
  if (ci) lines.push(`  in ${relative(".", WORKFLOW_PATH)}: replace OWNER/custody@main, add the secrets it names`);
  lines.push(
    `  custody certify --target ${CI_TARGET} --plan    # what will run, and the flag that enables each check that will not`,
  );
  return `${lines.join("\n")}\n`;
}
