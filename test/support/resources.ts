// What a process holds open (node's active resources: servers, sockets, timers, child processes), and
// waiting for what a test file started to be gone; test/support/leftovers.ts applies it to every file.

/** How many of each kind of resource (node's names: Timeout, TCPSocketWrap, ProcessWrap, …) are alive. */
export function resources(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}

/** The kinds of which there are more now than at `start`, as "2 × Timeout". */
export function grownSince(start: ReadonlyMap<string, number>): string[] {
  return [...resources()]
    .filter(([kind, count]) => count > (start.get(kind) ?? 0))
    .map(([kind, count]) => `${count - (start.get(kind) ?? 0)} × ${kind}`);
}

/** Waits (closing is asynchronous) until nothing has grown since `start`, or `waitMs`; returns what is left. */
export async function leftSince(start: ReadonlyMap<string, number>, waitMs: number, pollMs = 50): Promise<string[]> {
  const deadline = Date.now() + waitMs;
  let left = grownSince(start);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    left = grownSince(start);
  }
  return left;
}
