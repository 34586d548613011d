// `custody mock`: serve a Prism mock of the project's spec/openapi.yaml (else the shipped one). Prism answers each operation with its
// first example and refuses requests that lack the ACCESS headers with the spec's 401 example. Prism
// listens on a private loopback port; the port given here is served by a small proxy that adds CORS,
// the /docs page and error messages that say why (web/mock-proxy.ts).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import path from "node:path";
import { errorEnvelope } from "../runtime/envelope.ts";
import { parseCorsOrigins } from "../runtime/server/cors.ts";
import { listen } from "../runtime/server/listen.ts";
import { packageFile } from "../web/locate.ts";
import { createMockProxy } from "../web/mock-proxy.ts";
import {
  MOCK_COMMAND,
  MOCK_DEFAULT_HOST,
  MOCK_DEFAULT_PORT,
  MOCK_OPTIONS,
  PRISM_INSTALL,
  PRISM_PACKAGE,
} from "./commands/mock.ts";
import { type ConfigContext, configOf, withConfig } from "./config-values.ts";
import { parseFlags } from "./flags.ts";
import { helpText } from "./help.ts";
import { UsageError } from "./usage-error.ts";

export const DEFAULT_SPEC = packageFile("spec", "openapi.yaml");
const STARTUP_TIMEOUT_MS = 60_000;

export interface MockOptions {
  port?: number;
  host?: string;
  spec?: string;
  /** Origins allowed to call the mock from a browser; default ["*"]. */
  corsOrigins?: string[];
}

export interface MockHandle {
  url: string;
  stop(): Promise<void>;
  /** Resolves with Prism's exit code when it exits (on stop, or by itself). */
  exited: Promise<number | null>;
}

const USAGE = helpText(MOCK_COMMAND);

/** The project's own spec/openapi.yaml when it has one (as generate reads it), else the contract custody ships. */
export function projectSpec(cwd: string): string {
  const own = path.join(cwd, "spec", "openapi.yaml");
  return existsSync(own) ? own : DEFAULT_SPEC;
}

/** The flags over the config file's `mock` section. */
export function parseMockArgs(argv: string[], ctx: ConfigContext = {}): Required<MockOptions> & { help: boolean } {
  const flags = parseFlags(argv, MOCK_OPTIONS, { usage: USAGE }).values;
  const values = flags.help ? flags : withConfig(flags, configOf(flags.config, ctx), "mock", undefined, ctx.env);
  return {
    port: values.port === undefined ? MOCK_DEFAULT_PORT : parsePort(values.port),
    host: values.host ?? MOCK_DEFAULT_HOST,
    spec: values.spec === undefined ? projectSpec(ctx.cwd ?? process.cwd()) : path.resolve(values.spec),
    corsOrigins: values["cors-origin"]?.flatMap(corsOrigins) ?? ["*"],
    help: values.help ?? false,
  };
}

