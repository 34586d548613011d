// The reference deployment `custody certify --sandbox` certifies: started in a worker thread
// (sandbox-worker.mjs), so the deployment and the runner each have an event loop and the run uses
// both cores of a small machine, with the settings below. conformance/ never imports reference/: the
// runner knows this deployment, like any other, only by the URLs and credentials it hands out.
import { Worker } from "node:worker_threads";
import type { SandboxCredentials } from "../reference/sandbox.ts";

/** A sandbox started in a worker thread: its credentials record, and how to stop it. */
export interface SandboxHandle extends SandboxCredentials {
  close(): Promise<void>;
}

/**
 * How the certified sandbox runs. The checks' rules do not depend on these; the waits do: blocks
 * every 150 ms (the default is 1 s) with the same 3 confirmations, so deposits and withdrawals settle
 * six times sooner (the runner's chain waits ask every CHAIN_POLL_MS, at least once per such block);
 * webhook retries after 0.25 s and 0.5 s (the default starts at 1 s; the spec's schedule is the
 * deployment's to shorten, x-custody-webhook-delivery); a new wallet completes after 50 ms (default
 * 500 ms; asynchronous creation is the rule, its delay the deployment's; the runner asks every 100 ms,
 * so the second ask finds it complete); Solana slots every 50 ms
 * (the default is 400 ms) with the same 32 confirmations, so a SOL deposit confirms in about 1.6 s
 * instead of 12.8 s. The fault tests of the reference deployment (test/conformance-reference.test.ts)
 * run its defaults.
 */
export const CERTIFY_SANDBOX_OPTIONS = {
  blockTimeSeconds: 0.15,
  webhookRetry: { initialDelayMs: 250 },
  walletCreationDelayMs: 50,
  solanaSlotMs: 50,
} as const;

/** How long the sandbox may take to start (a cold anvil, a loaded machine) before certify gives up. */
const START_LIMIT_MS = 60_000;

/**
 * Where bin/custody.js leaves the sandbox's thread it started before the command line loaded
 * (`custody certify --sandbox`): a process-wide key, because bin/custody.js and this module (inside the
 * command line's bundle) share no module instance.
 */
export const EARLY_SANDBOX_WORKER = Symbol.for("custody.early-sandbox-worker");

/** The thread bin/custody.js started early for this same worker file, taken over (once), or undefined. */
function adoptEarlyWorker(url: URL): Worker | undefined {
  const slot = globalThis as { [EARLY_SANDBOX_WORKER]?: { worker: Worker; url: string } };
  const early = slot[EARLY_SANDBOX_WORKER];
  delete slot[EARLY_SANDBOX_WORKER];
  if (early?.url !== url.href) {
    void early?.worker.terminate();
    return undefined;
  }
  early.worker.ref();
  return early.worker;
}

export function startSandboxWorker(options: Record<string, unknown> = CERTIFY_SANDBOX_OPTIONS): Promise<SandboxHandle> {
  const url = new URL("./sandbox-worker.mjs", import.meta.url);
  // Its code may be loaded already (bin/custody.js); either way it starts once told the options.
  const worker = adoptEarlyWorker(url) ?? new Worker(url);
  worker.postMessage({ type: "start", options });
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      const done = () => resolve();
      worker.once("exit", done);
      worker.once("message", (m: { type?: string }) => m?.type === "closed" && done());
      worker.postMessage("close");
      // A sandbox that does not stop in time is stopped with its thread.
      setTimeout(() => void worker.terminate().then(done, done), 10_000).unref();
    }));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(`the sandbox did not start within ${START_LIMIT_MS / 1000} s`), START_LIMIT_MS);
    function fail(message: string) {
      clearTimeout(timer);
      void worker.terminate();
      reject(new Error(message));
    }
    worker.once("error", (error) => fail(`the sandbox stopped: ${error.message}`));
    worker.once("exit", (code) => fail(`the sandbox stopped (exit ${code}) before it was ready`));
    worker.once("message", (message: { type?: string; handle?: Omit<SandboxHandle, "close">; message?: string }) => {
      if (message?.type !== "ready" || !message.handle)
        return fail(`cannot start the reference deployment: ${message?.message ?? "no answer"}`);
      clearTimeout(timer);
      worker.removeAllListeners("exit");
      worker.removeAllListeners("error");
      resolve({ ...message.handle, close });
    });
  });
}
