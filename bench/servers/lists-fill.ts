// Fill child of bench/lists.ts: starts the sandbox on a data directory, fills its store with N wallets,
// N withdrawals (of one wallet) and N deliveries (bench/fill-store.ts, in batches), measures the memory
// the records take, stops (which compacts the journal into the snapshot) and announces the figures.
// Run with --expose-gc so that the memory is read after a full collection.
import { startSandbox } from "../../reference/sandbox.ts";
import { fillStore } from "../fill-store.ts";
import { announce, failStart } from "./announce.ts";

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

try {
  const [dataDir, sizeArg] = process.argv.slice(2);
  const size = Number(sizeArg);
  if (!dataDir || !Number.isInteger(size) || size < 1) throw new Error("usage: lists-fill.ts DATA_DIR SIZE");
  const sandbox = await startSandbox({
    dataDir,
    seed: "bench-lists",
    env: {},
    logger: { error: (m) => process.stderr.write(`sandbox: ${m}\n`) },
  });
  gc();
  const before = process.memoryUsage();
  const started = performance.now();
  const filled = await fillStore(sandbox.app.ctx.store, sandbox.workspace_id, sandbox.api_key, {
    wallets: size,
    withdrawals: size,
    deliveries: size,
  });
  const fillMs = performance.now() - started;
  gc();
  const after = process.memoryUsage();
  const closing = performance.now();
  await sandbox.close();
  announce({
    ...filled,
    fill_ms: Math.round(fillMs),
    close_ms: Math.round(performance.now() - closing),
    heap_bytes_per_record: Math.round((after.heapUsed - before.heapUsed) / filled.records),
    rss_bytes_per_record: Math.round((after.rss - before.rss) / filled.records),
  });
  process.exit(0);
} catch (error) {
  failStart(error);
}
