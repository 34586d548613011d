// A scratch folder for one test file: made in the project (so generated code resolves its packages)
// before the file's tests, removed after them.
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Rebilly's API in @redocly/openapi-core: a public 1 MB OpenAPI 3.0 document the scale runs generate. */
export const REBILLY = join(ROOT, "node_modules/@redocly/openapi-core/src/benchmark/benches/rebilly.yaml");

/** Registers the folder's creation and removal; call the returned function inside a test for its path. */
export function scratchFolder(prefix: string): () => string {
  let dir: string | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(ROOT, `.tmp-${prefix}-`));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return () => {
    if (dir === undefined) throw new Error("the scratch folder exists only while the file's tests run");
    return dir;
  };
}
