// Setup file of every test file: records the CPU time its worker process spent on it (user + system),
// and that of the child processes it started and waited for (tsc, npm, anvil), for the slowest-files
// summary. Each file runs in a fresh forked process (vitest.config.ts: forks, isolated), so the
// process's own counters are the file's.
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect } from "vitest";
import { CPU_DIR_ENV } from "./slowest-files.ts";

/** user + system CPU of the children waited for, from /proc (Linux only; 0 elsewhere). */
function childrenCpuMs(): number {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    // Fields after the command name (which may hold spaces): cutime and cstime are fields 16 and 17.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[13]) + Number(fields[14]);
    return Number.isFinite(ticks) ? ticks * 10 : 0; // USER_HZ is 100 on Linux
  } catch {
    return 0;
  }
}

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
