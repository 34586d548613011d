// `npm run test:scale`: the corpus, scale and long fuzz runs (files named *.scale.test.ts), kept out of
// `npm test` so that the suite answers in minutes; CI runs both (.ci/run).
import { configDefaults, defineConfig } from "vitest/config";
import suite from "./vitest.config.ts";

export default defineConfig({
  ...suite,
  // Each file in a fresh process: few files, each minutes long.
  test: {
    ...suite.test,
    projects: undefined,
    include: ["test/**/*.scale.test.ts"],
    exclude: configDefaults.exclude,
    // Its figures beside the suite's, not over them.
    reporters: ["default", ["./test/support/slowest-files.ts", { output: "file-durations.scale.json" }]],
  },
});
