// `custody generate [--spec spec/openapi.yaml] [--rpc-spec spec/openrpc.json] [--out generated] [--check]`
// Exit 0: done (or, with --check, nothing would change). Exit 1: a broken spec, or --check found drift.
import { existsSync } from "node:fs";
import { SpecError } from "../generator/load/spec-error.ts";
import { join } from "node:path";
import { displayPath, generate, parsePackageSpec, type PackageSpec, type RuntimeSource } from "../generator/index.ts";
import { packagePath } from "../lib/package-root.ts";
import { HELP_FLAG, parseFlags } from "./flags.ts";
import { UsageError } from "./usage-error.ts";

export const GENERATE_USAGE = `usage: custody generate [--spec FILE] [--rpc-spec FILE | --no-rpc] [--out DIR] [--runtime vendor|package] [--package NAME[@VERSION]] [--check] [--lenient]

  --spec FILE         OpenAPI 3.0 or 3.1 document, or Swagger 2.0 (converted; needs swagger2openapi)
                      (default ./spec/openapi.yaml, else the one custody ships)
  --rpc-spec FILE     OpenRPC document for rpc.ts (default spec/openrpc.json beside the default spec)
  --no-rpc            do not generate rpc.ts
  --out DIR           output directory (default generated); replaced as a whole, atomically
  --runtime vendor    copy custody's runtime into DIR/runtime (default): the code needs only zod, undici, ws, @noble/*
  --runtime package   import it from "custody/runtime" instead (the project then depends on custody)
  --package NAME[@V]  write a publishable package into DIR: package.json, tsconfig.json, README.md, sources in src/
  --check             write nothing; exit 1 naming each file that would change
  --lenient           generate from documents invalid in common published ways (type 'null' in 3.0,
                      schema: null), printing one warning per repair`;

export interface GenerateArgs {
  spec: string;
  rpcSpec?: string;
  out: string;
  check: boolean;
  lenient?: boolean;
  help: boolean;
  runtime?: RuntimeSource;
  package?: PackageSpec;
}

/** The project's own spec/ when it has one, else the contract custody ships. */
const SPEC_DIR = existsSync("spec/openapi.yaml") ? "spec" : packagePath(import.meta.url, "spec");
const DEFAULT_SPEC = join(SPEC_DIR, "openapi.yaml");
const DEFAULT_RPC_SPEC = join(SPEC_DIR, "openrpc.json");

const GENERATE_FLAGS = {
  spec: { type: "string" },
  "rpc-spec": { type: "string" },
  "no-rpc": { type: "boolean" },
  out: { type: "string" },
  runtime: { type: "string" },
  package: { type: "string" },
  check: { type: "boolean" },
  lenient: { type: "boolean" },
  ...HELP_FLAG,
} as const;

export function parseGenerateArgs(argv: readonly string[]): GenerateArgs {
  const { values } = parseFlags(argv, GENERATE_FLAGS, { usage: GENERATE_USAGE });
  const args: GenerateArgs = { spec: values.spec ?? DEFAULT_SPEC, out: values.out ?? "generated", check: values.check ?? false, help: values.help ?? false };
  if (values.lenient) args.lenient = true;
  if (values.runtime !== undefined) {
    if (values.runtime !== "vendor" && values.runtime !== "package") throw new UsageError(`--runtime must be vendor or package, got '${values.runtime}'`);
    args.runtime = values.runtime;
  }
  if (values.package !== undefined) {
    try {
      args.package = parsePackageSpec(values.package);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  const rpcSpec = values["rpc-spec"];
  if (values["no-rpc"] && rpcSpec !== undefined) throw new UsageError(`--rpc-spec and --no-rpc exclude each other\n\n${GENERATE_USAGE}`);
  if (!values["no-rpc"]) args.rpcSpec = rpcSpec ?? (args.spec === DEFAULT_SPEC && existsSync(DEFAULT_RPC_SPEC) ? DEFAULT_RPC_SPEC : undefined);
  return args;
}

export async function run(argv: string[]): Promise<number> {
  const args = parseGenerateArgs(argv);
  if (args.help) {
    console.log(GENERATE_USAGE);
    return 0;
  }
  try {
    const result = await generate({ specPath: args.spec, rpcSpecPath: args.rpcSpec, outDir: args.out, check: args.check, lenient: args.lenient, runtime: args.runtime, package: args.package });
    printWarnings(result.warnings);
    const changed = result.files.filter((f) => f.changed);
    const seconds = (result.durationMs / 1000).toFixed(2);
    if (args.check) {
      if (changed.length === 0) {
        console.log(`custody generate --check: ${args.out} is up to date (${result.files.length} files, ${seconds} s)`);
        return 0;
      }
      console.error(`custody generate --check: ${args.out} is out of date; run \`custody generate\`:`);
      for (const f of changed) console.error(`  ${f.status.padEnd(7)} ${args.out}/${f.path}`);
      const { sdkSurfaceSummary } = await import("../diff/surface.ts");
      for (const line of await sdkSurfaceSummary({ openapi: args.spec, rpc: args.rpcSpec, display: displayPath }, args.out).catch((e: Error) => [`SDK surface: not compared (${e.message.split("\n")[0]})`])) console.error(line);
      return 1;
    }
    const total = result.files.filter((f) => f.status !== "removed").length;
    const counts = (["changed", "added", "removed"] as const)
      .map((status) => [status, result.files.filter((f) => f.status === status).length] as const)
      .filter(([, n]) => n > 0)
      .map(([status, n]) => `${n} ${status}`);
    const what = result.written === 0 ? `${total} files unchanged` : `${total} files: ${counts.join(", ")}`;
    console.log(`custody generate: ${result.operations} operations, ${result.schemas} schemas → ${args.out} (${what}, ${seconds} s)`);
    return 0;
  } catch (error) {
    if (error instanceof SpecError) {
      console.error(`custody generate: the spec is invalid, nothing was written:\n${error.message}`);
      return 1;
    }
    throw error;
  }
}

const MAX_WARNINGS = 20;

/** One line per warning on stderr (the first 20, then a count). */
function printWarnings(warnings: readonly string[]): void {
  for (const w of warnings.slice(0, MAX_WARNINGS)) console.error(`custody generate: warning: ${w}`);
  if (warnings.length > MAX_WARNINGS) console.error(`custody generate: ... and ${warnings.length - MAX_WARNINGS} more warnings`);
}
