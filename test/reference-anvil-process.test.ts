// Stopping the chain node: stopAnvil resolves only once nothing of it holds its pipes, so a process
// the node left behind (here a stand-in binary's background child) is stopped with its process group
// instead of outliving close().
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runAnvil, stopAnvil } from "../reference/chain/anvil-process.ts";

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
