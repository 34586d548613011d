// The checks against a hand-written fake deployment: the clean fake certifies, and each fault
// switch (one broken rule) makes the check for that rule fail. The fault-injection suite against
// the reference deployment builds on the same idea.
import { afterEach, describe, expect, it } from "vitest";
import { CATALOG } from "../conformance/checks/catalog.ts";
import { chainsChecks } from "../conformance/checks/chains/index.ts";
import type { Group } from "../conformance/checks/types.ts";
import type { Report } from "../conformance/report/model.ts";
import type { RunOptions } from "../conformance/run/config.ts";
import { runSuite } from "../conformance/run/runner.ts";
import { signRequest } from "../runtime/http/hmac.ts";
import { DEEP_CHECK_IDS } from "./support/deep-checks.ts";
import { type FakeFault, type FakeTarget, fakeTargetConfig, startFakeTarget } from "./support/fake-target.ts";
import { freePort } from "./support/free-port.ts";
import { SEED_CHAIN_FAULT_CHECKS } from "./support/seed-only-chain-target.ts";
import { SEED_ONLY_FAULT_CHECKS, SEED_ONLY_SHOULD_FAULT_CHECKS } from "./support/seed-only-target.ts";
import { SEED_ONLY_B_FAULT_CHECKS } from "./support/seed-only-target-b.ts";

const started: FakeTarget[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((t) => t.close()));
});

async function fake(faults: FakeFault[] = []): Promise<FakeTarget> {
  const t = await startFakeTarget({ faults });
  started.push(t);
  return t;
}

// webhooks.endpoint-isolation waits for events through 14 bad receivers; a fault that hides events
// (a missing type, say) makes it wait out its whole limit, so the fault table leaves it out except
// for its own row.
const SLOW_UNRELATED = new Set(["webhooks.endpoint-isolation"]);

// Runs that must pass get an outer bound only (a loaded machine is slow, not failing); a fault row's check
// may have to wait out its limit before it fails, so the fault table keeps a short one.
const PASSING_RUN_LIMIT_MS = 60_000;
const SHORT_LIMIT_MS = 6_000;

async function certify(
  t: FakeTarget,
  options: Partial<RunOptions> = {},
  over: Parameters<typeof fakeTargetConfig>[1] = {},
  keep?: string,
  ids?: string[],
): Promise<Report> {
  const result = await runSuite({
    target: fakeTargetConfig(t, over),
    options: { level: "full", timeoutMs: PASSING_RUN_LIMIT_MS, concurrency: 8, ...options },
    operations: t.operations,
    catalog: CATALOG.filter(
      (c) =>
        !DEEP_CHECK_IDS.has(c.id) &&
        (keep === undefined || c.id === keep || !SLOW_UNRELATED.has(c.id)) &&
        (ids === undefined || ids.includes(c.id)),
    ),
  });
  if (result.kind !== "completed") throw new Error(`run did not complete: ${result.failure.lines.join(" ")}`);
  return result.report;
}

const failedIds = (r: Report) => r.checks.filter((c) => c.status === "failed").map((c) => `${c.id}: ${c.message}`);

