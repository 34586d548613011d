// Runs one node program as a child process and measures it: wall time, peak resident memory and how it
// ended. A crash, an out-of-memory abort or a timeout is a result to report, never a crash of the bench.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const RSS_HOOK = fileURLToPath(new URL("./rss-hook.mjs", import.meta.url));
const GNU_TIME = "/usr/bin/time";

export interface MeasureInput {
  /** The node script to run, and its arguments. */
  script: string;
  args: readonly string[];
  /** Extra node flags, e.g. --max-old-space-size=4096. */
  nodeFlags?: readonly string[];
  cwd: string;
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
}

export interface Measurement {
  ok: boolean;
  /** The program's exit code (null when killed by a signal or not started). */
  exitCode: number | null;
  wallSeconds: number;
  /** Peak resident set of the program in MB (1 MB = 2^20 bytes), when it could be read. */
  peakRssMB: number | null;
  /** Why it did not succeed: "out of memory", "timed out after 180 s", "crashed (exit 1): …". */
  failure?: string;
  stdout: string;
  stderr: string;
}

let gnuTimeUsable: boolean | undefined;

/** GNU time with -f/-o: measures the peak RSS of the whole process tree, crashes included. */
export function hasGnuTime(): boolean {
  if (gnuTimeUsable !== undefined) return gnuTimeUsable;
  gnuTimeUsable = false;
  if (!existsSync(GNU_TIME)) return false;
  const dir = mkdtempSync(join(tmpdir(), "bench-time-"));
  try {
    const out = join(dir, "rss");
    const probe = spawnSync(GNU_TIME, ["-f", "%M", "-o", out, process.execPath, "-e", ""], { stdio: "ignore" });
    gnuTimeUsable = probe.status === 0 && existsSync(out) && /\d+/.test(readFileSync(out, "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return gnuTimeUsable;
}

/** The last number GNU time or the hook wrote (KiB), as MB. */
function readRss(file: string): number | null {
  if (!existsSync(file)) return null;
  const numbers = readFileSync(file, "utf8").match(/^\d+$/gm);
  return numbers ? Number(numbers[numbers.length - 1]) / 1024 : null;
}

const OOM_PATTERN =
  /heap out of memory|Allocation failed|JavaScript heap|RangeError: Invalid string length|Array buffer allocation failed/i;

/** A short human reason for a failed run: the error line of stderr when there is one. */
export function describeFailure(
  code: number | null,
  signal: NodeJS.Signals | null,
  stderr: string,
  timedOutAfterMs?: number,
): string {
  if (timedOutAfterMs !== undefined) return `timed out after ${Math.round(timedOutAfterMs / 1000)} s`;
  if (OOM_PATTERN.test(stderr) || signal === "SIGABRT" || code === 134) return "out of memory";
  const lines = stderr
    .replace(/\x1b\[[0-9;]*m/g, "")
    .split("\n")
    .map((l) => l.trim())
    .filter(
      (l) => l !== "" && !l.startsWith("at ") && !/^Node\.js v/.test(l) && !/^file:\/\//.test(l) && !/^\^+$/.test(l),
    );
  const errorLine = [...lines].reverse().find((l) => /error/i.test(l)) ?? lines[lines.length - 1] ?? "";
  return `crashed (${signal ? `signal ${signal}` : `exit ${code}`})${errorLine ? `: ${errorLine.slice(0, 160)}` : ""}`;
}

/** Keeps the tail of a stream: enough to explain a failure without holding megabytes. */
function tailCollector(limit = 64 * 1024): { push(chunk: Buffer): void; text(): string } {
  let text = "";
  return {
    push(chunk) {
      text += chunk.toString("utf8");
      if (text.length > limit * 2) text = text.slice(-limit);
    },
    text: () => text.slice(-limit),
  };
}

export async function measureNode(input: MeasureInput): Promise<Measurement> {
  const dir = mkdtempSync(join(tmpdir(), "bench-rss-"));
  const rssFile = join(dir, "rss");
  const nodeArgs = [...(input.nodeFlags ?? []), input.script, ...input.args];
  const useTime = hasGnuTime();
  const [command, args] = useTime
    ? [GNU_TIME, ["-f", "%M", "-o", rssFile, process.execPath, ...nodeArgs]]
    : [process.execPath, ["--import", RSS_HOOK, ...nodeArgs]];
  const env = { ...process.env, ...input.env, BENCH_RSS_FILE: rssFile, NO_COLOR: "1", FORCE_COLOR: "0" };
  const stdout = tailCollector();
  const stderr = tailCollector();
  const started = performance.now();
  // Its own process group, so a timeout stops the tool and anything it spawned.
  const child = spawn(command, args, { cwd: input.cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  child.stdout.on("data", stdout.push);
  child.stderr.on("data", stderr.push);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  }, input.timeoutMs);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
    child.on("error", () => resolve([null, null]));
    child.on("close", (c, s) => resolve([c, s]));
  });
  clearTimeout(timer);
  const wallSeconds = (performance.now() - started) / 1000;
  const peakRssMB = readRss(rssFile);
  rmSync(dir, { recursive: true, force: true });
  // GNU time exits with the child's status, or 128+signal when the child was killed.
  const childSignal = signal ?? (useTime && code !== null && code > 128 ? (signalName(code - 128) ?? null) : null);
  const ok = !timedOut && code === 0;
  const exitCode = childSignal ? null : code;
  const result: Measurement = { ok, exitCode, wallSeconds, peakRssMB, stdout: stdout.text(), stderr: stderr.text() };
  if (!ok)
    result.failure = describeFailure(
      code,
      childSignal,
      result.stderr.trim() ? result.stderr : result.stdout,
      timedOut ? input.timeoutMs : undefined,
    );
  return result;
}

function signalName(n: number): NodeJS.Signals | undefined {
  const names: Record<number, NodeJS.Signals> = { 6: "SIGABRT", 9: "SIGKILL", 11: "SIGSEGV", 15: "SIGTERM" };
  return names[n];
}
