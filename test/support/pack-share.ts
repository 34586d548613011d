// Vitest global setup: one scratch folder per `vitest run`, where the first test file that needs custody
// installed from its tarball packs and installs it, and every other one reuses that install
// (test/support/packed-install.ts). Creating the folder costs nothing; packing happens only on demand.
// vitest runs a global setup once per project (vitest.config.ts has two, "fresh" and "shared"), in the
// one main process: the folder is kept there, so both projects' files share it. (Each made its own
// until 2026-11-28, and every run packed and installed the tarball twice.)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    packShare: string;
  }
}

interface Share {
  dir: string;
  projects: number;
}

const KEY = Symbol.for("custody.pack-share");
const main = globalThis as { [KEY]?: Share };

export default function setup(project: TestProject): () => void {
  main[KEY] ??= { dir: mkdtempSync(join(tmpdir(), "custody-pack-share-")), projects: 0 };
  const share = main[KEY];
  share.projects++;
  project.provide("packShare", share.dir);
  return () => {
    if (--share.projects > 0) return;
    rmSync(share.dir, { recursive: true, force: true });
    delete main[KEY];
  };
}
