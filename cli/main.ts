// The `custody` command line: one bin, one module per subcommand, loaded on demand
// so that `custody generate` never pays for the sandbox's chain and vice versa.
import { custodyVersion } from "../lib/version.ts";
import { UsageError } from "./usage-error.ts";

type Command = (argv: string[]) => Promise<number>;

/** How each command is loaded (on demand); what it is and takes is declared in commands/. */
export const LOADERS: Readonly<Record<string, () => Promise<Command>>> = {
  init: async () => (await import("./init.ts")).run,
  generate: async () => (await import("./generate.ts")).run,
  certify: async () => (await import("./certify.ts")).run,
  sandbox: async () => (await import("./sandbox.ts")).run,
  diff: async () => (await import("./diff.ts")).run,
  mock: async () => (await import("./mock.ts")).run,
  request: async () => (await import("./request.ts")).run,
  replay: async () => (await import("./replay.ts")).run,
  trigger: async () => (await import("./trigger.ts")).run,
  mcp: async () => (await import("./mcp.ts")).run,
};

/** The command list of `custody --help`; the declarations are loaded only here, so a command starts without them. */
export async function usage(): Promise<string> {
  const { COMMAND_SPECS } = await import("./commands/index.ts");
  const rows = COMMAND_SPECS.map((c) => `  ${c.name.padEnd(10)} ${c.summary}`);
  return [
    "usage: custody <command> [options]",
    "",
    "commands:",
    ...rows,
    "",
    "custody <command> --help for its options; custody --version",
  ].join("\n");
}

export function version(): string {
  return custodyVersion();
}

let pipeGuarded = false;

/** `custody … | head` closes the pipe early: that is not an error worth a stack trace, for any command. */
function guardPipe(): void {
  if (pipeGuarded) return;
  pipeGuarded = true;
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0);
    throw error;
  });
}

export async function main(argv: string[]): Promise<number> {
  guardPipe();
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    console.log(await usage());
    return name ? 0 : 2;
  }
  if (name === "--version" || name === "-v" || name === "version") {
    console.log(version());
    return 0;
  }
  const load = Object.hasOwn(LOADERS, name) ? LOADERS[name] : undefined;
  if (!load) {
    console.error(`custody: unknown command '${name}'\n\n${await usage()}`);
    return 2;
  }
  try {
    return await (await load())(rest);
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
