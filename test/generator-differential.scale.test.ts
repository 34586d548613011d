// The differential check of test/generator-differential.test.ts (generated zod against ajv, response
// examples against their schemas) at a large count of sampled and mutated instances per component.
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, it } from "vitest";
import { DIFFERENTIAL_SPECS, expectAgreement, ROOT } from "./support/differential-specs.ts";

const PER_COMPONENT = 120;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(ROOT, ".tmp-gen-diff-scale-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

for (const [i, spec] of DIFFERENTIAL_SPECS.entries()) {
  it(`${spec.slice(ROOT.length)}: ${PER_COMPONENT} instances per component`, async () => {
    await expectAgreement(spec, join(work, `d${i}`), PER_COMPONENT);
  });
}
