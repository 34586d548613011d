// `custody generate`: spec → generated code (flags in commands/generate.ts). With a config file, each
// of its `sdks` is one run (`--sdk NAME` picks). Every run ends with what its output needs installed.
// Exit 0: done (or, with --check, nothing would change). Exit 1: a broken spec, or --check found drift.
import { existsSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import {
  displayPath,
  type GenerateResult,
  generate,
  type PackageSpec,
  parsePackageSpec,
  type RuntimeSource,
  ZOD_FLAVOURS,
  type ZodFlavour,
} from "../generator/index.ts";
import { SpecError } from "../generator/load/spec-error.ts";
import { installLines } from "../generator/output-needs.ts";
import { packagePath } from "../lib/package-root.ts";
import { GENERATE_COMMAND, GENERATE_OPTIONS } from "./commands/generate.ts";
import { ConfigError, type LoadedConfig } from "./config-file.ts";
import { type ConfigContext, configOf, withConfig } from "./config-values.ts";
import { type FlagValues, parseFlags } from "./flags.ts";
import { helpText, usageBlock } from "./help.ts";
import { UsageError } from "./usage-error.ts";

export const GENERATE_USAGE = helpText(GENERATE_COMMAND);

type Values = FlagValues<typeof GENERATE_OPTIONS>;

export interface GenerateArgs {
  spec: string;
  rpcSpec?: string;
  out: string;
  check: boolean;
  lenient?: boolean;
  help: boolean;
  runtime?: RuntimeSource;
  package?: PackageSpec;
  zod?: ZodFlavour;
  mcp?: boolean;
}

/** The project's own spec/ when it has one, else the contract custody ships. */
const SPEC_DIR = existsSync("spec/openapi.yaml") ? "spec" : packagePath(import.meta.url, "spec");
const DEFAULT_SPEC = join(SPEC_DIR, "openapi.yaml");
const DEFAULT_RPC_SPEC = join(SPEC_DIR, "openrpc.json");

/** The flags alone (no config file): what tests and the flag checks use. */
export function parseGenerateArgs(argv: readonly string[]): GenerateArgs {
  return generateArgsOf(parseFlags(argv, GENERATE_OPTIONS, { usage: GENERATE_USAGE }).values);
}

/** One run's values (flags over config) as generate() options; a wrong value is named in one line. */
export function generateArgsOf(values: Values): GenerateArgs {
  const args: GenerateArgs = {
    spec: values.spec ?? DEFAULT_SPEC,
    out: values.out ?? "generated",
    check: values.check ?? false,
    help: values.help ?? false,
  };
  if (values.lenient) args.lenient = true;
  if (values.mcp) args.mcp = true;
  if (values.runtime !== undefined) {
    if (values.runtime !== "vendor" && values.runtime !== "package")
      throw new UsageError(`--runtime must be vendor or package, got '${values.runtime}'`);
    args.runtime = values.runtime;
  }
  if (values.zod !== undefined) {
    const zod = values.zod as ZodFlavour;
    if (!ZOD_FLAVOURS.includes(zod)) throw new UsageError(`--zod must be classic or mini, got '${values.zod}'`);
    args.zod = zod;
  }
  if (values.package !== undefined) {
    try {
      args.package = parsePackageSpec(values.package);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  const rpcSpec = values["rpc-spec"];
  if (values["no-rpc"] && rpcSpec !== undefined)
    throw new UsageError(`--rpc-spec and --no-rpc exclude each other\n\n${usageBlock(GENERATE_COMMAND)}`);
  if (!values["no-rpc"])
    args.rpcSpec =
      rpcSpec ?? (args.spec === DEFAULT_SPEC && existsSync(DEFAULT_RPC_SPEC) ? DEFAULT_RPC_SPEC : undefined);
  return args;
}

/** The runs this invocation makes: one per selected SDK of the config file, else one from the flags. */
export function generateRuns(
  flags: Values,
  config: LoadedConfig | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Array<{ name?: string; args: GenerateArgs }> {
  const names = config ? Object.keys(config.sdks) : [];
  if (flags.sdk !== undefined && names.length === 0) {
    throw new ConfigError(
      config ? `--sdk: ${config.file} has no sdks` : "--sdk needs a config file with sdks (custody init writes one)",
    );
  }
  if (names.length === 0) return [{ args: generateArgsOf(withConfig(flags, config, "generate", undefined, env)) }];
  const chosen =
    flags.sdk?.flatMap((s) =>
      s
        .split(",")
        .map((n) => n.trim())
        .filter(Boolean),
    ) ?? names;
  if (chosen.length > 1 && flags.out !== undefined)
    throw new UsageError(`--out with ${chosen.length} SDKs of ${config!.file}: pick one with --sdk NAME`);
  return chosen.map((name) => ({
    name,
    args: generateArgsOf(withConfig(flags, config, "generate", { kind: "sdks", name }, env)),
  }));
}

export async function run(argv: string[], ctx: ConfigContext = {}): Promise<number> {
  const { values } = parseFlags(argv, GENERATE_OPTIONS, { usage: GENERATE_USAGE });
  if (values.help) {
    console.log(GENERATE_USAGE);
    return 0;
  }
  const runs = generateRuns(values, configOf(values.config, ctx), ctx.env);
  let code = 0;
  for (const { name, args } of runs)
    code = Math.max(
      code,
      await generateOne(args, name === undefined ? "custody generate" : `custody generate [${name}]`),
    );
  return code;
}

/** A path as the user reads it: relative to the working directory when inside it (config paths are absolute). */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return isAbsolute(path) && rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}

async function generateOne(args: GenerateArgs, label: string): Promise<number> {
  const out = shown(args.out);
  let result: GenerateResult;
  try {
    result = await generate({
      specPath: args.spec,
      rpcSpecPath: args.rpcSpec,
      outDir: args.out,
      check: args.check,
      lenient: args.lenient,
      runtime: args.runtime,
      package: args.package,
      zod: args.zod,
      mcp: args.mcp,
    });
  } catch (error) {
    if (error instanceof SpecError) {
      console.error(`${label}: the spec is invalid, nothing was written:\n${error.message}`);
      return 1;
    }
    throw error;
  }
  printWarnings(label, result.warnings);
  const changed = result.files.filter((f) => f.changed);
  const seconds = (result.durationMs / 1000).toFixed(2);
  if (args.check) {
    if (changed.length === 0) {
      console.log(`${label} --check: ${out} is up to date (${result.files.length} files, ${seconds} s)`);
      return 0;
    }
    console.error(`${label} --check: ${out} is out of date; run \`custody generate\`:`);
    for (const f of changed) console.error(`  ${f.status.padEnd(7)} ${out}/${f.path}`);
    const { sdkSurfaceSummary } = await import("../diff/surface.ts");
    for (const line of await sdkSurfaceSummary(
      { openapi: args.spec, rpc: args.rpcSpec, display: displayPath },
      args.out,
    ).catch((e: Error) => [`SDK surface: not compared (${e.message.split("\n")[0]})`]))
      console.error(line);
    return 1;
  }
  const total = result.files.filter((f) => f.status !== "removed").length;
  const counts = (["changed", "added", "removed"] as const)
    .map((status) => [status, result.files.filter((f) => f.status === status).length] as const)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${n} ${status}`);
  const what = result.written === 0 ? `${total} files unchanged` : `${total} files: ${counts.join(", ")}`;
  console.log(`${label}: ${result.operations} operations, ${result.schemas} schemas → ${out} (${what}, ${seconds} s)`);
  for (const line of needsLines(out, args, result)) console.log(line);
  return 0;
}

/** What the output needs in the user's project: nothing for custody's own generated/, else the install lines. */
function needsLines(out: string, args: GenerateArgs, result: GenerateResult): string[] {
  if (result.needs === undefined) return [];
  if (args.package)
    return [`${out} is a package (its package.json lists what it needs): cd ${out} && npm install && npm run build`];
  const custody = Object.hasOwn(result.needs.dependencies, "custody")
    ? " (and custody, which this project has: the code imports custody/runtime)"
    : "";
  return [
    `${out} needs, in the project that compiles it${custody}:`,
    ...installLines(result.needs).map((line) => `  ${line}`),
    `and tsc with "module": "NodeNext" (every import in it ends in .js).`,
  ];
}

const MAX_WARNINGS = 20;

/** One line per warning on stderr (the first 20, then a count). */
function printWarnings(label: string, warnings: readonly string[]): void {
  for (const w of warnings.slice(0, MAX_WARNINGS)) console.error(`${label}: warning: ${w}`);
  if (warnings.length > MAX_WARNINGS)
    console.error(`${label}: ... and ${warnings.length - MAX_WARNINGS} more warnings`);
}
