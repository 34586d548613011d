// Polling for the benchmarks: waits until a probe answers true, for conditions no event announces.

/** Resolves once `probe` returns true (a throw counts as not yet); rejects after `timeoutMs`. */
export async function until(probe: () => Promise<boolean>, timeoutMs = 30_000, intervalMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if (await probe()) return;
    } catch {
      // Not yet.
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error("timed out");
}
