// The one flag reader of every subcommand: both value forms, repeatable flags, and a one-line
// UsageError naming the flag for each way of getting it wrong.
import { describe, expect, it } from "vitest";
import { COMMAND_SPECS } from "../cli/commands/index.ts";
import { parseDiffArgs } from "../cli/diff.ts";
import { HELP_FLAG, parseFlags } from "../cli/flags.ts";
import { parseGenerateArgs } from "../cli/generate.ts";
import { LOADERS } from "../cli/main.ts";
import { parseMockArgs } from "../cli/mock.ts";
import { parseRequestArgs } from "../cli/request.ts";
import { parseSandboxArgs } from "../cli/sandbox.ts";
import { parseTriggerArgs } from "../cli/trigger.ts";
import { UsageError } from "../cli/usage-error.ts";

const FLAGS = {
  port: { type: "string" },
  tag: { type: "string", multiple: true },
  json: { type: "boolean" },
  ...HELP_FLAG,
} as const;

function usageError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error("no UsageError");
}

describe("parseFlags", () => {
  it("reads --flag value, --flag=value, repeated flags, booleans, -h and positionals", () => {
    const { values, positionals } = parseFlags(
      ["a", "--port", "1", "--tag=x", "--tag", "y", "--json", "-h", "b"],
      FLAGS,
      { positionals: true },
    );
    expect(values).toEqual({ port: "1", tag: ["x", "y"], json: true, help: true });
    expect(positionals).toEqual(["a", "b"]);
  });

  it("takes a separate value that starts with one dash (a negative number) as the value", () => {
    expect(parseFlags(["--port", "-1"], FLAGS).values.port).toBe("-1");
    expect(parseFlags(["--port", "-"], FLAGS).values.port).toBe("-");
    // A known short flag stays a flag: the value is missing.
    expect(usageError(() => parseFlags(["--port", "-h"], FLAGS))).toBe("--port needs a value");
  });

  it.each([
    [["--nope"], "unknown option '--nope'\n\nUSAGE"],
    [["-x"], "unknown option '-x'\n\nUSAGE"],
    [["--port"], "--port needs a value"],
    [["--port", "--json"], "--port needs a value"],
    [["--port", "--x9"], "--port needs a value; a value that starts with '-' is written --port=<value>"],
    [["--port="], "--port needs a value"],
    [["--port", ""], "--port needs a value"],
    [["--tag", "a", "--tag="], "--tag needs a value"],
    [["--json=yes"], "--json takes no value"],
    [["stray"], "unexpected argument 'stray'"],
  ])("%j → %j", (argv, message) => {
    expect(usageError(() => parseFlags(argv, FLAGS, { usage: "USAGE" }))).toBe(message);
  });
});

describe("every subcommand reads its flags through it", () => {
  it.each([
    ["diff", () => parseDiffArgs(["--bogus"])],
    ["generate", () => parseGenerateArgs(["--bogus"])],
    ["mock", () => parseMockArgs(["--bogus"])],
    ["request", () => parseRequestArgs(["--bogus"])],
    ["sandbox", () => parseSandboxArgs(["--bogus"])],
    ["trigger", () => parseTriggerArgs(["--bogus"])],
  ])("%s: an unknown option is named, with the command's usage", (_name, run) => {
    expect(usageError(run)).toMatch(/^unknown option '--bogus'\n\nusage: custody /);
  });

  it("keeps each command's value rules", () => {
    expect(parseMockArgs(["--cors-origin", "http://a.test", "--cors-origin=http://b.test"]).corsOrigins).toEqual([
      "http://a.test",
      "http://b.test",
    ]);
    expect(parseRequestArgs(["getWallet", "--param", "wallet_id=w", "--query", "a=1", "--api-key", "k"])).toMatchObject(
      { positional: ["getWallet"], params: { wallet_id: "w" }, query: { a: "1" }, values: { "api-key": "k" } },
    );
    expect(usageError(() => parseRequestArgs(["x", "--param", "novalue"]))).toBe(
      "--param takes key=value, got 'novalue'",
    );
    expect(parseTriggerArgs(["deposit", "--amount", "2.5", "--blocks=3"])).toMatchObject({
      event: "deposit",
      amount: "2.5",
      blocks: 3,
    });
    expect(usageError(() => parseTriggerArgs(["deposit", "block"]))).toBe("unexpected argument 'block'");
    expect(usageError(() => parseSandboxArgs(["--port", "8000", "--rpc-port", "8000"]))).toBe(
      "--port and --rpc-port must differ",
    );
    expect(usageError(() => parseGenerateArgs(["--runtime", "both"]))).toBe(
      "--runtime must be vendor or package, got 'both'",
    );
    expect(parseDiffArgs(["a.yaml", "-", "--format=json"])).toMatchObject({ old: "a.yaml", new: "-", format: "json" });
  });
});

describe("the command declarations", () => {
  it("declare exactly the commands main can load", () => {
    expect(COMMAND_SPECS.map((c) => c.name).sort()).toEqual(Object.keys(LOADERS).sort());
  });
});
