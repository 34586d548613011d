// Setup file of the files that share a worker process (the "shared" project of vitest.config.ts; which
// files those are is test/support/fresh-process.ts's call): each must stop what it started (servers,
// sockets, timers, child processes) before the next file runs there, so nothing of it slows the next
// file's time-bound waits or keeps the process alive. After the file's own afterAll hooks, this one
// waits until the process holds no more of each kind of resource than when the file began, and fails
// the file, naming what is left, when that does not happen within LEFTOVER_WAIT_MS (a close that has
// begun ends in milliseconds, even under load).
import { afterAll, vi } from "vitest";
import { leftSince, resources } from "./resources.ts";

const LEFTOVER_WAIT_MS = 10_000;
const atStart = resources();

afterAll(async () => {
  // A stub of the last test is undone here, not only before the next file's first test: that file's
  // own setup (its module, its beforeAll) runs before then.
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  const left = await leftSince(atStart, LEFTOVER_WAIT_MS);
  if (left.length > 0)
    throw new Error(
      `left running after its last test: ${left.join(", ")}; a file that shares its process must stop what it starts (test/support/leftovers.ts)`,
    );
}, LEFTOVER_WAIT_MS + 5_000);
