// readOnly/writeOnly variants (generator/model/directions.ts) on a public spec that uses both keywords:
// Rebilly's API in @redocly/openapi-core (1 MB; 451 readOnly, 19 writeOnly). npm test proves the
// variants on test/fixtures/specs/read-write-only.yaml (test/generator-read-write-only.test.ts).
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { renderFiles } from "../generator/index.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const REBILLY = join(ROOT, "node_modules/@redocly/openapi-core/src/benchmark/benches/rebilly.yaml");
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(ROOT, ".tmp-gen-rwo-scale-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

it("a public spec using both keywords (Rebilly: 451 readOnly, 19 writeOnly) gets variants", async () => {
  const { model: rebilly } = await renderFiles({ specPath: REBILLY, outDir: join(work, "rebilly") });
  const request = rebilly.schemas.filter((s) => s.variants?.request !== undefined).length;
  const response = rebilly.schemas.filter((s) => s.variants?.response !== undefined).length;
  expect(request).toBeGreaterThan(100);
  expect(response).toBeGreaterThan(0);
});
