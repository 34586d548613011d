// What the seed itself fixes about the payloads of operations 1-5 and 8 (sections 2.2-2.6, 2.9 and
// 4), checked at --level seed by the one walker of the seed's tables (seed-walk.ts), at every depth:
// required fields, integers and strings, nested Asset and Network, array items. Ids, enums and extra
// fields are the deployment's choice (the generated schemas, which carry our assumed choices, are
// checked at --level full by envelope.response-schema). Operations 6 and 7 are checked by the
// webhooks checks that drive them.
import { randomUUID } from "node:crypto";
import type { CheckContext } from "../../run/context.ts";
import type { HttpExchange } from "../../transport/probe.ts";
import type { Check } from "../check.ts";
import { expectEnvelope, failWith } from "../expect.ts";
import { skip } from "../outcome.ts";
import { identityProblem } from "../record-identity.ts";
import type { SeedTableName } from "../seed-tables.ts";
import { seedListProblems, seedProblems } from "../seed-walk.ts";
import { assetIdOf } from "../units.ts";

function successData(ex: HttpExchange, what: string): unknown {
  const env = expectEnvelope(ex);
  if (ex.response.status !== 200 || env.success !== true)
    failWith(ex, `${what}: expected the HTTP 200 success envelope, got HTTP ${ex.response.status}`);
  return env.data;
}

/** Fails naming the first problems (and how many there are) when the walker found any. */
function failOnProblems(ex: HttpExchange, what: string, problems: string[]): void {
  if (problems.length === 0) return;
  const more = problems.length > 3 ? ` (and ${problems.length - 3} more)` : "";
  failWith(ex, `${what}: ${problems.slice(0, 3).join("; ")}${more}`, { problems: problems.slice(0, 20) });
}

/** Seed 2.2 and 4 (operations 1 and 2): balance reads are WalletBalance records of the seed's types. */
export const balanceShapes: Check = {
  id: "envelope.seed-balance-fields",
  group: "envelope",
  title:
    "Balance reads (operations 1 and 2) are WalletBalance records of the wallet asked for, at every depth (nested Asset and Network, their required ids, integer chain_id)",
  severity: "MUST",
  seedRef: "§2.2; §2.3; §2.4; §4 operations 1-2",
  level: "seed",
  statements: [
    "s2.2.wallet-balance",
    "s2.2.wallet-balance-refreshed-at",
    "s2.3.asset",
    "s2.4.network",
    "s4.op1-wallet-overview",
    "s4.op2-wallet-asset-balance",
  ],
  requires: ["asset"],
  sends: "getWalletOverview and getWalletAssetBalance of the run's wallet and asset, signed",
  async run(ctx) {
    const asset = await ctx.need("asset");
    const overviewEx = await ctx.call("getWalletOverview", { params: { wallet_id: asset.walletId } });
    const overview = successData(overviewEx, "the overview");
    if (!Array.isArray(overview))
      failWith(overviewEx, "the overview's data is not an array of WalletBalance (seed 4, operation 1)");
    failOnProblems(overviewEx, "the overview", seedListProblems(overview, "WalletBalance"));
    const foreign = overview.map((item) => identityProblem(item, { [asset.walletId]: "wallet_id" })).find(Boolean);
    if (foreign)
      failWith(overviewEx, `the overview of wallet ${asset.walletId} lists another wallet's balance: ${foreign}`);
    const balanceEx = await ctx.call("getWalletAssetBalance", {
      params: { wallet_id: asset.walletId, asset_id: asset.assetId },
    });
    const balance = successData(balanceEx, "the asset balance");
    failOnProblems(balanceEx, "the asset balance", seedProblems(balance, "WalletBalance"));
    const other = identityProblem(balance, { [asset.walletId]: "wallet_id", [asset.assetId]: "asset_id" });
    if (other) failWith(balanceEx, `the asset balance is another record's: ${other}`);
  },
};

