// Starts a server under test in its own process (so it does not share the load generator's thread),
// waits for it to say it is ready, and stops it by its pid. Its peak RSS comes back on stop.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RSS_HOOK } from "./child.ts";
import { READY_PREFIX } from "./servers/announce.ts";

export interface ServerChild<T> {
  info: T;
  /** SIGTERM, wait for the exit; returns the peak RSS in MB when the child reported it. */
  stop(): Promise<number | null>;
}

export interface SpawnServerInput<T> {
  /** Node flags and script arguments after `node`. */
  args: string[];
  cwd: string;
  /** Parses a stdout line into the info when it is the ready line; undefined otherwise. */
  ready?: (line: string) => T | undefined;
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

function readyLine<T>(line: string): T | undefined {
  return line.startsWith(READY_PREFIX) ? (JSON.parse(line.slice(READY_PREFIX.length)) as T) : undefined;
}

export async function spawnServer<T>(input: SpawnServerInput<T>): Promise<ServerChild<T>> {
  const dir = mkdtempSync(join(tmpdir(), "bench-server-"));
  const rssFile = join(dir, "rss");
  const child: ChildProcess = spawn(process.execPath, ["--import", RSS_HOOK, ...input.args], {
    cwd: input.cwd,
    env: { ...process.env, ...input.env, BENCH_RSS_FILE: rssFile, NO_COLOR: "1", FORCE_COLOR: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (c: Buffer) => {
    stderr = (stderr + c.toString("utf8")).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const parse = input.ready ?? readyLine<T>;
  const info = await new Promise<T>((resolve, reject) => {
    let buffered = "";
    let done = false;
    const timer = setTimeout(
      () => reject(new Error(`did not start within ${(input.timeoutMs ?? 60_000) / 1000} s`)),
      input.timeoutMs ?? 60_000,
    );
    child.stdout!.on("data", (c: Buffer) => {
      // After the ready line the output is only drained: parsing a per-request log here would
      // steal CPU from the load generator.
      if (done) return;
      buffered += c.toString("utf8");
      let nl: number;
      while ((nl = buffered.indexOf("\n")) !== -1) {
        const line = buffered.slice(0, nl).replace(/\x1b\[[0-9;]*m/g, "");
        buffered = buffered.slice(nl + 1);
        const parsed = parse(line);
        if (parsed !== undefined && !done) {
          done = true;
          clearTimeout(timer);
          resolve(parsed);
        }
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(
          `exited (${signal ?? `code ${code}`}) before it was ready: ${stderr.trim().split("\n").slice(-3).join(" | ")}`,
        ),
      );
    });
  }).catch(async (error: Error) => {
    child.kill("SIGKILL");
    await exited;
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  // Keep draining stdout so a chatty server never blocks on a full pipe.
  child.stdout!.resume();
  let stopped: Promise<number | null> | undefined;
  return {
    info,
    stop: () =>
      (stopped ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
        const killer = setTimeout(() => child.kill("SIGKILL"), 5000);
        await exited;
        clearTimeout(killer);
        const rss = existsSync(rssFile) ? Number(readFileSync(rssFile, "utf8").trim()) / 1024 : null;
        rmSync(dir, { recursive: true, force: true });
        return rss !== null && Number.isFinite(rss) ? rss : null;
      })()),
  };
}
