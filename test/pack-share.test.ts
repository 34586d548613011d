// The global setup gives every project of a run one share folder (vitest runs it once per project), and
// removes it after the last project's teardown: the tarball is packed and installed once per run.
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { TestProject } from "vitest/node";
import setup from "./support/pack-share.ts";

function fakeProject(): { project: TestProject; provided: () => string } {
  let dir = "";
  const project = { provide: (_key: string, value: string) => (dir = value) } as unknown as TestProject;
  return { project, provided: () => dir };
}

describe("pack-share", () => {
  it("one folder for every project of the run, removed after the last one", () => {
    const fresh = fakeProject();
    const shared = fakeProject();
    const teardownFresh = setup(fresh.project);
    const teardownShared = setup(shared.project);
    expect(shared.provided()).toBe(fresh.provided());
    expect(existsSync(fresh.provided())).toBe(true);
    teardownFresh();
    expect(existsSync(fresh.provided())).toBe(true);
    teardownShared();
    expect(existsSync(fresh.provided())).toBe(false);
  });
});
