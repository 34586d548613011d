// `custody request`: one signed call to the wallet API, by operationId (from the generated operations
// table) or by METHOD and PATH, with the credentials of the running sandbox unless others are given.
// Prints the status line and the JSON answer pretty; --curl prints the signed curl command instead.
import { readFileSync } from "node:fs";
import { operationList } from "../generated/operations.ts";
import { createMatcher } from "../runtime/server/match.ts";
import { REQUEST_COMMAND, REQUEST_OPTIONS } from "./commands/request.ts";
import { parseFlags } from "./flags.ts";
import { helpText } from "./help.ts";
import { curlLine, fillPath, findOperation, type Operation, prepareRequest, send } from "./signed-call.ts";
import { callTarget } from "./target.ts";
import { UsageError } from "./usage-error.ts";

export const REQUEST_USAGE = helpText(REQUEST_COMMAND);

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

interface RequestArgs {
  positional: string[];
  params: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: string;
  curl: boolean;
  help: boolean;
  /** The flags, for the target (cli/target.ts). */
  values: Record<string, unknown>;
}

function keyValue(flag: string, value: string): [string, string] {
  const eq = value.indexOf("=");
  if (eq <= 0) throw new UsageError(`${flag} takes key=value, got '${value}'`);
  return [value.slice(0, eq), value.slice(eq + 1)];
}

function readBodyArg(value: string): string {
  let text = value;
  if (value.startsWith("@")) {
    const file = value.slice(1);
    try {
      text = readFileSync(file === "-" ? 0 : file, "utf8");
    } catch (error) {
      throw new UsageError(
        `--body ${value}: cannot read ${file === "-" ? "standard input" : file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
  }
  try {
    JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--body is not JSON: ${(error as Error).message}`);
  }
  return text.trim();
}

export function parseRequestArgs(argv: string[]): RequestArgs {
  const { values, positionals } = parseFlags(argv, REQUEST_OPTIONS, { positionals: true, usage: REQUEST_USAGE });
  const pairs = (flag: string, list: string[] | undefined) =>
    Object.fromEntries((list ?? []).map((v) => keyValue(flag, v)));
  const out: RequestArgs = {
    positional: positionals,
    params: pairs("--param", values.param),
    query: pairs("--query", values.query),
    headers: pairs("--header", values.header),
    curl: values.curl ?? false,
    help: values.help ?? false,
    values,
  };
  if (values.body !== undefined) out.body = readBodyArg(values.body);
  return out;
}

const matcher = createMatcher(operationList.map((op) => ({ method: op.method, path: op.path, value: op })));

/** The method, path and (when known) operation the positional arguments name. */
function target(
  args: RequestArgs,
  workspaceId: string | undefined,
): { method: string; path: string; query: Record<string, string>; op?: Operation } {
  const [first, second, ...rest] = args.positional;
  if (first === undefined) throw new UsageError(`name an operation or METHOD PATH\n\n${REQUEST_USAGE}`);
  if (METHODS.has(first.toUpperCase())) {
    if (second === undefined || !second.startsWith("/"))
      throw new UsageError(`${first} needs a PATH starting with /, e.g. ${first.toUpperCase()} /api/v1/wallets`);
    if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'`);
    const url = new URL(second, "http://x");
    const query = { ...Object.fromEntries(url.searchParams), ...args.query };
    const method = first.toUpperCase();
    return { method, path: url.pathname, query, op: matcher.match(method, url.pathname)?.value };
  }
  if (second !== undefined) throw new UsageError(`unexpected argument '${second}' (path values go in --param k=v)`);
  const op = findOperation(first);
  return { method: op.method, path: fillPath(op, args.params, workspaceId), query: args.query, op };
}

function pretty(text: string, json: unknown): string {
  return json === undefined ? text : JSON.stringify(json, null, 2);
}

export async function run(argv: string[]): Promise<number> {
  const args = parseRequestArgs(argv);
  if (args.help) {
    console.log(REQUEST_USAGE);
    return 0;
  }
  const deployment = callTarget(args.values as Record<string, string | undefined>, REQUEST_OPTIONS, process.env);
  const { method, path, query, op } = target(args, deployment.workspaceId);
  const prepared = prepareRequest(deployment, method, path, { query, headers: args.headers, body: args.body }, op);
  if (args.curl) {
    console.log(curlLine(prepared));
    return 0;
  }
  const result = await send(prepared);
  const label = op ? `${op.operationId}: ` : "";
  console.log(
    `${label}HTTP ${result.status} ${result.statusText}${result.requestId ? `  (x-request-id ${result.requestId})` : ""}`,
  );
  if (result.text !== "") console.log(pretty(result.text, result.json));
  return result.status >= 200 && result.status < 300 ? 0 : 1;
}
