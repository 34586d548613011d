// Which runtime this is, for the few places that pick a faster Node-only path (loaded lazily, never
// imported statically, so every module stays portable).

/** True on Node itself (Bun and Deno also define process.versions.node, and are told apart). */
export function isNode(): boolean {
  const g = globalThis as { process?: { versions?: Record<string, string | undefined> }; Deno?: unknown };
  return typeof g.process?.versions?.node === "string" && g.process.versions.bun === undefined && g.Deno === undefined;
}
