// Child side of bench/spawn-server.ts: a server child prints one READY line with what the harness
// needs (URLs, credentials) as JSON, then serves until it receives SIGTERM (see rss-hook.mjs).
export const READY_PREFIX = "BENCH_READY ";

export function announce(info: Record<string, unknown>): void {
  process.stdout.write(`${READY_PREFIX}${JSON.stringify(info)}\n`);
}

/** A child that cannot start says why on stderr and exits, so the harness reports it. */
export function failStart(error: unknown): never {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