describe("a clean fake deployment", () => {
  it("passes every check at level full except those needing a chain, and so is not certified (incomplete)", async () => {
    const report = await certify(await fake());
    expect(failedIds(report)).toEqual([]);
    expect(report.summary.verdict).toBe("incomplete");
    expect(report.summary.certified).toBe(false);
    const skipped = report.checks.filter((c) => c.status === "skipped");
    // Only deposits and withdrawals need a chain (a funded EVM key, a Solana RPC), which the fake has none of.
    for (const c of skipped) expect(["--faucet-private-key", "--solana-rpc-url"]).toContain(c.needs);
    expect(report.summary.skip_needs.map((n) => n.needs).sort()).toEqual(["--faucet-private-key", "--solana-rpc-url"]);
    expect(report.summary.must.skipped).toBe(skipped.filter((c) => c.severity === "MUST").length);
    expect(report.summary.webhook_profile).toBe("standard-webhooks");
    expect(report.checks.find((c) => c.id === "webhooks.delivery-signature")?.profile).toBe("standard-webhooks");
  });

  it("certifies at level seed with fixture ids, skipping what needs the assumed operations", async () => {
    const t = await fake();
    const report = await certify(
      t,
      { level: "seed" },
      {
        fixtureIds: { walletId: t.walletId, assetId: t.assetId, withdrawalId: t.withdrawalId },
        viewer: t.viewer,
        scoped: t.scoped,
      },
    );
    expect(failedIds(report)).toEqual([]);
    // Full-level checks are out of scope at seed level: not run, not counted.
    expect(report.checks.filter((c) => CATALOG.find((k) => k.id === c.id)?.level === "full")).toEqual([]);
    // The webhook checks need a receiver and a delivery: the run says which flags would let them run.
    expect(report.summary.verdict).toBe("incomplete");
    expect(report.summary.skip_needs.map((n) => n.needs).join(" ")).toMatch(/--delivery-id|--webhook-receiver-url/);
    expect(report.checks.find((c) => c.id === "scope.balances-read-only")?.status).toBe("passed");
  });

  it("passes the tenant isolation checks whether another workspace is refused with 404 or with 403", async () => {
    for (const faults of [[], ["other-workspace-403"]] as FakeFault[][]) {
      const report = await certify(await fake(faults), { only: ["isolation"] });
      expect(report.checks.map((c) => `${c.id} ${c.status} ${c.message ?? ""}`.trim())).toEqual([
        "isolation.reads-refused passed",
        "isolation.writes-refused passed",
        "isolation.lists-exclude-other passed",
      ]);
    }
  });

  it("without a second workspace's key, skips the isolation checks and says which flags run them", async () => {
    const report = await certify(await fake(), { only: ["isolation"] }, { other: undefined });
    expect(report.checks.every((c) => c.status === "skipped" && c.needs === "--other-api-key/--other-api-secret")).toBe(
      true,
    );
    expect(report.summary.skip_needs).toEqual([
      {
        needs: "--other-api-key/--other-api-secret",
        must: ["isolation.reads-refused", "isolation.writes-refused", "isolation.lists-exclude-other"],
        should: [],
      },
    ]);
  });

  it("skips (never passes) a check whose prerequisite is missing, naming the reason", async () => {
    const t = await fake();
    const report = await certify(t, { level: "seed", only: ["scope", "role"] });
    const balances = report.checks.find((c) => c.id === "scope.balances-read-only")!;
    expect(balances.status).toBe("skipped");
    expect(balances.message).toMatch(/--scoped-api-key|--wallet-id/);
  });

  it("verifies real deliveries at seed level through --webhook-receiver-url", async () => {
    const t = await fake();
    const port = await freePort();
    const hook = await signedFetch(t, "POST", `/api/v1/workspaces/${t.workspaceId}/webhooks`, {
      url: `http://127.0.0.1:${port}/hooks/seed`,
      event_types: ["wallet.created"],
    });
    await signedFetch(t, "POST", "/api/v1/wallets", { name: "seed-delivery" });
    let deliveryId: string | undefined;
    for (let i = 0; i < 50 && !deliveryId; i++) {
      const list = (await signedFetch(t, "GET", `/api/v1/workspaces/${t.workspaceId}/webhook-logs`)) as Array<{
        id: string;
      }>;
      deliveryId = list[0]?.id;
      if (!deliveryId) await new Promise((r) => setTimeout(r, 50));
    }
    // One event before the delete gives no interval to pace the deletion watch by, so it watches the whole
    // per-check limit: a short one here.
    const report = await certify(
      t,
      { level: "seed", only: ["webhooks"], timeoutMs: SHORT_LIMIT_MS },
      {
        webhookReceiverUrl: `http://127.0.0.1:${port}`,
        fixtureIds: { webhookId: (hook as { id: string }).id, deliveryId },
      },
    );
    const status = Object.fromEntries(report.checks.map((c) => [c.id, c.status]));
    expect(failedIds(report)).toEqual([]);
    for (const id of [
      "webhooks.verification-key",
      "webhooks.delivery-signature",
      "webhooks.tampered-body-rejected",
      "webhooks.resend-same-event",
      "webhooks.delete-stops-delivery",
    ]) {
      expect(status[id], id).toBe("passed");
    }
  });
});

