// `custody mock`: serve a Prism mock of spec/openapi.yaml. Prism answers each operation with its
// first example and refuses requests that lack the ACCESS headers with the spec's 401 example.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import path from "node:path";
import { packagePath } from "../lib/package-root.ts";
import { UsageError } from "./usage-error.ts";

export const DEFAULT_SPEC = packagePath(import.meta.url, "spec", "openapi.yaml");
/** Prism is an optional peer dependency: only `custody mock` needs it. */
export const PRISM_PACKAGE = "@stoplight/prism-cli";
export const PRISM_INSTALL = `npm install ${PRISM_PACKAGE}@5.14.2`;
const DEFAULT_PORT = 4010;
const DEFAULT_HOST = "127.0.0.1";
const STARTUP_TIMEOUT_MS = 60_000;

export interface MockOptions {
  port?: number;
  host?: string;
  spec?: string;
}

export interface MockHandle {
  url: string;
  stop(): Promise<void>;
}

const USAGE = `usage: custody mock [--port P] [--host H] [--spec FILE]

Serves a Prism mock of the wallet API (every operation answers with its example).
  --port P     port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)
  --host H     address to listen on (default ${DEFAULT_HOST})
  --spec FILE  OpenAPI document to serve (default: the spec/openapi.yaml custody ships)`;

/** Parses `--flag value` and `--flag=value` forms; anything else is a UsageError. */
export function parseMockArgs(argv: string[]): Required<MockOptions> & { help: boolean } {
  const out = { port: DEFAULT_PORT, host: DEFAULT_HOST, spec: DEFAULT_SPEC, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--help" || arg === "-h") {
      out.help = true;
      continue;
    }
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    if (flag !== "--port" && flag !== "--host" && flag !== "--spec") throw new UsageError(`unknown option '${arg}'\n\n${USAGE}`);
    const value = inline ?? argv[++i];
    if (value === undefined || value === "") throw new UsageError(`${flag} needs a value`);
    if (flag === "--port") out.port = parsePort(value);
    else if (flag === "--host") out.host = value;
    else out.spec = path.resolve(value);
  }
  return out;
}

function parsePort(value: string): number {
  const port = /^[0-9]{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new UsageError(`--port must be an integer from 0 to 65535, got '${value}'`);
  return port;
}

/** Prism cannot listen on port 0, so ask the OS for a free port first (released just before Prism binds it). */
export async function freePort(host = DEFAULT_HOST): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Prism's CLI script, wherever npm put it: beside custody, or in the project custody runs from. */
export function prismScript(): string {
  const bases = [import.meta.url, path.join(process.cwd(), "package.json")];
  for (const base of bases) {
    try {
      const manifest = createRequire(base).resolve(`${PRISM_PACKAGE}/package.json`);
      const bin = (JSON.parse(readFileSync(manifest, "utf8")) as { bin?: Record<string, string> }).bin?.prism;
      if (bin) return path.join(path.dirname(manifest), bin);
    } catch {
      // not installed from this base
    }
  }
  throw new UsageError(`needs Prism, which is not installed: ${PRISM_INSTALL}`);
}

/** One clear line instead of Prism's own start-up failure when the port is taken. */
async function assertPortFree(host: string, port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const server = createServer();
    server.once("error", (err: NodeJS.ErrnoException) =>
      reject(err.code === "EADDRINUSE" ? new UsageError(`port ${port} on ${host} is already in use; choose another with --port (0 picks a free one)`) : new UsageError(`cannot listen on ${host}:${port}: ${err.message}`)),
    );
    server.listen(port, host, () => server.close(() => resolve()));
  });
}

function spawnPrism(opts: Required<MockOptions>, stdio: "inherit" | "pipe"): ChildProcess {
  if (!existsSync(opts.spec)) throw new UsageError(`spec not found: ${opts.spec}`);
  return spawn(process.execPath, [prismScript(), "mock", "-h", opts.host, "-p", String(opts.port), opts.spec], { stdio: ["ignore", stdio, stdio] });
}

function urlFor(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** Starts Prism and resolves once it says it is listening. Used by tests and by other tools. */
export async function startMock(options: MockOptions = {}): Promise<MockHandle> {
  const host = options.host ?? DEFAULT_HOST;
  const port = options.port === undefined || options.port === 0 ? await freePort(host) : options.port;
  if (options.port) await assertPortFree(host, port);
  const child = spawnPrism({ host, port, spec: path.resolve(options.spec ?? DEFAULT_SPEC) }, "pipe");
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await waitUntilListening(child);
  return {
    url: urlFor(host, port),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function waitUntilListening(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = "";
    let settled = false;
    const settle = (err?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        child.kill("SIGKILL");
        reject(err);
      } else resolve();
    };
    const timer = setTimeout(() => settle(new Error(`Prism did not start within ${STARTUP_TIMEOUT_MS / 1000} s:\n${tail(output)}`)), STARTUP_TIMEOUT_MS);
    // Keep draining both pipes for the whole life of the process, so that Prism never blocks on a full pipe.
    const onData = (chunk: Buffer) => {
      if (settled) return;
      output += chunk.toString("utf8").replace(/\x1b\[[0-9;]*m/g, "");
      if (/Prism is listening on/.test(output)) settle();
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("error", (err) => settle(new Error(`could not start Prism: ${err.message}`)));
    child.once("exit", (code) => settle(new Error(`Prism exited (code ${code}) before listening:\n${tail(output)}`)));
  });
}

function tail(text: string, lines = 15): string {
  return text.trim().split("\n").slice(-lines).join("\n");
}

/** `custody mock`: runs Prism in the foreground until it exits or we are told to stop. */
export async function run(argv: string[]): Promise<number> {
  const opts = parseMockArgs(argv);
  if (opts.help) {
    console.log(USAGE);
    return 0;
  }
  const port = opts.port === 0 ? await freePort(opts.host) : opts.port;
  if (opts.port !== 0) await assertPortFree(opts.host, port);
  const child = spawnPrism({ ...opts, port }, "inherit");
  console.error(`custody mock: serving ${path.relative(process.cwd(), opts.spec) || opts.spec} at ${urlFor(opts.host, port)}`);
  let stopping = false;
  const forward = (signal: NodeJS.Signals) => {
    stopping = true;
    child.kill(signal);
  };
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  try {
    return await new Promise<number>((resolve, reject) => {
      child.once("error", (err) => reject(new Error(`could not start Prism: ${err.message}`)));
      child.once("exit", (code) => resolve(stopping ? 0 : (code ?? 1)));
    });
  } finally {
    process.off("SIGINT", forward);
    process.off("SIGTERM", forward);
  }
}
