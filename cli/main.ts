// The `custody` command line: one bin, one module per subcommand, loaded on demand
// so that `custody generate` never pays for the sandbox's chain and vice versa.
import { readFileSync } from "node:fs";
import { packagePath } from "../lib/package-root.ts";
import { UsageError } from "./usage-error.ts";

type Command = (argv: string[]) => Promise<number>;

const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  generate: { summary: "spec/ → generated/ (--check: fail on drift)", load: async () => (await import("./generate.ts")).run },
  certify: { summary: "certify a deployment (--sandbox: the embedded reference)", load: async () => (await import("./certify.ts")).run },
  sandbox: { summary: "serve the reference deployment until stopped", load: async () => (await import("./sandbox.ts")).run },
  diff: { summary: "what a spec change breaks: old vs new (file or git:REF:path)", load: async () => (await import("./diff.ts")).run },
  mock: { summary: "serve a Prism mock of spec/openapi.yaml", load: async () => (await import("./mock.ts")).run },
  request: { summary: "send one signed wallet API call (operationId or METHOD PATH)", load: async () => (await import("./request.ts")).run },
  trigger: { summary: "make a deposit, withdrawal failure, block… happen on a running sandbox", load: async () => (await import("./trigger.ts")).run },
};

export function usage(): string {
  const rows = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return ["usage: custody <command> [options]", "", "commands:", ...rows, "", "custody <command> --help for its options; custody --version"].join("\n");
}

export function version(): string {
  return (JSON.parse(readFileSync(packagePath(import.meta.url, "package.json"), "utf8")) as { version: string }).version;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    console.log(usage());
    return name ? 0 : 2;
  }
  if (name === "--version" || name === "-v" || name === "version") {
    console.log(version());
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`custody: unknown command '${name}'\n\n${usage()}`);
    return 2;
  }
  try {
    return await (await command.load())(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`custody ${name}: ${err.message}`);
      return 2;
    }
    // Never a stack trace for the user; the message says what went wrong.
    console.error(`custody ${name}: ${err instanceof Error ? err.message : String(err)}`);
    if (process.env.CUSTODY_DEBUG) console.error(err);
    return 2;
  }
}
