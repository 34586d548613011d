import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";
import { FRESH_PROCESS_GLOBS } from "./test/support/fresh-process.ts";
import LongestFirst from "./test/support/longest-first.ts";
import { useTmpfsScratch } from "./test/support/scratch-tmpfs.ts";

// The run's scratch folders on tmpfs where the machine has one (test/support/scratch-tmpfs.ts says why).
useTmpfsScratch();

// Most test files spend their time waiting (on a chain's blocks, webhook retries, child processes), not
// computing, so two files per core keep the cores busy; vitest's default (cores - 1) ran one file at a
// time on a 2-core machine. CUSTODY_TEST_WORKERS overrides it.
const workers = Number(process.env.CUSTODY_TEST_WORKERS) || Math.max(2, availableParallelism() * 2);

export default defineConfig({
  test: {
    // Outer bounds only, for a hung test: every test waits on events (a block, a delivery, a child's
    // output), never on a guess of how long a step takes, so a machine busy with other work (a 2-core
    // machine at load 30 runs a tsc of 12 CPU-seconds in three minutes) is slow, not failing. Tests set no
    // shorter bound of their own; the few longer ones are the npm installs of test/ship-pack.test.ts.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: "forks",
    // The workers' garbage collector on their main thread: V8's parallel collector threads cost CPU the
    // other files need on a 2-core machine (three CPU-heavy files: 39 → 36 CPU-s, no longer).
    execArgv: ["--single-threaded-gc"],
    maxWorkers: workers,
    setupFiles: ["test/support/file-cpu.ts"],
    reporters: ["default", "./test/support/slowest-files.ts"],
    sequence: { sequencer: LongestFirst },
    // One scratch folder per run for the tarball install that test files share (test/support/packed-install.ts).
    globalSetup: ["test/support/pack-share.ts"],
    // Most files share worker processes (no module reloaded per file); the few that leave something behind
    // in their process get a fresh one each (test/support/fresh-process.ts says which, and why).
    // Corpus, scale and long fuzz runs: `npm run test:scale` (vitest.scale.config.ts), run by CI after this.
    projects: [
      { extends: true, test: { name: "fresh", include: FRESH_PROCESS_GLOBS } },
      {
        extends: true,
        test: {
          name: "shared",
          isolate: false,
          // A spy (vi.spyOn of console, of fetch) or a stub (vi.stubEnv, vi.stubGlobal) never outlives its
          // test into another file's (undone before each test; test/support/leftovers.ts undoes stubs at
          // the end of each file too).
          restoreMocks: true,
          unstubEnvs: true,
          unstubGlobals: true,
          // A file that shares its process must stop what it started (test/support/leftovers.ts).
          setupFiles: ["test/support/leftovers.ts"],
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "test/**/*.scale.test.ts", ...FRESH_PROCESS_GLOBS],
        },
      },
    ],
  },
});
