// readOnly/writeOnly variants (generator/model/directions.ts) on a public spec that uses both keywords:
// Rebilly's API in @redocly/openapi-core (1 MB; 451 readOnly, 19 writeOnly). npm test proves the
// variants on test/fixtures/specs/read-write-only.yaml (test/generator-read-write-only.test.ts).
import { join } from "node:path";
import { expect, it } from "vitest";
import { renderFiles } from "../generator/index.ts";
import { REBILLY, scratchFolder } from "./support/scratch-folder.ts";

const work = scratchFolder("gen-rwo-scale");

it("a public spec using both keywords (Rebilly: 451 readOnly, 19 writeOnly) gets variants", async () => {
  const { model: rebilly } = await renderFiles({ specPath: REBILLY, outDir: join(work(), "rebilly") });
  const request = rebilly.schemas.filter((s) => s.variants?.request !== undefined).length;
  const response = rebilly.schemas.filter((s) => s.variants?.response !== undefined).length;
  expect(request).toBeGreaterThan(100);
  expect(response).toBeGreaterThan(0);
});