/** Seed 1 (an overview covers all assets of the wallet) and 2.2: an attached asset appears in it. */
export const overviewListsAsset: Check = {
  id: "envelope.overview-lists-asset",
  group: "envelope",
  title: "The overview of a wallet lists its attached asset",
  severity: "MUST",
  seedRef: "§1 (overview of all assets); §2.2",
  level: "seed",
  statements: ["s1.balances-per-wallet-and-asset", "s4.op1-wallet-overview"],
  requires: ["asset"],
  sends: "getWalletOverview of the wallet the asset is attached to, signed",
  async run(ctx) {
    const asset = await ctx.need("asset");
    const ex = await ctx.call("getWalletOverview", { params: { wallet_id: asset.walletId } });
    const data = successData(ex, "the overview");
    if (!Array.isArray(data) || data.length === 0)
      failWith(ex, `the overview of wallet ${asset.walletId} is empty although asset ${asset.assetId} is attached`);
    // A record that names no asset at all cannot be matched; only a list naming other assets is a break.
    const named = data.filter((item) => assetIdOf(item) !== undefined);
    if (named.length > 0 && !data.some((item) => assetIdOf(item) === asset.assetId))
      failWith(ex, `the overview of wallet ${asset.walletId} does not list asset ${asset.assetId}`);
  },
};

/** Seed 4 and 7: a read answers the record or an error envelope; never a success without the record. */
export const unknownRecords: Check = {
  id: "envelope.unknown-record",
  group: "envelope",
  title: "An unknown withdrawal or creation status is an error envelope, never a success with null data",
  severity: "MUST",
  seedRef: "§4 operations 3 and 5 (success data: one record; two error envelopes); §7",
  level: "seed",
  statements: [
    "s4.op3-get-withdrawal",
    "s4.op5-wallet-creation-status",
    "s7.every-error-shape",
    "s4.two-errors-ops-3-5-6-7",
  ],
  sends: "getWithdrawal and getWalletCreationStatus with ids nobody has, signed",
  async run(ctx) {
    for (const [operationId, params, what] of [
      ["getWithdrawal", { withdrawal_id: `certify-unknown-${randomUUID()}` }, "an unknown withdrawal"],
      [
        "getWalletCreationStatus",
        { wallet_id: `certify-unknown-${randomUUID()}` },
        "the creation status of an unknown wallet",
      ],
    ] as const) {
      const ex = await ctx.call(operationId, { params });
      const env = expectEnvelope(ex);
      const ok = ex.response.status >= 200 && ex.response.status < 300;
      if (
        ok &&
        env.success === true &&
        (env.data === null || typeof env.data !== "object" || Array.isArray(env.data))
      ) {
        failWith(
          ex,
          `${what}: HTTP ${ex.response.status} success with data ${JSON.stringify(env.data)} (a success carries the record; a miss is an error envelope)`,
        );
      }
      if (!ok && (env.success !== false || env.data !== null))
        failWith(ex, `${what}: HTTP ${ex.response.status} without the error envelope (success false, data null)`);
    }
  },
};

/** Seed 2.5-2.9 on the records the run can read (--withdrawal-id, the verification key). */
export const recordShapes: Check = {
  id: "envelope.seed-record-fields",
  skipsWithout: [["wallet", "withdrawal", "workspace"]],
  group: "envelope",
  title:
    "Withdrawal, creation status and verification key reads have the seed's field types and are the record asked for",
  severity: "MUST",
  seedRef: "§2.5; §2.6; §2.9; §4 operations 3, 5, 8",
  level: "seed",
  statements: [
    "s2.5.withdrawal",
    "s2.6.wallet-creation-status",
    "s2.9.webhook-verification-key",
    "s4.op3-get-withdrawal",
    "s4.op5-wallet-creation-status",
    "s4.op8-webhook-verification-key",
  ],
  // A withdrawal is read when one is given or already made; creating one drives a deposit first (slow).
  awaits: ["wallet", "workspace"],
  sends: "getWithdrawal, getWalletCreationStatus and getWebhookVerificationKey of known records, signed",
  async run(ctx: CheckContext) {
    const reads: Array<[string, Record<string, string>, SeedTableName, Record<string, string | string[]>]> = [];
    const f = ctx.suite.fixtures;
    const wallet = f.peek("wallet");
    const withdrawal = ctx.config.fixtureIds.withdrawalId ?? f.peek("withdrawal");
    const workspace = f.peek("workspace") ?? ctx.config.workspaceId;
    if (withdrawal)
      reads.push([
        "getWithdrawal",
        { withdrawal_id: withdrawal },
        "Withdrawal",
        { [withdrawal]: ["id", "withdrawal_id"] },
      ]);
    if (wallet)
      reads.push([
        "getWalletCreationStatus",
        { wallet_id: wallet.walletId },
        "WalletCreationStatus",
        { [wallet.walletId]: "wallet_id" },
      ]);
    if (workspace) reads.push(["getWebhookVerificationKey", { workspace_id: workspace }, "WebhookVerificationKey", {}]);
    if (reads.length === 0)
      skip(
        "no record to read: pass --wallet-id, --withdrawal-id or --workspace-id",
        "--wallet-id, --withdrawal-id or --workspace-id",
      );
    for (const [operationId, params, table, identity] of reads) {
      const ex = await ctx.call(operationId, { params });
      const data = successData(ex, operationId);
      failOnProblems(ex, operationId, seedProblems(data, table));
      const other = identityProblem(data, identity);
      if (other) failWith(ex, `${operationId} answered another record: ${other}`);
    }
  },
};