function corsOrigins(value: string): string[] {
  try {
    return parseCorsOrigins([value]);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function parsePort(value: string): number {
  const port = /^[0-9]{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new UsageError(`--port must be an integer from 0 to 65535, got '${value}'`);
  return port;
}

/** Prism cannot listen on port 0, so ask the OS for a free port first (released just before Prism binds it). */
export async function freePort(host = MOCK_DEFAULT_HOST): Promise<number> {
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

/** Prism on a private loopback port, with its own CORS off (the proxy in front answers CORS). */
function spawnPrism(spec: string, port: number): ChildProcess {
  if (!existsSync(spec)) throw new UsageError(`spec not found: ${spec}`);
  return spawn(
    process.execPath,
    [prismScript(), "mock", "-h", MOCK_DEFAULT_HOST, "-p", String(port), "--cors=false", spec],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
}

function urlFor(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** Starts Prism and the proxy in front of it; resolves once both listen. Used by tests and by other tools. */
export async function startMock(options: MockOptions = {}): Promise<MockHandle> {
  const host = options.host ?? MOCK_DEFAULT_HOST;
  const spec = path.resolve(options.spec ?? DEFAULT_SPEC);
  if (!existsSync(spec)) throw new UsageError(`spec not found: ${spec}`);
  prismScript(); // fails with the install line before anything starts
  // The front port first: a port already taken is one line, before Prism's seconds of start-up are spent.
  // It forwards to Prism once Prism listens (on a port known only then: see startPrism).
  let proxy: ReturnType<typeof createMockProxy> | undefined;
  const front = await listen((req, res) => (proxy ?? starting)(req, res), { host, port: options.port ?? 0 }).catch(
    (err: NodeJS.ErrnoException) => {
      if (err.code === "EADDRINUSE")
        throw new UsageError(
          `port ${options.port} on ${host} is already in use; choose another with --port (0 picks a free one)`,
        );
      throw err;
    },
  );
  let prism: Prism;
  try {
    prism = await startPrism(spec);
  } catch (error) {
    await front.close();
    throw error;
  }
  proxy = createMockProxy({
    upstream: urlFor(MOCK_DEFAULT_HOST, prism.port),
    specFile: spec,
    corsOrigins: options.corsOrigins,
  });
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await front.close();
      await prism.stop();
    })());
  return { url: front.url, stop, exited: prism.exited };
}

/** The front's answer while Prism starts (a fixed --port can be called before startMock resolves). */
function starting(_req: IncomingMessage, res: ServerResponse): void {
  const body = JSON.stringify(
    errorEnvelope("the mock server is starting; try again in a few seconds", "internal_error"),
  );
  res.writeHead(503, { "content-type": "application/json", "retry-after": "2" }).end(body);
}

interface Prism {
  port: number;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/** How often Prism is started on another port when the one picked for it was taken meanwhile. */
const PRISM_PORT_TRIES = 3;

/**
 * Prism on a free loopback port, resolved once it listens. Prism cannot listen on port 0, so the port is
 * picked first and freed, and another process can take it before Prism binds it: Prism then exits with
 * EADDRINUSE, and starts again on another port (PRISM_PORT_TRIES in all).
 */
export async function startPrism(
  spec: string,
  pickPort: () => Promise<number> = () => freePort(MOCK_DEFAULT_HOST),
): Promise<Prism> {
  for (let attempt = 1; ; attempt++) {
    const port = await pickPort();
    const prism = prismOn(spec, port);
    try {
      await waitUntilListening(prism.child);
      return prism;
    } catch (error) {
      await prism.stop();
      if (attempt >= PRISM_PORT_TRIES || !/EADDRINUSE/.test((error as Error).message)) throw error;
    }
  }
}

function prismOn(spec: string, port: number): Prism & { child: ChildProcess } {
  const child = spawnPrism(spec, port);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };
  return { child, port, exited, stop };
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
    const timer = setTimeout(
      () => settle(new Error(`Prism did not start within ${STARTUP_TIMEOUT_MS / 1000} s:\n${tail(output)}`)),
      STARTUP_TIMEOUT_MS,
    );
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

/** `custody mock`: serves until it is told to stop or Prism exits. */
export async function run(argv: string[]): Promise<number> {
  const opts = parseMockArgs(argv);
  if (opts.help) {
    console.log(USAGE);
    return 0;
  }
  if (!existsSync(opts.spec)) throw new UsageError(`spec not found: ${opts.spec}`);
  const mock = await startMock(opts);
  const shown = path.relative(process.cwd(), opts.spec) || opts.spec;
  console.error(
    `custody mock: serving ${shown} at ${mock.url} (API reference at ${mock.url}/docs; CORS: ${opts.corsOrigins.join(", ")})`,
  );
  let onSignal: (sig: NodeJS.Signals) => void = () => {};
  const signal = new Promise<NodeJS.Signals>((resolve) => {
    onSignal = resolve;
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  });
  const ended = await Promise.race([signal, mock.exited.then((code) => ({ code }))]);
  process.off("SIGINT", onSignal);
  process.off("SIGTERM", onSignal);
  if (typeof ended === "object") {
    console.error(`custody mock: Prism exited (code ${ended.code}); stopping`);
    await mock.stop();
    return 1;
  }
  console.error(`custody mock: ${ended} received, stopping`);
  await mock.stop();
  return 0;
}
