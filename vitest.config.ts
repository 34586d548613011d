import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // One scratch folder per run for the tarball install that test files share (test/support/packed-install.ts).
    globalSetup: ["test/support/pack-share.ts"],
  },
});
