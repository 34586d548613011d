// The CPU time of the child processes this process has waited for (they count once reaped), for the
// per-file figures (file-cpu.ts) and the docs test's per-step figures (doc-follow.ts).
import { readFileSync } from "node:fs";

/** user + system CPU of the children waited for, in ms, from /proc (Linux only; 0 elsewhere). */
export function childrenCpuMs(): number {
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
