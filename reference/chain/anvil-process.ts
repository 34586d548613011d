// Finding and running the anvil binary (Foundry's local Ethereum node) as a child process.
//
// The binary comes from Foundry's per-platform npm packages (@foundry-rs/anvil-<os>-<arch>), which the
// project lists as optionalDependencies: npm installs the one matching the machine, with no install
// script (the @foundry-rs/anvil wrapper package would need its postinstall script approved).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import type { Socket } from "node:net";
import { dirname, join } from "node:path";

/** Environment variable naming an anvil binary to use instead of the npm one. */
export const ANVIL_PATH_ENV = "CUSTODY_ANVIL_PATH";

const PLATFORM_PACKAGES: Record<string, string> = {
  "linux-x64": "@foundry-rs/anvil-linux-amd64",
  "linux-arm64": "@foundry-rs/anvil-linux-arm64",
  "darwin-x64": "@foundry-rs/anvil-darwin-amd64",
  "darwin-arm64": "@foundry-rs/anvil-darwin-arm64",
  "win32-x64": "@foundry-rs/anvil-win32-amd64",
};

/** The anvil binary's path, or an Error saying in one line what to do. */
export function anvilBinary(env: NodeJS.ProcessEnv = process.env): string {
  const override = env[ANVIL_PATH_ENV];
  if (override) {
    if (!existsSync(override)) throw new Error(`${ANVIL_PATH_ENV}=${override}: no such file`);
    return override;
  }
  const pkg = PLATFORM_PACKAGES[`${process.platform}-${process.arch}`];
  if (!pkg)
    throw new Error(
      `the embedded chain (anvil) has no build for ${process.platform}-${process.arch}: use --upstream URL or set ${ANVIL_PATH_ENV}`,
    );
  let dir: string;
  try {
    dir = dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`));
  } catch {
    throw new Error(
      `the embedded chain needs ${pkg} (an optional dependency): run npm install, or set ${ANVIL_PATH_ENV}, or use --upstream URL`,
    );
  }
  const bin = join(dir, "bin", process.platform === "win32" ? "anvil.exe" : "anvil");
  if (!existsSync(bin))
    throw new Error(`${pkg} is installed without its binary (${bin}): reinstall it or set ${ANVIL_PATH_ENV}`);
  return bin;
}

// POSIX: a small sh watchdog runs anvil and stops it (SIGTERM, so it writes its state) as soon as the
// process that started it is gone, even when that process was killed with SIGKILL and could not clean
// up. Without it a crashed sandbox would leave a node running and holding its port and state file.
// It learns of the parent's end from a pipe, not by polling: its standard input is a pipe whose only
// writer is the parent (node opens it close-on-exec, so no other child holds it), and the kernel closes
// that end when the parent exits, however it exits. A reader waiting on it costs nothing until then;
// the loop of `sleep 0.5` it replaced spawned two processes a second per node (about a tenth of the
// CPU of a test file running three sandboxes, docs/measurements/test-suite.md).
const WATCHDOG = [
  // The pipe moves to fd 3 for the reader alone: anvil gets neither it nor any standard input.
  "exec 3<&0 </dev/null",
  '"$0" "$@" 3<&- & child=$!',
  // Once only: a second SIGTERM would cut anvil's state write short.
  'stop() { [ -z "$sent" ] && kill -TERM $child 2>/dev/null; sent=1; }',
  "trap stop TERM INT HUP",
  // End of input: the parent is gone. The reader asks this shell to stop anvil (the trap above), so a
  // SIGTERM from the parent and the end of its pipe still make one. It reads fd 3 by an explicit
  // redirection (sh gives a background list /dev/null as its standard input), and holds none of the
  // output pipes.
  "{ while read -r _; do :; done; kill -TERM $$; } <&3 >/dev/null 2>&1 & reader=$!",
  "exec 3<&-",
  // wait returns early when a trapped signal arrives: wait again until anvil itself is gone.
  "while :; do",
  "  wait $child; status=$?",
  "  kill -0 $child 2>/dev/null || break",
  "done",
  "kill $reader 2>/dev/null",
  "exit $status",
].join("\n");

export interface AnvilRun {
  child: ChildProcess;
  port: number;
  /** Resolves with the exit code (or signal name) when the process is gone. */
  exited: Promise<string>;
  /** Resolves once its output pipes are closed too: anvil, the watchdog's child, holds them open until it is gone. */
  closed: Promise<void>;
}

/** Starts anvil with `args` (which must include `--port`), resolving once it listens. */
export async function runAnvil(bin: string, args: string[], startTimeoutMs = 30_000): Promise<AnvilRun> {
  const child =
    process.platform === "win32"
      ? spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"], windowsHide: true })
      : spawn("/bin/sh", ["-c", WATCHDOG, bin, ...args], {
          // The watchdog's input: a pipe this process never writes to, closed when it exits.
          stdio: ["pipe", "pipe", "pipe"],
          // Its own process group, so that a forced stop reaches the watchdog and anvil together.
          detached: true,
        });
  // Held open for the node's life without holding this process's event loop open.
  (child.stdin as Socket | null)?.unref();
  const exited = new Promise<string>((resolve) =>
    child.once("exit", (code, signal) => resolve(signal ?? String(code))),
  );
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    if (stderr.length < 4096) stderr += chunk.toString("utf8");
  });
  const port = await new Promise<number>((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(
      () => fail(new Error(`anvil did not start listening within ${startTimeoutMs} ms`)),
      startTimeoutMs,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill("SIGTERM");
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      seen = (seen + chunk.toString("utf8")).slice(-4096);
      const m = /Listening on [^\s:]+:(\d+)/.exec(seen) ?? /Listening on \[[^\]]+\]:(\d+)/.exec(seen);
      if (!m) return;
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      resolve(Number(m[1]));
    };
    child.stdout!.on("data", onData);
    child.once("error", (error) => fail(new Error(`anvil could not be started: ${error.message}`)));
    void exited.then((how) =>
      fail(new Error(`anvil exited (${how}) before listening: ${lastLine(stderr) || "no message"}`)),
    );
  });
  // anvil logs every request and block to stdout: keep draining it so the pipe never fills up.
  child.stdout!.resume();
  return { child, port, exited, closed };
}

/**
 * Asks anvil to stop (it writes its state on SIGTERM), then forces its whole process group after
 * `graceMs`. Resolves once its pipes are closed, not at the watchdog's exit: an anvil that outlived its
 * watchdog would hold them (and its port) open after close() returned.
 */
export async function stopAnvil(run: AnvilRun, graceMs = 5_000): Promise<void> {
  if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGTERM");
  const timer = setTimeout(() => killGroup(run.child), graceMs);
  await run.closed;
  clearTimeout(timer);
}

function killGroup(child: ChildProcess): void {
  try {
    if (process.platform !== "win32" && child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    else child.kill("SIGKILL");
  } catch {
    // Already gone.
  }
}

function lastLine(text: string): string {
  return text.trim().split("\n").pop()?.slice(0, 300) ?? "";
}