describe("webhook deletion", () => {
  it("is no leak when a delivery already on its way lands after deleteWebhook returned (a correct deployment's race)", async () => {
    const report = await certify(await fake(["in-flight-at-delete"]), { only: ["webhooks"] });
    const check = report.checks.find((c) => c.id === "webhooks.delete-stops-delivery")!;
    expect(`${check.status} ${check.message ?? ""}`.trim()).toBe("passed");
  });
});

describe("webhook signature profiles", () => {
  it("reports canonical-json when the deployment signs that way, and fails when another profile is required", async () => {
    const t = await startFakeTarget({ profile: "canonical-json" });
    started.push(t);
    const report = await certify(t, { only: ["webhooks"] });
    expect(failedIds(report)).toEqual([]);
    expect(report.summary.webhook_profile).toBe("canonical-json");
    const strict = await certify(t, { only: ["webhooks"] }, { webhookProfile: "standard-webhooks" });
    const signature = strict.checks.find((c) => c.id === "webhooks.delivery-signature")!;
    expect(signature.status).toBe("failed");
    expect(signature.message).toContain("required by --webhook-profile");
  });
});

/** Each fault breaks one rule; the check named next to it must fail (others may fail too). */
const FAULTS: Array<[FakeFault, string]> = [
  ["accept-no-credentials", "auth.no-credentials"],
  ["default-key-when-missing", "auth.missing-access-api-key"],
  ["timestamp-optional", "auth.missing-access-timestamp"],
  ["accept-missing-sign", "auth.missing-access-sign"],
  ["accept-empty-key", "auth.empty-headers"],
  ["accept-unknown-key", "auth.unknown-key"],
  ["skip-signature-check", "auth.wrong-secret"],
  ["ignore-method-in-signature", "auth.signed-other-method"],
  ["ignore-path-in-signature", "auth.signed-other-path"],
  ["cached-signature", "auth.signed-other-route"],
  ["skip-signature-check", "auth.signed-other-body"],
  ["signature-over-other-timestamp", "auth.signed-other-timestamp"],
  ["ignore-body-in-signature", "auth.body-tampered"],
  ["parsed-body-signature", "auth.body-tampered"],
  ["accept-stale-timestamp", "auth.stale-timestamp"],
  ["accept-stale-timestamp", "auth.timestamp-a-day-off"],
  ["accept-future-timestamp", "auth.future-timestamp"],
  ["accept-future-timestamp", "auth.timestamp-a-day-off"],
  ["accept-milliseconds", "auth.timestamp-milliseconds"],
  ["lenient-timestamp-parse", "auth.timestamp-decimal-digits"],
  ["accept-raw-hex-signature", "auth.signature-not-base64"],
  ["case-insensitive-signature", "auth.uppercase-hex"],
  ["accept-raw-digest-signature", "auth.raw-digest-signature"],
  ["leaky-401", "auth.identical-401"],
  ["pretty-401", "auth.canonical-401-body"],
  ["sign-with-query", "auth.query-not-signed"],
  ["narrow-window", "auth.window-edge"],
  ["success-code-string", "envelope.success-shape"],
  ["error-data-missing", "envelope.error-shape"],
  ["error-as-200", "envelope.success-iff-2xx"],
  ["text-content-type", "envelope.json-content-type"],
  ["schema-balance-number", "envelope.response-schema"],
  ["undeclared-418", "envelope.declared-status"],
  ["unauthorized-wrong-message", "envelope.unauthorized-envelope"],
  ["error-as-200", "envelope.not-found-wallet"],
  ["no-request-id", "envelope.request-id"],
  ["invalid-body-500", "envelope.invalid-request"],
  ["ignore-scopes", "scope.balances-read-only"],
  ["other-workspace-data", "scope.other-workspace-refused"],
  ["other-workspace-403", "scope.other-workspace-not-found"],
  ["created-key-unusable", "scope.api-key-creation"],
  ["tenant-reads-leak", "isolation.reads-refused"],
  ["tenant-401", "isolation.reads-refused"],
  ["other-workspace-data", "isolation.reads-refused"],
  ["tenant-writes-leak", "isolation.writes-refused"],
  ["tenant-lists-leak", "isolation.lists-exclude-other"],
  ["viewer-cannot-read", "role.viewer-can-read"],
  ["ignore-roles", "role.viewer-cannot-withdraw"],
  ["ignore-roles", "role.viewer-cannot-change-settings"],
  ["verification-key-short", "webhooks.verification-key"],
  ["webhook-not-listed", "webhooks.registration"],
  ["webhook-wrong-key", "webhooks.delivery-signature"],
  ["webhook-unsigned-body", "webhooks.delivery-signature"],
  ["event-missing-type", "webhooks.event-shape"],
  ["no-delivery-log", "webhooks.delivery-logged"],
  ["resend-new-event-id", "webhooks.resend-same-event"],
  ["resend-no-delivery", "webhooks.resend-same-event"],
  ["delete-keeps-delivering", "webhooks.delete-stops-delivery"],
  ["delete-status-wrong", "webhooks.delete-stops-delivery"],
  ["shared-delivery-queue", "webhooks.endpoint-isolation"],
  ["creation-skips-pending", "lifecycle.wallet-creation"],
  ["creation-never-completes", "lifecycle.wallet-creation"],
  ["no-wallet-created-event", "lifecycle.wallet-created-event"],
  ["deposit-address-invalid", "lifecycle.deposit-address"],
  ["export-csv-missing", "lifecycle.transactions-export"],
  ["rpc-block-number-decimal", "rpc.http-block-number"],
  ["rpc-jsonrpc-version", "rpc.http-block-number"],
  ["rpc-header-key-ignored", "rpc.http-header-key"],
  ["rpc-block-frozen", "rpc.block-number-advances"],
  ["rpc-block-fields-decimal", "rpc.get-block-latest"],
  ["rpc-block-params-lenient", "rpc.get-block-params-required"],
  ["rpc-id-not-echoed", "rpc.id-echo"],
  ["rpc-id-not-echoed", "rpc.id-echo-string-null"],
  ["rpc-id-not-echoed", "rpc.ws-framing"],
  ["rpc-text-content-type", "rpc.json-content-type"],
  ["rpc-no-auth", "rpc.unauthorized"],
  ["rpc-no-auth", "rpc.unauthorized-body"],
  ["rpc-wrong-401-body", "rpc.unauthorized-body"],
  ["rpc-parse-error-code", "rpc.errors.parse"],
  ["rpc-invalid-request-code", "rpc.errors.invalid-request"],
  ["rpc-method-not-found-code", "rpc.errors.method-not-found"],
  ["rpc-invalid-params-code", "rpc.errors.invalid-params"],
  ["rpc-no-batch", "rpc.batch"],
  ["rpc-notification-answered", "rpc.notification"],
  ["rpc-ws-query-key-ignored", "rpc.ws-query-key"],
  ["rpc-ws-header-ignored", "rpc.ws-header-key"],
  ["rpc-ws-no-auth", "rpc.ws-unauthorized"],
  ["rpc-ws-no-auth", "rpc.ws-unauthorized-401"],
  ["rpc-ws-drop-early", "rpc.ws-immediate-request"],
  ["rpc-ws-notification-answered", "rpc.ws-strict-json-rpc"],
  ["rpc-ws-query-key-ignored", "rpc.substrate-client"],
  ["paging-ignore-limit", "paging.every-list"],
  ["paging-ignore-limit", "paging.page-sizes"],
  ["paging-default-all", "paging.page-sizes"],
  ["paging-repeat-across-pages", "paging.disjoint-complete"],
  ["paging-newest-first", "paging.disjoint-complete"],
  ["paging-large-offset-500", "paging.every-list"],
  ["paging-clamp-limit", "paging.bad-limit"],
];