/** Seed 2.5 and 4 (operation 4): the withdrawals of a wallet are an array of its Withdrawals. */
export const withdrawalList: Check = {
  id: "envelope.seed-withdrawal-list",
  group: "envelope",
  title:
    "Operation 4 answers an array of Withdrawals (seed types at every depth), each of the wallet in the path; the first, read by operation 3, is the same withdrawal",
  severity: "MUST",
  seedRef: "§2.5; §4 operation 4 (data: array of Withdrawal); §4 operation 3 (one Withdrawal)",
  level: "seed",
  statements: ["s2.5.withdrawal", "s4.op4-list-wallet-withdrawals", "s4.op3-get-withdrawal"],
  requires: ["wallet"],
  sends: "listWalletWithdrawals of the run's wallet, then getWithdrawal of its first item, signed",
  async run(ctx) {
    const wallet = await ctx.need("wallet");
    const ex = await ctx.call("listWalletWithdrawals", { params: { wallet_id: wallet.walletId } });
    const list = successData(ex, "the withdrawals of the wallet");
    failOnProblems(ex, `the withdrawals of wallet ${wallet.walletId}`, seedListProblems(list, "Withdrawal"));
    const items = list as unknown[];
    const foreign = items
      .map((item, i) => [i, identityProblem(item, { [wallet.walletId]: "wallet_id" })] as const)
      .find(([, p]) => p);
    if (foreign)
      failWith(
        ex,
        `the withdrawals of wallet ${wallet.walletId} list another wallet's: data[${foreign[0]}].${foreign[1]}`,
      );
    ctx.fact("withdrawals", `${items.length} listed`);
    await expectSameWithdrawal(ctx, items[0] as Record<string, unknown> | undefined);
  },
};

/** The first listed withdrawal, read by its id with operation 3, is that withdrawal: op 3 is checked even without --withdrawal-id. */
async function expectSameWithdrawal(ctx: CheckContext, listed: Record<string, unknown> | undefined): Promise<void> {
  // The path parameter is named withdrawal_id: that field first, when the record has it.
  const id = [listed?.withdrawal_id, listed?.id].find((v): v is string => typeof v === "string" && v !== "");
  if (!id) return;
  const ex = await ctx.call("getWithdrawal", { params: { withdrawal_id: id } });
  const one = successData(ex, `getWithdrawal of listed withdrawal ${id}`);
  failOnProblems(ex, `getWithdrawal ${id}`, seedProblems(one, "Withdrawal"));
  const other = identityProblem(one, {
    [id]: ["id", "withdrawal_id"],
    ...(typeof listed?.wallet_id === "string" ? { [listed.wallet_id]: "wallet_id" } : {}),
  });
  if (other) failWith(ex, `getWithdrawal ${id} answered another withdrawal than the one listed: ${other}`);
}

export const seedShapeChecks: Check[] = [
  balanceShapes,
  overviewListsAsset,
  unknownRecords,
  recordShapes,
  withdrawalList,
];
