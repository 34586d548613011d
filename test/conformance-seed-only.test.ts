// A second, independent deployment written from the seed alone (test/support/seed-only-target.ts),
// making other valid choices wherever the seed is silent, certifies at --level seed; each fault that
// breaks a seed statement is caught by the check that enforces that statement.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "../cli/certify.ts";
import { CATALOG } from "../conformance/checks/catalog.ts";
import type { Report } from "../conformance/report/model.ts";
import { loadGeneratedOperations } from "../conformance/run/operations.ts";
import { freePort } from "./support/free-port.ts";
import { seedLevelFlags } from "./support/seed-only-flags.ts";
import {
  SEED_ONLY_FAULT_CHECKS,
  SEED_ONLY_SHOULD_FAULT_CHECKS,
  type SeedOnlyFault,
  type SeedOnlyOptions,
  type SeedOnlyProfile,
  startSeedOnlyTarget,
} from "./support/seed-only-target.ts";

/** The seed-level deposit checks, skipped without --faucet-private-key and then SHOULDs. */
const SEED_DEPOSIT_SKIPS = [
  "lifecycle.seed-deposit-confirmation SHOULD --faucet-private-key",
  "lifecycle.seed-deposit-no-approval SHOULD --faucet-private-key",
];

const dir = mkdtempSync(join(tmpdir(), "custody-seed-only-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function certifySeedOnly(
  faults: SeedOnlyFault[] = [],
  extra: string[] = [],
  profile: SeedOnlyProfile = "standard-webhooks",
  options: SeedOnlyOptions = {},
): Promise<{ code: number; out: string; report: Report }> {
  const port = await freePort();
  // The deployment's webhook was registered by hand to a path of its own choosing under the receiver URL.
  const receiverUrl = `http://127.0.0.1:${port}`;
  const t = await startSeedOnlyTarget(`${receiverUrl}/incoming/custody`, faults, profile, options);
  const json = join(dir, `${faults.join("+") || "clean"}-${port}.json`);
  let out = "";
  try {
    const code = await run([...seedLevelFlags(t, port, 8000), "--json", json, ...extra], {
      env: {},
      operations: await loadGeneratedOperations(),
      stdout: (s) => (out += s),
      stderr: (s) => (out += s),
    });
    if (code === 2) throw new Error(`the run stopped: ${out}`);
    return { code, out, report: JSON.parse(readFileSync(json, "utf8")) as Report };
  } finally {
    await t.close();
  }
}

// Each test certifies a deployment of its own, and mostly waits (on paced events, watches, retries): they run side by side.
describe.concurrent("an independent seed-only deployment", () => {
  it("certifies at --level seed: every MUST check runs and passes, its own choices are no failure", async () => {
    const { code, out, report } = await certifySeedOnly();
    const mustFailures = report.checks
      .filter((c) => c.status === "failed" && c.severity === "MUST")
      .map((c) => `${c.id}: ${c.message}`);
    expect(mustFailures).toEqual([]);
    // Only the deposit checks do not run: A has no chain-backed balance and the run no --faucet-private-key,
    // without which they are SHOULDs (test/conformance-seed-deposits.test.ts proves them).
    const skipped = report.checks.filter((c) => c.status === "skipped");
    expect(skipped.map((c) => `${c.id} ${c.severity} ${c.needs}`)).toEqual(SEED_DEPOSIT_SKIPS);
    expect(report.summary.verdict).toBe("certified");
    expect(code).toBe(0);
    expect(out).toMatch(/CERTIFIED at level seed/);
    expect(report.summary.webhook_profile).toBe("standard-webhooks");
    // Reads A does not offer are not judged with the other workspace's key (the owner's key gets 404
    // on them too), and the report says so instead of failing the deployment.
    const cells = report.checks.find((c) => c.id === "isolation.reads-refused")?.skipped_cells ?? [];
    expect(cells.map((c) => c.cell)).toContain("getDepositAddress");
    for (const c of cells) expect(c.reason).toMatch(/owner's key gets HTTP 404 on the same request|on the seed's form/);
    expect(report.summary.skipped_cells).toBeGreaterThan(0);
    expect(report.checks.find((c) => c.id === "webhooks.delete-stops-delivery")?.facts?.watched).toMatch(
      /^\d+ ms after the delete/,
    );
    // Its choices beyond the seed (no batches, a 403 for the node without a key, no x-request-id ...)
    // are judged at full level only: at seed level no check fails, SHOULDs included.
    expect(report.checks.filter((c) => c.status === "failed").map((c) => `${c.id}: ${c.message}`)).toEqual([]);
  });

  it("passes every webhooks check at --level seed with the real service's profile (canonical JSON, hex) too", async () => {
    const { code, report } = await certifySeedOnly([], ["--only", "webhooks"], "canonical-json");
    expect(report.checks.filter((c) => c.status !== "passed").map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(report.summary.webhook_profile).toBe("canonical-json");
    expect(code).toBe(3); // --only: every webhooks check passed, but the run is not a certification
  });

  it("passes every webhooks check with a signature scheme of its own and its key in SPKI DER form (the seed fixes neither)", async () => {
    const { report } = await certifySeedOnly([], ["--only", "webhooks"], "own-scheme", { keyFormat: "spki" });
    expect(report.checks.filter((c) => c.status !== "passed").map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(report.checks.find((c) => c.id === "webhooks.delivery-signature")?.profile).toBe(
      'Ed25519 over "{t}.{body}", t from x-deployment-signature "t", signature in x-deployment-signature "ed25519"',
    );
  });

  it("is not failed when the delivery it was given belongs to another webhook than the one deleted: that half is skipped, naming the ids", async () => {
    const { code, report } = await certifySeedOnly([], ["--only", "webhooks"], "standard-webhooks", {
      deliveryOfSecondWebhook: true,
    });
    expect(report.checks.filter((c) => c.status === "failed").map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    const deleted = report.checks.find((c) => c.id === "webhooks.delete-stops-delivery");
    expect(deleted?.status).toBe("skipped");
    expect(deleted?.message).toMatch(
      /^--delivery-id \d+ is a delivery of webhook \d+ \(operation 6's answer\), not of the deleted --webhook-id \d+/,
    );
    expect(code).toBe(3);
  });

  it("is not failed when its deliveries slow down after the first requeue (a machine that got busy): the in-flight grace follows the lag at the delete", async () => {
    // 4.5 s a delivery from the first requeue on: with the pace of 2.5 s, an event made in the 2.5 s
    // before the delete always lands more than 2 s after it (the grace the first requeue's lag gave).
    const { report } = await certifySeedOnly([], ["--only", "webhooks", "--timeout-ms", "12000"], "standard-webhooks", {
      slowDownAfterFirstRequeueMs: 4_500,
    });
    const deleted = report.checks.find((c) => c.id === "webhooks.delete-stops-delivery");
    expect(deleted?.status, deleted?.message ?? undefined).toBe("passed");
    expect(deleted?.facts?.watched).toMatch(
      /^\d+ ms after the delete: 6000 ms for a delivery in flight \(the slower requeue took (4[5-9]\d\d|[5-9]\d{3}) ms;/,
    );
    expect(report.checks.filter((c) => c.status === "failed").map((c) => `${c.id}: ${c.message}`)).toEqual([]);
  });

  it("does not certify a scheme of its own signed with another key than operation 8's: incomplete, saying what it tried", async () => {
    const { code, report } = await certifySeedOnly(["signed-other-key"], ["--only", "webhooks"], "own-scheme");
    const signature = report.checks.find((c) => c.id === "webhooks.delivery-signature");
    expect(signature?.status).toBe("skipped");
    expect(signature?.message).toContain(
      "the 64-byte signature in x-deployment-signature verifies with the published key over none of",
    );
    expect(report.summary.certified).toBe(false);
    expect(code).toBe(3);
  });

  it.each(SEED_ONLY_FAULT_CHECKS)("%s is caught by %s", async (fault, checkId) => {
    const group = checkId.split(".")[0];
    const { code, report } = await certifySeedOnly([fault], ["--only", group]);
    const check = report.checks.find((c) => c.id === checkId);
    expect(check?.status, `${checkId}: ${check?.message}`).toBe("failed");
    expect(CATALOG.find((c) => c.id === checkId)?.severity).toBe("MUST");
    expect(code).toBe(1);
  });

  it.each(SEED_ONLY_SHOULD_FAULT_CHECKS)(
    "%s is caught by %s (a SHOULD at seed level: the run certifies, the check fails)",
    async (fault, checkId) => {
      const { code, report } = await certifySeedOnly([fault], ["--only", checkId.split(".")[0]]);
      const check = report.checks.find((c) => c.id === checkId);
      expect(check?.status, `${checkId}: ${check?.message}`).toBe("failed");
      expect(CATALOG.find((c) => c.id === checkId)?.severity).toBe("SHOULD");
      expect(report.summary.must.failed).toBe(0);
      expect(code).toBe(3); // --only
    },
  );
});