// paging.disjoint-complete catches a repeat or an order fault only over a list longer than a page,
// which the wallets its group's other checks create make.
const WHOLE_GROUP: ReadonlySet<Group> = new Set(["paging"]);

/**
 * The checks a fault row's run holds: of its group only the check under test (with the fixtures it
 * needs; what the row asserts is that check's outcome, and the clean fake above is the control that the
 * whole catalog passes), and every other group, which --only leaves out, so the run is judged as before.
 */
function rowCatalog(group: Group, checkId: string): string[] | undefined {
  if (WHOLE_GROUP.has(group)) return undefined;
  return CATALOG.filter((c) => c.group !== group || c.id === checkId).map((c) => c.id);
}

describe.concurrent("each fault is detected by the check for its rule", () => {
  it.each(FAULTS)("%s → %s fails", async (fault, checkId) => {
    const t = await startFakeTarget({ faults: [fault] });
    try {
      const group = checkId.split(".")[0] as Group;
      const report = await certify(
        t,
        { only: [group], timeoutMs: SHORT_LIMIT_MS },
        {},
        checkId,
        rowCatalog(group, checkId),
      );
      const check = report.checks.find((c) => c.id === checkId)!;
      expect(check.status, `${checkId} with ${fault}: ${check.message}`).toBe("failed");
      expect(check.message).toBeTruthy();
      // --only never certifies; a MUST failure fails the run (a fault may break a MUST rule besides a SHOULD one).
      expect(report.summary.certified).toBe(false);
      if (check.severity === "MUST") expect(report.summary.verdict).toBe("failed");
    } finally {
      await t.close();
    }
  });
});

