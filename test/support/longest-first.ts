// The order test files start in: longest first, so that no long file starts near the end and holds
// the run open while the other workers sit idle. vitest orders by the durations of earlier runs when
// it has them (node_modules/.vite/vitest); on a fresh clone (CI) it has none and starts larger files
// first, which put the two longest files (small files that wait on npm and tsc) last. The list holds
// the files that took longest in CI (its slowest-files summary); a stale list costs minutes, never a
// result. It holds every file that took 10 s or more: vitest puts a file it has no figures for by its size,
// and small files that wait on npm or tsc (generate-fresh-project) came last, making the run's tail.
// One exception to the order: of the files that wait for the packed tarball (about 35 s of npm
// at the start of a run, test/support/packed-install.ts), only the first starts at once; the others come
// after the CPU-heavy files, or three of the four workers sat waiting on it while a core was idle.
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

export const LONGEST_FILES = [
  "test/docs-follow.test.ts",
  "test/conformance-reference.test.ts",
  "test/conformance-deep.test.ts",
  "test/generator-zod-mini.test.ts",
  "test/generator-github.scale.test.ts",
  "test/generator-compile.scale.test.ts",
  "test/ship-pack.test.ts",
  "test/certify-image.test.ts",
  "test/frontend-browser.test.ts",
  "test/conformance-fake-target.test.ts",
  "test/conformance-seed-only-b.test.ts",
  "test/generator-compile.test.ts",
  "test/generate-fresh-project.test.ts",
  "test/conformance-seed-only.test.ts",
  "test/conformance-cli.test.ts",
  "test/spec-mock.test.ts",
  "test/reference-crash.test.ts",
  "test/hardening-generator.test.ts",
  "test/diff-cli.test.ts",
  "test/hardening-fuzz-server.test.ts",
  "test/certify-baseline.test.ts",
  "test/certify-first-run.test.ts",
  "test/conformance-chains.test.ts",
  "test/diff-generate-check.test.ts",
  "test/mcp-sandbox.test.ts",
  "test/mcp-target.test.ts",
  "test/conformance-rate-limit.test.ts",
  "test/conformance-runner.test.ts",
  "test/reference-cli-sandbox.test.ts",
  "test/hardening-load.test.ts",
  "test/conformance-isolation.test.ts",
  "test/cli-config.test.ts",
];

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const rank = (spec: TestSpecification) => {
      const at = LONGEST_FILES.indexOf(relative(root, spec.moduleId));
      return at === -1 ? LONGEST_FILES.length : at;
    };
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
