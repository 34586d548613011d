// Server child of bench/lists.ts: the sandbox restarted on a filled data directory. Announces how long
// startSandbox took (replaying the snapshot and journal, building the indexes, starting the chain and
// the API) and the credentials the harness signs with.
import { startSandbox } from "../../reference/sandbox.ts";
import { announce, failStart } from "./announce.ts";

try {
  const [dataDir] = process.argv.slice(2);
  if (!dataDir) throw new Error("usage: lists-sandbox.ts DATA_DIR");
  const started = performance.now();
  const cpu = process.cpuUsage();
  const sandbox = await startSandbox({
    dataDir,
    seed: "bench-lists",
    env: {},
    logger: { error: (m) => process.stderr.write(`sandbox: ${m}\n`) },
  });
  const startMs = performance.now() - started;
  // CPU time of this process (every thread, the garbage collector's included): unlike wall time, it does not grow with the load of a shared machine.
  const used = process.cpuUsage(cpu);
  announce({
    base_url: sandbox.base_url,
    api_key: sandbox.api_key,
    api_secret: sandbox.api_secret,
    workspace_id: sandbox.workspace_id,
    start_ms: Math.round(startMs),
    start_cpu_ms: Math.round((used.user + used.system) / 1000),
    ...sandbox.startup,
    pid: process.pid,
  });
} catch (error) {
  failStart(error);
}