describe("fault coverage", () => {
  it("every check that the fake can exercise has at least one fault", () => {
    // Faults of the independent seed-only deployments (test/conformance-seed-only*.test.ts and the
    // chain-backed one of test/conformance-seed-deposits.test.ts) count too.
    const covered = new Set(
      [
        ...FAULTS,
        ...SEED_ONLY_FAULT_CHECKS,
        ...SEED_ONLY_SHOULD_FAULT_CHECKS,
        ...SEED_ONLY_B_FAULT_CHECKS,
        ...SEED_CHAIN_FAULT_CHECKS,
      ].map(([, id]) => id),
    );
    // The chain-driven lifecycle checks need a funded chain; their faults run against the reference.
    const needsChain = new Set([
      "lifecycle.deposit-detected",
      "lifecycle.deposit-confirmation",
      "lifecycle.balance-matches-chain",
      "lifecycle.withdrawal-idempotency",
      "lifecycle.withdrawal-receipt",
      "lifecycle.wallet-to-wallet",
    ]);
    // The verifier-side check: no deployment can make a tampered body verify under either profile.
    const verifierSide = new Set(["webhooks.tampered-body-rejected"]);
    // A target that refuses our valid signature is stopped by the preflight (test/conformance-preflight.test.ts).
    const preflight = new Set(["auth.valid-signature"]);
    // The deep checks' faults are injected in front of the reference (test/conformance-deep.test.ts),
    // and so are the chains checks' (test/conformance-chains.test.ts).
    const chains = new Set(chainsChecks.map((c) => c.id));
    const uncovered = CATALOG.map((c) => c.id).filter(
      (id) =>
        !covered.has(id) &&
        !needsChain.has(id) &&
        !verifierSide.has(id) &&
        !preflight.has(id) &&
        !DEEP_CHECK_IDS.has(id) &&
        !chains.has(id),
    );
    expect(uncovered).toEqual([]);
  });
});

async function signedFetch(t: FakeTarget, method: string, path: string, body?: unknown): Promise<unknown> {
  const raw = body === undefined ? undefined : JSON.stringify(body);
  const headers = signRequest({ apiKey: t.owner.apiKey, apiSecret: t.owner.apiSecret, method, path, body: raw });
  const res = await fetch(`${t.baseUrl}${path}`, {
    method,
    headers: { ...headers, "content-type": "application/json" },
    body: raw,
  });
  return ((await res.json()) as { data: unknown }).data;
}
