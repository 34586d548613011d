// oasdiff's own test pairs (test/fixtures/diff/oasdiff, Apache-2.0, see NOTICE): our breaking verdict
// against the one oasdiff's tests expect, and the same check id where both name the check alike.
// The one deliberate difference here: a newly required security scheme is breaking for us.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diffDocuments } from "../diff/index.ts";
import { loadSide } from "../diff/source.ts";

const DIR = "test/fixtures/diff/oasdiff";
interface Case {
  test: string;
  base: string;
  revision: string;
  oasdiff: { id: string; level: string }[];
}
const cases = JSON.parse(readFileSync(join(DIR, "cases.json"), "utf8")) as Case[];
/** Where our verdict differs on purpose (docs/explanation/spec-diff.md, "Agreement with oasdiff"). */
const DIFFERS = new Set(["TestAPISecurityAdded"]);

describe("custody diff on oasdiff's test pairs", () => {
  it.each(cases.map((c) => [c.test, c] as const))("%s", async (_, c) => {
    const report = diffDocuments({
      openapi: {
        old: await loadSide(join(DIR, c.base), "openapi"),
        next: await loadSide(join(DIR, c.revision), "openapi"),
      },
    });
    const theirs = c.oasdiff.some((x) => x.level === "ERR");
    const ours = report.summary.breaking > 0;
    expect(ours).toBe(DIFFERS.has(c.test) ? !theirs : theirs);
    // Ids are named as oasdiff names them: each expected id is among ours.
    const ids = new Set(report.changes.map((x) => x.id));
    for (const x of c.oasdiff) expect(ids, `${c.test}: ${x.id}`).toContain(x.id);
  });
});
