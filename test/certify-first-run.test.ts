// A service team's first run, as the guide has it: `init --ci github` → `certify --target staging
// --plan` → `certify --target staging`, against an independent deployment written from the seed
// (test/support/seed-only-target.ts). Without fixtures the plan names every check that will not run
// with its flag, the run skips exactly those (exit 3) and the action leaves it neutral; with the
// fixtures init writes, every MUST check runs and passes (exit 0).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run as certify } from "../cli/certify.ts";
import { run as init, WORKFLOW_PATH } from "../cli/init.ts";
import type { Report } from "../conformance/report/model.ts";
import type { OperationInfo } from "../conformance/run/operations.ts";
import { loadGeneratedOperations } from "../conformance/run/operations.ts";
import { RECEIVER_UNREACHED } from "../conformance/run/supply.ts";
import { main as actionStep } from "../scripts/certify-action.ts";
import { freePort } from "./support/free-port.ts";
import { fixtureFlags } from "./support/seed-only-flags.ts";
import { type SeedOnlyTarget, startSeedOnlyTarget } from "./support/seed-only-target.ts";

const dir = mkdtempSync(join(tmpdir(), "custody-first-run-"));
let t: SeedOnlyTarget;
let receiverUrl: string;
let operations: OperationInfo[];
beforeAll(async () => {
  receiverUrl = `http://127.0.0.1:${await freePort()}`;
  // The deployment's webhook was registered by hand to a path under the receiver URL.
  t = await startSeedOnlyTarget(`${receiverUrl}/hooks/custody`);
  operations = await loadGeneratedOperations();
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The secrets the workflow passes, as the team's CI secrets would hold them. */
function secrets(): Record<string, string> {
  return {
    STAGING_API_KEY: t.owner.apiKey,
    STAGING_API_SECRET: t.owner.apiSecret,
    STAGING_RPC_API_KEY: t.rpcApiKey,
    STAGING_VIEWER_API_KEY: t.viewer.apiKey,
    STAGING_VIEWER_API_SECRET: t.viewer.apiSecret,
    STAGING_SCOPED_API_KEY: t.scoped.apiKey,
    STAGING_SCOPED_API_SECRET: t.scoped.apiSecret,
    STAGING_OTHER_API_KEY: t.other.apiKey,
    STAGING_OTHER_API_SECRET: t.other.apiSecret,
  };
}

async function custody(cwd: string, argv: string[]): Promise<{ code: number; out: string }> {
  let out = "";
  const io = {
    cwd,
    env: secrets(),
    operations,
    signals: false,
    stdout: (s: string) => (out += s),
    stderr: (s: string) => (out += s),
  };
  const code = await certify(["--target", "staging", "--no-color", "--quiet", "--timeout-ms", "6000", ...argv], io);
  return { code, out };
}

/** The ids the plan lists under "will not run". */
function planned(out: string): string[] {
  const part = out.split("will not run, and what enables them:\n")[1] ?? "";
  return part
    .split("\n")
    .filter((l) => l.startsWith("    "))
    .flatMap((l) => l.trim().split(", "))
    .sort();
}

describe("a first CI run, followed to the letter", () => {
  it("without fixtures: the plan names each check that will not run and its flag, the run skips exactly those (exit 3), the action is neutral", async () => {
    const cwd = join(dir, "bare");
    let said = "";
    await init(["--ci", "github", "--base-url", t.baseUrl, "--rpc-url", t.rpcUrl], { cwd, stdout: (s) => (said += s) });
    expect(said.trim().split("\n").pop()).toMatch(/^ {2}custody certify --target staging --plan /);
    const plan = await custody(cwd, ["--plan"]);
    expect(plan.code).toBe(3);
    expect(plan.out).toMatch(
      /^ {2}--webhook-receiver-url \(or --level full\) \[or CUSTODY_WEBHOOK_RECEIVER_URL\]: 5 checks \(5 MUST\)$/m,
    );
    const json = join(cwd, "reports", "first.json");
    const first = await custody(cwd, ["--json", json]);
    expect(first.code).toBe(3);
    const report = JSON.parse(readFileSync(json, "utf8")) as Report;
    const skipped = report.checks.filter((c) => c.status === "skipped");
    expect(report.checks.filter((c) => c.status === "failed").map((c) => c.id)).toEqual([]);
    expect(skipped.map((c) => c.id).sort()).toEqual(planned(plan.out));
    for (const c of skipped) expect(c.needs, `${c.id}: ${c.message}`).toMatch(/--[a-z]/);
    // The workflow's step for this run: a warning, the job passing.
    let log = "";
    const exit = await actionStep(
      ["certify"],
      { ...process.env, ...secrets(), TARGET: "staging", TIMEOUT_MS: "6000" },
      (s) => (log += s),
      cwd,
    );
    expect(exit).toBe(0);
    expect(log).toContain("::warning title=custody certify::NOT CERTIFIED (incomplete)");
  });

  it("with the fixtures init writes: every MUST check runs and passes (exit 0), as the plan said", async () => {
    const cwd = join(dir, "fixtures");
    const fixtures = [...fixtureFlags(t, receiverUrl), "--restricted-keys"];
    await init(["--ci", "github", "--base-url", t.baseUrl, "--rpc-url", t.rpcUrl, ...fixtures], {
      cwd,
      stdout: () => undefined,
    });
    expect(readFileSync(join(cwd, WORKFLOW_PATH), "utf8")).toContain(
      "STAGING_OTHER_API_SECRET: ${{ secrets.STAGING_OTHER_API_SECRET }}",
    );
    const plan = await custody(cwd, ["--plan"]);
    expect(plan.out).toContain("every MUST check of level seed will run");
    expect(plan.code).toBe(0);
    const run = await custody(cwd, []);
    expect(run.out).toMatch(/CERTIFIED at level seed: all \d+ MUST checks ran and passed/);
    expect(run.code).toBe(0);
  });

  it("when no delivery reaches the receiver, the webhook checks are skipped naming the three ways (never a failure)", async () => {
    const elsewhere = `http://127.0.0.1:${await freePort()}`; // the deployment's webhook points at receiverUrl, not here
    const args = [
      "--workspace-id",
      t.workspaceId,
      "--webhook-id",
      t.webhookId,
      "--delivery-id",
      t.deliveryId,
      "--webhook-receiver-url",
      elsewhere,
    ];
    const cwd = join(dir, "unreached");
    await init(["--base-url", t.baseUrl, "--rpc-url", t.rpcUrl, ...args], { cwd, stdout: () => undefined });
    const json = join(cwd, "r.json");
    const { code } = await custody(cwd, ["--only", "webhooks", "--timeout-ms", "1500", "--json", json]);
    expect(code).toBe(3);
    const report = JSON.parse(readFileSync(json, "utf8")) as Report;
    const unreached = report.checks
      .filter((c) => c.needs === RECEIVER_UNREACHED.needs)
      .map((c) => c.id)
      .sort();
    expect(unreached).toEqual([
      "webhooks.delete-stops-delivery",
      "webhooks.delivery-signature",
      "webhooks.resend-same-event",
      "webhooks.tampered-body-rejected",
    ]);
    expect(report.checks.find((c) => c.id === "webhooks.delivery-signature")?.message).toContain(
      "start the service inside the job, run certify inside the deployment's network, or put a public URL in front of the receiver",
    );
    expect(report.checks.filter((c) => c.status === "failed")).toEqual([]);
  });
});
