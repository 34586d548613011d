import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Most test files spend their time waiting (on a chain's blocks, webhook retries, child processes), not
// computing, so two files per core keep the cores busy; vitest's default (cores - 1) ran one file at a
// time on a 2-core machine. CUSTODY_TEST_WORKERS overrides it.
const workers = Number(process.env.CUSTODY_TEST_WORKERS) || Math.max(2, availableParallelism() * 2);

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Outer bounds only: every test waits on events (a block, a delivery, a child's output), so these are
    // reached only when something hangs, and a machine busy with other work never reaches them.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: "forks",
    maxWorkers: workers,
    setupFiles: ["test/support/file-cpu.ts"],
    reporters: ["default", "./test/support/slowest-files.ts"],
  },
});
