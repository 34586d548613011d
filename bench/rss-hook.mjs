// Loaded with `node --import` into a measured child when GNU time is not available, and into every
// server child: writes the process's peak resident set (KiB) to $BENCH_RSS_FILE when it exits, also
// on SIGTERM (the way the harness stops servers).
import { writeFileSync } from "node:fs";

const file = process.env.BENCH_RSS_FILE;
if (file) {
  let written = false;
  const record = () => {
    if (written) return;
    written = true;
    try {
      writeFileSync(file, `${process.resourceUsage().maxRSS}\n`);
    } catch {
      // The harness reports "unknown" memory; never fail the measured program because of us.
    }
  };
  process.on("exit", record);
  process.on("SIGTERM", () => {
    record();
    process.exit(0);
  });
}
