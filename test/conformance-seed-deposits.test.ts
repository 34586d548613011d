// The seed-level deposit checks (§3 rules 2 and 3) against deployment C (test/support/seed-only-chain-target.ts),
// written from the seed alone with a chain-backed balance: it certifies them with its own choices (5
// confirmations, balances in wei, its own getDepositAddress payload), and each break of §3 injected into
// it is caught by a MUST check at --level seed with --faucet-private-key. Without the key the checks are
// skipped naming it and hold no verdict back; certify --plan says the same before anything is sent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOG } from "../conformance/checks/catalog.ts";
import type { Report } from "../conformance/report/model.ts";
import { renderPlan } from "../conformance/report/plan-text.ts";
import type { Target } from "../conformance/run/config.ts";
import { loadGeneratedOperations } from "../conformance/run/operations.ts";
import { planRun } from "../conformance/run/plan.ts";
import { runSuite } from "../conformance/run/runner.ts";
import { type EmbeddedChain, startEmbeddedChain } from "../reference/chain/index.ts";
import {
  CONFIRMATIONS,
  SEED_CHAIN_FAULT_CHECKS,
  type SeedChainFault,
  type SeedChainTarget,
  startSeedChainTarget,
} from "./support/seed-only-chain-target.ts";

const DEPOSIT_CHECKS = ["lifecycle.seed-deposit-confirmation", "lifecycle.seed-deposit-no-approval"];
const operations = await loadGeneratedOperations();
/** What each failure says: the break itself, not some other symptom. */
const SAYS: Record<SeedChainFault, RegExp> = {
  "credits-before-confirmations":
    /^operation 1 showed balance 10000000000000000 \(was 0\) with [1-4] of 5 confirmations/,
  "never-credits":
    /^operation 1's balance stayed 0 up to head \d+, 3000 ms past the deposit's 5 confirmations .*never reached it$/,
  "credits-twice":
    /^operation 1's balance went from 0 to 20000000000000000: a rise of 20000000000000000 base units, not the deposit of 0\.01/,
  "holds-for-approval":
    /^certify approved nothing, .* still not in operation 1's balance \(0\); on_hold rose by it \(0 → 10000000000000000\)/,
};
let chain: EmbeddedChain;
/** One funded key per run, so runs side by side never draw the same nonce. */
let nextKey = 0;
const keys: string[] = [];

beforeAll(async () => {
  // Fast blocks, so 5 confirmations take a second and a half.
  chain = await startEmbeddedChain({ blockTimeSeconds: 0.3 });
  for (let i = 1; i <= 8; i++) {
    const key = `0x${String(i).padStart(2, "0").repeat(32)}`;
    const { privateKeyToAddress } = await import("viem/accounts");
    await chain.request({
      method: "anvil_setBalance",
      params: [privateKeyToAddress(key as `0x${string}`), `0x${(10n ** 20n).toString(16)}`],
    });
    keys.push(key);
  }
});
afterAll(async () => {
  await chain?.close();
});

function targetOf(t: SeedChainTarget, faucet: boolean): Target {
  return {
    baseUrl: t.baseUrl,
    rpcUrl: t.rpcUrl,
    wsUrl: `${t.rpcUrl.replace(/^http/, "ws")}/ws`,
    admin: t.owner,
    rpcApiKey: t.rpcApiKey,
    fixtureIds: { walletId: t.walletId, assetId: t.assetId },
    ...(faucet ? { faucetPrivateKey: keys[nextKey++] } : {}),
  };
}

/** The deposit checks of --level seed (--only lifecycle) against C with these faults. */
async function certifyDeposits(faults: SeedChainFault[], faucet = true): Promise<Report> {
  const t = await startSeedChainTarget(chain.url, faults);
  try {
    const result = await runSuite({
      target: targetOf(t, faucet),
      options: { level: "seed", timeoutMs: 3_000, concurrency: 2, only: ["lifecycle"] },
      operations,
    });
    if (result.kind !== "completed")
      throw new Error(`the preflight stopped the run: ${result.failure.lines.join(" ")}`);
    return result.report;
  } finally {
    await t.close();
  }
}

