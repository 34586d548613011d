// certify --baseline: a recorded known failure lets the run pass (exit 0) and is shown apart in every
// report; a new failure fails it (exit 1); a known failure that now passes is said; an expired one
// fails the run again. Against the independent seed-only deployment, with faults of its own.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../cli/certify.ts";
import { failureKey, parseBaseline } from "../conformance/report/baseline.ts";
import type { Report } from "../conformance/report/model.ts";
import { loadGeneratedOperations, type OperationInfo } from "../conformance/run/operations.ts";
import { freePort } from "./support/free-port.ts";
import { seedLevelFlags } from "./support/seed-only-flags.ts";
import { type SeedOnlyFault, startSeedOnlyTarget } from "./support/seed-only-target.ts";

const dir = mkdtempSync(join(tmpdir(), "custody-baseline-"));
const file = join(dir, "known.yaml");
let operations: OperationInfo[];
beforeAll(async () => void (operations = await loadGeneratedOperations()));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function certify(
  faults: SeedOnlyFault[],
  extra: string[],
): Promise<{ code: number; out: string; report: Report; junit: string; html: string }> {
  const port = await freePort();
  const t = await startSeedOnlyTarget(`http://127.0.0.1:${port}/in`, faults);
  const out = { text: "" };
  // Reports of their own: the runs that read one baseline go side by side.
  const files = { json: join(dir, `${port}.json`), junit: join(dir, `${port}.xml`), html: join(dir, `${port}.html`) };
  try {
    const code = await run(
      [...seedLevelFlags(t, port, 6000), "--json", files.json, "--junit", files.junit, "--html", files.html, ...extra],
      { env: {}, operations, signals: false, stdout: (s) => (out.text += s), stderr: (s) => (out.text += s) },
    );
    const read = (f: string) => readFileSync(f, "utf8");
    return {
      code,
      out: out.text,
      report: JSON.parse(read(files.json)) as Report,
      junit: read(files.junit),
      html: read(files.html),
    };
  } finally {
    await t.close();
  }
}

describe("certify --baseline", () => {
  it("records a known failure, then passes with it shown apart; fails on a new one; says when it passes or expired", async () => {
    const first = await certify(["balance-number"], ["--write-baseline", file]);
    expect(first.code, first.out).toBe(1);
    expect(first.out).toContain(`baseline (1 known failure) written to ${file}`);
    const recorded = parseBaseline(readFileSync(file, "utf8"), file).known;
    expect(recorded.map((k) => k.check)).toEqual(["envelope.seed-balance-fields"]);
    writeFileSync(file, readFileSync(file, "utf8").replace('reason: ""', 'reason: "balances as numbers until v2"'));

    // The runs that read this baseline, side by side; the expired one reads a copy with an old date.
    const expiredFile = join(dir, "expired.yaml");
    writeFileSync(expiredFile, readFileSync(file, "utf8").replace(/expires: .*/, "expires: 2020-01-31"));
    const [known, worse, fixed, expired] = await Promise.all([
      certify(["balance-number"], ["--baseline", file]),
      certify(["balance-number", "error-data"], ["--baseline", file]),
      certify([], ["--baseline", file]),
      certify(["balance-number"], ["--baseline", expiredFile]),
    ]);
    expect(known.code, known.out).toBe(0);
    expect(known.report.summary.baseline?.outcome).toBe("known_failures_only");
    expect(known.out).toContain(
      "1 known failure, accepted: envelope.seed-balance-fields (balances as numbers until v2)",
    );
    expect(known.out).toContain("with the baseline: PASSED, only known failures failed (exit 0); not a certification");
    expect(known.junit).toMatch(/<skipped message="known failure \(--baseline: balances as numbers until v2\)/);
    expect(known.junit).not.toContain("<failure");
    expect(known.html).toContain('known failure <a href="#check-envelope.seed-balance-fields"');

    expect(worse.code, worse.out).toBe(1);
    const added = worse.report.summary.baseline?.new.map((n) => n.check) ?? [];
    expect(added).toContain("envelope.error-shape");
    expect(added).not.toContain("envelope.seed-balance-fields");
    expect(worse.out).toMatch(/new failure: envelope\.error-shape: /);
    expect(worse.junit.match(/<failure /g)?.length).toBe(added.length);

    expect(fixed.code, fixed.out).toBe(0);
    expect(fixed.out).toContain(`now passing, remove from ${file}: envelope.seed-balance-fields`);

    expect(expired.code, expired.out).toBe(1);
    expect(expired.out).toContain("expired on 2020-01-31, still failing: envelope.seed-balance-fields");
  });

  it("matches a failure's first line with ids, ports and timings masked, never statuses", () => {
    expect(failureKey("wallet 1f0c2a9e-0000-4000-8000-000000000001 answered HTTP 200 after 10432 ms")).toBe(
      failureKey("wallet 9a0c2a9e-1111-4000-8000-00000000abcd answered HTTP 200 after 9981 ms"),
    );
    expect(failureKey("answered HTTP 200, not 401")).not.toBe(failureKey("answered HTTP 500, not 401"));
    expect(() =>
      parseBaseline("known_failures:\n  - check: a.b\n    failure: x\n    expires: soon\n", "f.yaml"),
    ).toThrow('--baseline f.yaml: known_failures[0] (a.b): expires must be a date YYYY-MM-DD, not "soon"');
  });
});
