// Setup file of every test file: records the CPU time its worker process spent on it (user + system),
// and that of the child processes it started and waited for (tsc, npm, anvil), for the slowest-files
// summary. Each file runs in a fresh forked process (vitest.config.ts: forks, isolated), so the
// process's own counters are the file's.
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect } from "vitest";
import { childrenCpuMs } from "./children-cpu.ts";
import { CPU_DIR_ENV } from "./slowest-files.ts";

const start = process.cpuUsage();
const childrenStart = childrenCpuMs();

afterAll(() => {
  const used = process.cpuUsage(start);
  const file = expect.getState().testPath;
  const dir = process.env[CPU_DIR_ENV];
  if (!file || !dir) return; // run without the slowest-files reporter
  mkdirSync(dir, { recursive: true });
  const cpuMs = Math.round((used.user + used.system) / 1000);
  const line = JSON.stringify({ file, cpuMs, childCpuMs: childrenCpuMs() - childrenStart });
  appendFileSync(join(dir, `${process.pid}.jsonl`), `${line}\n`);
});
