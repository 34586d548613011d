// The GitHub Action's logic (scripts/certify-action.ts): exit 0 passes, 1 fails, 3 is a warning with
// the step passing (incomplete: neutral, the default) or failing (incomplete: fail); the step's
// outputs and the job summary (what did not run and how to enable it; known failures apart).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { Report } from "../conformance/report/model.ts";
import { certifyArgs, certifyEnv, jobSummary, main, outcomeOf } from "../scripts/certify-action.ts";

const dir = mkdtempSync(join(tmpdir(), "custody-action-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A report as certify writes it, with these checks. */
function report(checks: Array<Partial<Report["checks"][number]> & { id: string }>): Report {
  const full = checks.map((c) => ({
    group: "webhooks",
    title: c.id,
    severity: "MUST",
    status: "passed",
    seed_ref: "§6",
    level: "seed",
    duration_ms: 1,
    message: null,
    evidence: null,
    statements: [],
    ...c,
  })) as Report["checks"];
  const n = (s: string) => full.filter((c) => c.severity === "MUST" && c.status === s).length;
  const skipped = full.filter((c) => c.status === "skipped" && c.needs);
  return {
    summary: {
      verdict: n("failed") ? "failed" : n("skipped") ? "incomplete" : "certified",
      level: "seed",
      target: { base_url: "http://wallet.example", rpc_url: "", ws_url: "" },
      must: { in_scope: full.length, passed: n("passed"), failed: n("failed"), skipped: n("skipped"), not_selected: 0 },
      skip_needs: skipped.map((c) => ({ needs: c.needs!, must: [c.id], should: [] })),
      other_skips: 0,
    },
    preflight: [],
    checks: full,
  } as unknown as Report;
}

/** A stand-in for bin/custody.js: writes the report it is given and exits with the status it is given. */
function fakeCustody(code: number, r: Report): string {
  const file = join(dir, `fake-${code}.mjs`);
  const json = JSON.stringify(r);
  writeFileSync(
    file,
    `import { writeFileSync } from "node:fs";\nconst a = process.argv;\nconst i = a.indexOf("--json");\nif (i > 0) writeFileSync(a[i + 1], ${JSON.stringify(json)});\nprocess.exit(${code});\n`,
  );
  return file;
}

async function step(
  code: number,
  r: Report,
  inputs: Record<string, string> = {},
): Promise<{ exit: number; log: string; outputs: Record<string, string>; summary: string }> {
  const work = mkdtempSync(join(dir, "step-"));
  const [outputFile, summaryFile] = [join(work, "output"), join(work, "summary")];
  writeFileSync(outputFile, "");
  writeFileSync(summaryFile, "");
  let log = "";
  const exit = await main(
    ["certify"],
    { CUSTODY_BIN: fakeCustody(code, r), GITHUB_OUTPUT: outputFile, GITHUB_STEP_SUMMARY: summaryFile, ...inputs },
    (t) => (log += t),
    work,
  );
  const outputs = Object.fromEntries(
    readFileSync(outputFile, "utf8")
      .trim()
      .split("\n")
      .map((l) => l.split("=", 2) as [string, string]),
  );
  return { exit, log, outputs, summary: readFileSync(summaryFile, "utf8") };
}

const incomplete = report([
  { id: "webhooks.verification-key" },
  { id: "webhooks.delivery-signature", status: "skipped", needs: "--webhook-receiver-url (or --level full)" },
]);

describe("the action's script", () => {
  it("passes a certified run (exit 0)", async () => {
    const r = await step(0, report([{ id: "webhooks.verification-key" }]));
    expect(r.exit).toBe(0);
    expect(r.outputs).toMatchObject({ verdict: "certified", "exit-code": "0" });
    expect(r.log).toBe("");
  });

  it("fails on a failed MUST check (exit 1), naming it in the summary", async () => {
    const r = await step(
      1,
      report([{ id: "webhooks.verification-key", status: "failed", message: "public_key is not a string\nmore" }]),
    );
    expect(r.exit).toBe(1);
    expect(r.log).toContain("::error title=custody certify::NOT CERTIFIED: 1 MUST check(s) failed");
    expect(r.summary).toContain("### Failed\n\n- `webhooks.verification-key`: public_key is not a string\n");
    expect(r.outputs.verdict).toBe("failed");
  });

  it("leaves an incomplete run (exit 3) neutral: a warning, and the summary says what enables the rest", async () => {
    const r = await step(3, incomplete);
    expect(r.exit).toBe(0);
    expect(r.log).toContain("::warning title=custody certify::NOT CERTIFIED (incomplete): 1 MUST checks did not run");
    expect(r.summary).toContain("- pass `--webhook-receiver-url (or --level full)`: `webhooks.delivery-signature`");
    expect(r.outputs).toMatchObject({ verdict: "incomplete", "exit-code": "3" });
  });

  it("fails an incomplete run with incomplete: fail, and a stopped one (exit 2) always", async () => {
    expect((await step(3, incomplete, { INCOMPLETE: "fail" })).exit).toBe(3);
    expect(outcomeOf(3, "fail").annotation).toMatch(/^::error /);
    expect(outcomeOf(2, "neutral").exit).toBe(2);
  });

  it("shows known failures apart from new ones", () => {
    const r = report([
      {
        id: "auth.timestamp-a-day-off",
        status: "failed",
        message: "accepted",
        known_failure: { check: "auth.timestamp-a-day-off", failure: "accepted", reason: "clock window" },
      },
    ]);
    const text = jobSummary(r, outcomeOf(0, "neutral", r));
    expect(text).toContain("### Known failures");
    expect(text).toContain("- `auth.timestamp-a-day-off`: accepted (clock window)");
    expect(text).not.toContain("### Failed");
  });

  it("passes inputs as arguments and the environment, empty inputs left out", () => {
    expect(certifyArgs({ TARGET: "staging", LEVEL: "", BASELINE: "known.yaml", SANDBOX: "false" })).toEqual([
      "--target",
      "staging",
      "--baseline",
      "known.yaml",
    ]);
    expect(certifyEnv({ CUSTODY_API_KEY: "", CUSTODY_BASE_URL: "http://x" })).toEqual({ CUSTODY_BASE_URL: "http://x" });
  });

  it("action.yml runs the script for the plan and the certification, with the incomplete and baseline inputs", () => {
    const action = parse(readFileSync(join(import.meta.dirname, "..", "action.yml"), "utf8")) as {
      inputs: Record<string, { default?: string }>;
      outputs: Record<string, unknown>;
      runs: { steps: Array<{ name?: string; run?: string; env?: Record<string, string> }> };
    };
    expect(action.inputs.incomplete.default).toBe("neutral");
    expect(action.inputs.baseline).toBeDefined();
    expect(Object.keys(action.outputs)).toEqual(expect.arrayContaining(["verdict", "exit-code", "junit"]));
    const runs = action.runs.steps
      .filter((s) => s.run?.includes("scripts/certify-action.ts"))
      .map((s) => s.run!.split(" ").pop());
    expect(runs).toEqual(["plan", "certify"]);
    for (const s of action.runs.steps.filter((s) => s.run?.includes("certify-action")))
      expect(s.env?.INCOMPLETE).toBe("${{ inputs.incomplete }}");
  });
});
