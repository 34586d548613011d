// Stopping the chain node: stopAnvil resolves only once nothing of it holds its pipes, so a process
// the node left behind (here a stand-in binary's background child) is stopped with its process group
// instead of outliving close(). Its watchdog stops it once the process that started it is gone, even
// by SIGKILL, and starts no process while it waits.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { pollUntil } from "../conformance/run/context.ts";
import { runAnvil, stopAnvil } from "../reference/chain/anvil-process.ts";
import { OUTER_BOUND_MS } from "./reference-helpers.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "custody-anvil-process-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Running: it exists and, where /proc tells, is not a zombie waiting to be reaped (killed, orphaned). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

describe.skipIf(process.platform === "win32")("stopAnvil", () => {
  it("waits for the node's pipes, stopping its process group when something of it outlives the node", async () => {
    // A stand-in for anvil: it starts a child that keeps its output open and ignores SIGTERM, says it
    // listens, and exits on SIGTERM itself.
    const bin = join(dir, "fake-anvil");
    writeFileSync(
      bin,
      [
        "#!/bin/sh",
        "( trap '' TERM; while :; do sleep 0.2; done ) &",
        'echo $! > "$(dirname "$0")/straggler.pid"',
        "trap 'exit 0' TERM",
        'echo "Listening on 127.0.0.1:4242"',
        "while :; do sleep 0.2; done",
      ].join("\n"),
    );
    chmodSync(bin, 0o755);
    const run = await runAnvil(bin, ["--port", "0"]);
    const straggler = Number(readFileSync(join(dir, "straggler.pid"), "utf8"));
    try {
      expect(run.port).toBe(4242);
      expect(alive(straggler)).toBe(true);
      await stopAnvil(run, 500);
      expect(alive(straggler)).toBe(false);
      expect(run.child.stdout?.destroyed).toBe(true);
    } finally {
      if (alive(straggler)) process.kill(-(run.child.pid as number), "SIGKILL");
    }
  });
});

/** The pids whose parent is `pid` (from /proc). */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** Resolves once `check` holds (pollUntil, every 50 ms); fails after `boundMs`, an outer bound only. */
async function until(check: () => boolean, what: string, boundMs = OUTER_BOUND_MS): Promise<void> {
  const held = await pollUntil(async () => (check() ? true : undefined), boundMs, 50);
  if (!held) throw new Error(`not within ${boundMs} ms: ${what}`);
}

describe.skipIf(process.platform === "win32" || !existsSync("/proc"))("the watchdog", () => {
  it("stops the node (SIGTERM, once) when the process that started it is killed with SIGKILL, and starts no process while it waits", async () => {
    // A stand-in for anvil that notes each SIGTERM it gets (anvil writes its state then), then exits.
    const bin = join(dir, "fake-anvil-terms");
    const terms = join(dir, "terms");
    writeFileSync(
      bin,
      [
        "#!/bin/sh",
        `trap 'echo TERM >> "${terms}"; exit 0' TERM`,
        'echo "Listening on 127.0.0.1:4243"',
        // Kept in the foreground of a loop, so the trap runs as soon as the signal comes.
        "while :; do sleep 1 & wait $!; done",
      ].join("\n"),
    );
    chmodSync(bin, 0o755);
    // The process that starts the node, as a sandbox does; it prints the watchdog's pid and stays.
    const starter = [
      `import { runAnvil } from ${JSON.stringify(join(ROOT, "reference/chain/anvil-process.ts"))};`,
      `const run = await runAnvil(${JSON.stringify(bin)}, ["--port", "0"]);`,
      "console.log(run.child.pid);",
      "setInterval(() => undefined, 60_000);",
    ].join("\n");
    const parent = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", starter], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    parent.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    try {
      await until(() => out.includes("\n"), "the starter printed the watchdog's pid");
      const watchdog = Number(out.trim());
      // Waiting, the watchdog holds anvil and its pipe reader, and starts nothing more (a polling loop
      // started a `sleep` every half second).
      const seen = new Set<number>();
      for (let i = 0; i < 15; i++) {
        for (const pid of childrenOf(watchdog)) seen.add(pid);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(seen.size).toBe(2);
      parent.kill("SIGKILL");
      await until(() => !alive(watchdog), "the watchdog exited after its parent was killed");
      expect(readFileSync(terms, "utf8")).toBe("TERM\n");
    } finally {
      if (parent.exitCode === null && parent.signalCode === null) parent.kill("SIGKILL");
    }
  });
});