describe("deposits at --level seed, against deployment C (chain-backed, written from the seed alone)", () => {
  it("certifies its deposit with its own choices: 5 confirmations, balances in wei, its own address payload", async () => {
    const report = await certifyDeposits([]);
    expect(report.checks.map((c) => c.id).sort()).toEqual(DEPOSIT_CHECKS);
    expect(report.checks.map((c) => `${c.id} ${c.severity} ${c.status}: ${c.message ?? ""}`)).toEqual(
      DEPOSIT_CHECKS.map((id) => `${id} MUST passed: `),
    );
    const facts = report.checks[0].facts ?? {};
    expect(facts.confirmations).toBe(`${CONFIRMATIONS} (network.confirmation_blocks of operation 1's answer)`);
    expect(facts.unit).toBe("base units (wei)");
    expect(facts.deposit).toMatch(/^0\.01 to 0x[0-9a-f]{40} \(getDepositAddress, the path alone\)/);
  });

  it.concurrent.each(SEED_CHAIN_FAULT_CHECKS)("%s is caught by %s (%s)", async (fault, checkId, statement) => {
    const check = CATALOG.find((c) => c.id === checkId)!;
    expect([check.level, check.severity]).toEqual(["seed", "MUST"]);
    expect(check.statements).toContain(statement);
    const report = await certifyDeposits([fault]);
    const result = report.checks.find((c) => c.id === checkId);
    expect(result?.status, `${checkId} with ${fault}: ${result?.message}`).toBe("failed");
    expect(result?.message).toMatch(SAYS[fault]);
    expect(result?.severity).toBe("MUST");
    expect(result?.failure_kind).toBe("violation");
    expect(report.summary.verdict).toBe("failed");
  });

  it("without --faucet-private-key skips them naming the flag, as SHOULDs that hold no verdict back; --plan says which flag enables them", async () => {
    const report = await certifyDeposits([], false);
    for (const c of report.checks) {
      expect([c.id, c.status, c.severity, c.needs]).toEqual([c.id, "skipped", "SHOULD", "--faucet-private-key"]);
      expect(c.message).toMatch(
        /pass --faucet-private-key \(a MUST at --level seed only when --faucet-private-key is given\)$/,
      );
    }
    expect(report.summary.must.skipped).toBe(0);
    const t = {
      baseUrl: "http://x",
      rpcUrl: "http://y",
      wsUrl: "ws://y",
      admin: { apiKey: "k", apiSecret: "s" },
      rpcApiKey: "r",
    };
    const without = planRun(
      CATALOG,
      { ...t, fixtureIds: { walletId: "w", assetId: "a" } },
      { level: "seed", timeoutMs: 1, concurrency: 1 },
    );
    const need = without.needs.find((n) => n.needs === "--faucet-private-key");
    expect(need).toEqual({ needs: "--faucet-private-key", prerequisite: "faucet", must: [], should: DEPOSIT_CHECKS });
    expect(renderPlan(without, [], () => undefined)).toContain(
      "--faucet-private-key: 2 checks (2 SHOULD here, MUST once given)",
    );
    const withKey = planRun(
      CATALOG,
      { ...t, fixtureIds: { walletId: "w", assetId: "a" }, faucetPrivateKey: keys[0] },
      { level: "seed", timeoutMs: 1, concurrency: 1 },
    );
    expect(withKey.checks.filter((c) => DEPOSIT_CHECKS.includes(c.id))).toEqual(
      DEPOSIT_CHECKS.map((id) => ({ id, group: "lifecycle", severity: "MUST", runs: true })),
    );
    expect(withKey.must.in_scope).toBe(without.must.in_scope + 2);
  });
});
