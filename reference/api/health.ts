// getHealth: `ok` while the chain answers within 2 s, `degraded` otherwise (still HTTP 200).
import type { ReferenceApp } from "../app.ts";

const CHAIN_PROBE_TIMEOUT_MS = 2_000;

export async function healthReport(app: ReferenceApp, version: string) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), CHAIN_PROBE_TIMEOUT_MS);
  });
  const head = await Promise.race([app.chain.head().catch(() => undefined), timeout]);
  clearTimeout(timer);
  const reachable = head !== undefined;
  return {
    status: reachable ? ("ok" as const) : ("degraded" as const),
    version,
    chain: { reachable, chain_id: app.chain.chainId, ...(reachable ? { block_number: Number(head) } : {}) },
  };
}
