// Vitest global setup: one scratch folder per `vitest run`, where the first test file that needs custody
// installed from its tarball packs and installs it, and every other one reuses that install
// (test/support/packed-install.ts). Creating the folder costs nothing; packing happens only on demand.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    packShare: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), "custody-pack-share-"));
  project.provide("packShare", dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
