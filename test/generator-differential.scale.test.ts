// The differential check of test/generator-differential.test.ts (generated zod against ajv, response
// examples against their schemas) at a large count of sampled and mutated instances per component.
import { join } from "node:path";
import { it } from "vitest";
import { DIFFERENTIAL_SPECS, expectAgreement, ROOT } from "./support/differential-specs.ts";
import { scratchFolder } from "./support/scratch-folder.ts";

const PER_COMPONENT = 120;
const work = scratchFolder("gen-diff-scale");

for (const [i, spec] of DIFFERENTIAL_SPECS.entries()) {
  it(`${spec.slice(ROOT.length)}: ${PER_COMPONENT} instances per component`, async () => {
    await expectAgreement(spec, join(work(), `d${i}`), PER_COMPONENT);
  });
}
