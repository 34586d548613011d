// `custody diff <old> <new> [--rpc-old F --rpc-new F] [--format text|markdown|json|junit] [--fail-on breaking|warning|none] [--validate]`
// Exit 0: nothing at or above --fail-on (none: never). Exit 1: something is. Exit 2: bad usage or an unreadable document.

import { type DiffInput, diffDocuments } from "../diff/index.ts";
import { renderJson } from "../diff/report/json.ts";
import { type FailOn, failsAt, renderJunit } from "../diff/report/junit.ts";
import { renderMarkdown } from "../diff/report/markdown.ts";
import { renderText } from "../diff/report/text.ts";
import { loadSide } from "../diff/source.ts";
import { SpecError } from "../generator/load/spec-error.ts";
import { DIFF_COMMAND, DIFF_OPTIONS } from "./commands/diff.ts";
import { parseFlags } from "./flags.ts";
import { helpText } from "./help.ts";
import { UsageError } from "./usage-error.ts";

export const DIFF_USAGE = helpText(DIFF_COMMAND);

const FORMATS = ["text", "markdown", "json", "junit"] as const;
type Format = (typeof FORMATS)[number];

export interface DiffArgs {
  old?: string;
  new?: string;
  rpcOld?: string;
  rpcNew?: string;
  format: Format;
  failOn: FailOn;
  validate: boolean;
  help: boolean;
}

export function parseDiffArgs(argv: readonly string[]): DiffArgs {
  const { values, positionals } = parseFlags(argv, DIFF_OPTIONS, { positionals: true, usage: DIFF_USAGE });
  const format = values.format ?? "text";
  if (!(FORMATS as readonly string[]).includes(format))
    throw new UsageError(`--format must be one of ${FORMATS.join(", ")}, not '${format}'`);
  const failOn = values["fail-on"] ?? "breaking";
  if (failOn !== "breaking" && failOn !== "warning" && failOn !== "none") {
    throw new UsageError(`--fail-on must be breaking, warning or none, not '${failOn}'`);
  }
  const args: DiffArgs = {
    format: format as Format,
    failOn,
    validate: values.validate ?? false,
    help: values.help ?? false,
    rpcOld: values["rpc-old"],
    rpcNew: values["rpc-new"],
  };
  if (args.help) return args;
  if ((args.rpcOld === undefined) !== (args.rpcNew === undefined))
    throw new UsageError(`--rpc-old and --rpc-new go together\n\n${DIFF_USAGE}`);
  if (positionals.length === 0 && args.rpcOld !== undefined) return args; // JSON-RPC only
  if (positionals.length !== 2)
    throw new UsageError(`expected two documents, old and new (got ${positionals.length})\n\n${DIFF_USAGE}`);
  [args.old, args.new] = positionals;
  return args;
}

export async function run(argv: string[]): Promise<number> {
  const args = parseDiffArgs(argv);
  if (args.help) {
    console.log(DIFF_USAGE);
    return 0;
  }
  const input: DiffInput = {};
  try {
    const [old, next, rpcOld, rpcNew] = await Promise.all([
      args.old === undefined ? undefined : loadSide(args.old, "openapi", args),
      args.new === undefined ? undefined : loadSide(args.new, "openapi", args),
      args.rpcOld === undefined ? undefined : loadSide(args.rpcOld, "openrpc"),
      args.rpcNew === undefined ? undefined : loadSide(args.rpcNew, "openrpc"),
    ]);
    if (old && next) input.openapi = { old, next };
    if (rpcOld && rpcNew) input.rpc = { old: rpcOld, next: rpcNew };
  } catch (error) {
    if (error instanceof SpecError) {
      console.error(`custody diff: cannot read a document:\n${error.message}`);
      return 2;
    }
    throw error;
  }
  const report = diffDocuments(input);
  const out =
    args.format === "json"
      ? renderJson(report)
      : args.format === "markdown"
        ? renderMarkdown(report)
        : args.format === "junit"
          ? renderJunit(report, args.failOn)
          : renderText(report);
  process.stdout.write(out);
  return report.changes.some((c) => failsAt(c.level, args.failOn)) ? 1 : 0;
}
