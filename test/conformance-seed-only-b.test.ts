// Deployment B (test/support/seed-only-target-b.ts), a second implementation written from the seed
// alone with other choices than the first (string codes, "0" on success, 403 for another workspace,
// the event id only in the body, a lenient node, an unpaged list over 1 MiB), certifies at --level
// seed with no failed check at all, SHOULDs included. Each single break of a seed statement injected
// into it is caught by a MUST check that names that statement.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "../cli/certify.ts";
import { CATALOG } from "../conformance/checks/catalog.ts";
import type { Report } from "../conformance/report/model.ts";
import type { Target } from "../conformance/run/config.ts";
import { loadGeneratedOperations } from "../conformance/run/operations.ts";
import { runSuite } from "../conformance/run/runner.ts";
import { freePort } from "./support/free-port.ts";
import { seedLevelFlags } from "./support/seed-only-flags.ts";
import {
  SEED_ONLY_B_FAULT_CHECKS,
  type SeedOnlyBFault,
  type SeedOnlyTargetB,
  startSeedOnlyTargetB,
} from "./support/seed-only-target-b.ts";

const dir = mkdtempSync(join(tmpdir(), "custody-seed-only-b-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const operations = await loadGeneratedOperations();

/** B with its one webhook delivering under the runner's receiver URL, at a path of its own. */
async function startB(faults: SeedOnlyBFault[] = []): Promise<{ t: SeedOnlyTargetB; port: number }> {
  const port = await freePort();
  return { t: await startSeedOnlyTargetB(`http://127.0.0.1:${port}/incoming/b`, faults), port };
}

function seedFlags(t: SeedOnlyTargetB, port: number): string[] {
  return seedLevelFlags(t, port, 8000);
}

async function certifyB(
  extra: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; out: string; report: Report; t: SeedOnlyTargetB }> {
  const { t, port } = await startB();
  const json = join(dir, `b-${port}.json`);
  let out = "";
  try {
    const code = await run([...seedFlags(t, port), "--json", json, ...extra], {
      env,
      operations,
      stdout: (s) => (out += s),
      stderr: (s) => (out += s),
    });
    if (code === 2) throw new Error(`the run stopped: ${out}`);
    return { code, out, report: JSON.parse(readFileSync(json, "utf8")) as Report, t };
  } finally {
    await t.close();
  }
}

/** One check against B with one fault: the runner as the CLI drives it, narrowed to that check. */
async function certifyOneCheck(fault: SeedOnlyBFault, checkId: string): Promise<Report> {
  const { t, port } = await startB([fault]);
  const target: Target = {
    baseUrl: t.baseUrl,
    rpcUrl: t.rpcUrl,
    wsUrl: t.wsUrl,
    admin: t.owner,
    rpcApiKey: t.rpcApiKey,
    workspaceId: t.workspaceId,
    viewer: t.viewer,
    scoped: t.scoped,
    other: { credentials: t.other, workspaceId: t.otherWorkspaceId },
    fixtureIds: {
      walletId: t.walletId,
      assetId: t.assetId,
      withdrawalId: t.withdrawalId,
      webhookId: t.webhookId,
      deliveryId: t.deliveryId,
    },
    webhookReceiverUrl: `http://127.0.0.1:${port}`,
    webhookListenHost: "127.0.0.1",
    webhookListenPort: port,
  };
  try {
    const result = await runSuite({
      target,
      options: { level: "seed", timeoutMs: 4_000, concurrency: 4 },
      operations,
      catalog: CATALOG.filter((c) => c.id === checkId),
    });
    if (result.kind !== "completed")
      throw new Error(`the preflight stopped the run: ${result.failure.lines.join(" ")}`);
    return result.report;
  } finally {
    await t.close();
  }
}

describe("deployment B, written from the seed alone with other choices", () => {
  it("certifies at --level seed with zero failed checks, SHOULDs included, and nothing skipped but the deposit checks", async () => {
    const { code, out, report, t } = await certifyB();
    // The deposit checks need --faucet-private-key, without which they are SHOULDs that hold no verdict
    // back (B has no chain-backed balance; test/conformance-seed-deposits.test.ts proves them on one).
    expect(report.checks.filter((c) => c.status !== "passed").map((c) => `${c.id} ${c.status} ${c.needs}`)).toEqual([
      "lifecycle.seed-deposit-confirmation skipped --faucet-private-key",
      "lifecycle.seed-deposit-no-approval skipped --faucet-private-key",
    ]);
    expect(report.summary.verdict).toBe("certified");
    expect(code).toBe(0);
    expect(out).toMatch(/CERTIFIED at level seed/);
    // Its choices: the real service's webhook profile with the event id in the body only, and an
    // operation 4 answer well over the old 1 MiB body limit.
    expect(report.summary.webhook_profile).toBe("canonical-json");
    expect(t.withdrawalListBytes).toBeGreaterThan(1024 * 1024);
    expect(report.checks.find((c) => c.id === "envelope.seed-withdrawal-list")?.facts?.withdrawals).toBe("2600 listed");
    // B signs the query string too: the owner's key is refused getDepositAddress?asset_id=… (the
    // positive control), so the other workspace's key is judged on the seed's form, the path alone.
    const isolation = report.checks.find((c) => c.id === "isolation.reads-refused");
    expect(isolation?.facts?.["seed form: getDepositAddress"]).toMatch(
      /owner's key was refused with the query string \?asset_id=.* \(HTTP 401\)/,
    );
    expect(isolation?.facts?.isolation).toContain("getDepositAddress");
  });

  it("reports an answer over the body limit (CUSTODY_MAX_BODY_MIB=1) as certify's limit: skipped checks naming --max-body-mib, exit 3, no failure", async () => {
    const { code, out, report } = await certifyB([], { CUSTODY_MAX_BODY_MIB: "1" });
    expect(report.summary.must.failed).toBe(0);
    const limited = report.checks.filter((c) => c.skip_kind === "limit");
    expect(limited.map((c) => c.id)).toContain("envelope.seed-withdrawal-list");
    for (const c of limited)
      expect(c.message, c.id).toMatch(/larger than certify's response body limit .*--max-body-mib/);
    expect(report.summary.verdict).toBe("incomplete");
    expect(code).toBe(3);
    expect(out).toMatch(/pass --max-body-mib to run/);
  });

  it.concurrent.each(SEED_ONLY_B_FAULT_CHECKS)("%s is caught by %s (%s)", async (fault, checkId, statement) => {
    const check = CATALOG.find((c) => c.id === checkId)!;
    expect(check.severity).toBe("MUST");
    expect(check.level).toBe("seed");
    expect(check.statements).toContain(statement);
    const report = await certifyOneCheck(fault, checkId);
    const result = report.checks.find((c) => c.id === checkId);
    expect(result?.status, `${checkId} with ${fault}: ${result?.message}`).toBe("failed");
    expect(result?.failure_kind).toBe("violation");
    expect(report.summary.verdict).toBe("failed");
  });
});
