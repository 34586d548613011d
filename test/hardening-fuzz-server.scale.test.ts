// The large fuzz run of the generated server (`npm run test:scale`): the properties of
// test/hardening-fuzz-server.test.ts (test/hardening-fuzz-suite.ts) with 300 runs per operation and
// 600 stray requests, the run docs/measurements/hardening.md records. CUSTODY_FUZZ_RUNS and
// CUSTODY_FUZZ_SEED change or reproduce it.
import { describeServerFuzz } from "./hardening-fuzz-suite.ts";

describeServerFuzz(300);
