// What the seed itself fixes about the payloads of operations 1-8 (sections 2.2-2.9, 3 and 4),
// checked at --level seed. Only the types the seed states are enforced, only on fields present:
// ids, enums and extra fields are the deployment's choice (the generated schemas, which carry our
// assumed choices, are checked at --level full by envelope.response-schema).
import { randomUUID } from "node:crypto";
import type { Check } from "../../check.ts";
import type { CheckContext } from "../../context.ts";
import { expectEnvelope, failWith } from "../../expect.ts";
import { skip } from "../../outcome.ts";
import type { HttpExchange } from "../../probe.ts";

type FieldType = "string" | "integer" | "boolean" | "object" | "array" | "date-time";

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;

/** The field tables of the seed (2.2-2.9); a field absent from the payload is not a problem. */
export const SEED_FIELDS: Record<string, Record<string, FieldType>> = {
  WalletBalance: Object.fromEntries([
    ...["wallet_id", "asset_id", "symbol", "name", "balance", "available_balance", "total_balance", "on_hold", "balance_usd", "usd_value", "value_usd", "price_usd"].map((f) => [f, "string" as FieldType]),
    ["decimals", "integer"], ["asset", "object"], ["network", "object"], ["refreshed_at", "date-time"],
  ]),
  Withdrawal: Object.fromEntries([
    ...["id", "withdrawal_id", "wallet_id", "asset_id", "network_id", "amount", "recipient_address", "status", "tx_hash", "block_hash", "gas_used", "effective_gas_price_wei", "error", "status_reason"].map((f) => [f, "string" as FieldType]),
    ["block_number", "integer"], ["confirmed_at", "date-time"], ["transaction", "object"], ["withdrawal_approvals", "array"],
  ]),
  WalletCreationStatus: Object.fromEntries([
    ...["id", "wallet_id", "status", "workspace_id", "name", "wallet_type", "status_reason", "mpc_correlation_id"].map((f) => [f, "string" as FieldType]),
    ...["created_at", "updated_at", "completed_at"].map((f) => [f, "date-time" as FieldType]),
  ]),
  WebhookDelivery: Object.fromEntries([
    ...["id", "delivery_id", "webhook_id", "event_type", "event_id", "status", "workspace_id", "response_body", "error"].map((f) => [f, "string" as FieldType]),
    ["attempt_count", "integer"], ["response_status", "integer"], ["payload", "object"],
    ...["next_attempt_at", "last_attempt_at", "delivered_at", "created_at", "updated_at"].map((f) => [f, "date-time" as FieldType]),
  ]),
  WebhookDeleteResult: { id: "string", webhook_id: "string", status: "string" },
  WebhookVerificationKey: { public_key: "string" },
};

/** Problems of one record against a seed table, as short phrases. */
export function seedFieldProblems(record: unknown, table: keyof typeof SEED_FIELDS): string[] {
  if (!record || typeof record !== "object" || Array.isArray(record)) return [`data is not a ${table} object`];
  const problems: string[] = [];
  for (const [field, type] of Object.entries(SEED_FIELDS[table])) {
    const value = (record as Record<string, unknown>)[field];
    if (value === undefined || value === null) continue;
    if (!hasType(value, type)) problems.push(`${table}.${field} is ${JSON.stringify(value)}, not ${type === "date-time" ? "an ISO 8601 date-time" : `a ${type}`}`);
  }
  return problems;
}

function hasType(value: unknown, type: FieldType): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "object":
      return typeof value === "object" && !Array.isArray(value);
    case "array":
      return Array.isArray(value);
    case "date-time":
      return typeof value === "string" && DATE_TIME.test(value);
  }
}

/**
 * Seed 4: a read by id answers the record of that id. Only fields that name the path's ids are
 * compared, and only when present (the seed does not say which of `id`/`withdrawal_id` is the key).
 */
export function identityProblem(record: unknown, expected: Record<string, string | string[]>): string | undefined {
  if (!record || typeof record !== "object") return undefined;
  const r = record as Record<string, unknown>;
  for (const [wanted, fields] of Object.entries(expected)) {
    const names = Array.isArray(fields) ? fields : [fields];
    const present = names.filter((f) => typeof r[f] === "string");
    if (present.length > 0 && !present.some((f) => r[f] === wanted)) {
      return present.map((f) => `${f} is ${JSON.stringify(r[f])}`).join(", ") + `, not the ${JSON.stringify(wanted)} asked for`;
    }
  }
  return undefined;
}

function successData(ex: HttpExchange, what: string): unknown {
  const env = expectEnvelope(ex);
  if (ex.response.status !== 200 || env.success !== true) failWith(ex, `${what}: expected the HTTP 200 success envelope, got HTTP ${ex.response.status}`);
  return env.data;
}

/** Seed 2.2 and 4 (operations 1 and 2): balance reads are WalletBalance records of the seed's types. */
export const balanceShapes: Check = {
  id: "envelope.seed-balance-fields",
  group: "envelope",
  title: "Balance reads (operations 1 and 2) are WalletBalance records of the wallet asked for, with the seed's field types",
  severity: "MUST",
  seedRef: "§2.2; §4 operations 1-2",
  level: "seed",
  statements: ["s2.2.wallet-balance", "s2.2.wallet-balance-refreshed-at", "s4.op1-wallet-overview", "s4.op2-wallet-asset-balance"],
  requires: ["asset"],
  async run(ctx) {
    const asset = await ctx.need("asset");
    const overviewEx = await ctx.call("getWalletOverview", { params: { wallet_id: asset.walletId } });
    const overview = successData(overviewEx, "the overview");
    if (!Array.isArray(overview)) failWith(overviewEx, "the overview's data is not an array of WalletBalance (seed 4, operation 1)");
    const problems = overview.flatMap((item) => seedFieldProblems(item, "WalletBalance"));
    if (problems.length > 0) failWith(overviewEx, `the overview: ${problems.slice(0, 3).join("; ")}`);
    const foreign = overview.map((item) => identityProblem(item, { [asset.walletId]: "wallet_id" })).find(Boolean);
    if (foreign) failWith(overviewEx, `the overview of wallet ${asset.walletId} lists another wallet's balance: ${foreign}`);
    const balanceEx = await ctx.call("getWalletAssetBalance", { params: { wallet_id: asset.walletId, asset_id: asset.assetId } });
    const balance = successData(balanceEx, "the asset balance");
    const one = seedFieldProblems(balance, "WalletBalance");
    if (one.length > 0) failWith(balanceEx, `the asset balance: ${one.slice(0, 3).join("; ")}`);
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
  async run(ctx) {
    const asset = await ctx.need("asset");
    const ex = await ctx.call("getWalletOverview", { params: { wallet_id: asset.walletId } });
    const data = successData(ex, "the overview");
    if (!Array.isArray(data) || data.length === 0) failWith(ex, `the overview of wallet ${asset.walletId} is empty although asset ${asset.assetId} is attached`);
    const mentions = (item: unknown) => {
      const r = item as Record<string, unknown>;
      return r?.asset_id === asset.assetId || (r?.asset as Record<string, unknown> | undefined)?.id === asset.assetId;
    };
    // A record that names no asset at all cannot be matched; only a list naming other assets is a break.
    const named = data.filter((item) => typeof (item as Record<string, unknown>)?.asset_id === "string" || typeof ((item as Record<string, unknown>)?.asset as Record<string, unknown> | undefined)?.id === "string");
    if (named.length > 0 && !data.some(mentions)) failWith(ex, `the overview of wallet ${asset.walletId} does not list asset ${asset.assetId}`);
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
  statements: ["s4.op3-get-withdrawal", "s4.op5-wallet-creation-status", "s7.every-error-shape", "s4.two-errors-ops-3-5-6-7"],
  async run(ctx) {
    for (const [operationId, params, what] of [
      ["getWithdrawal", { withdrawal_id: `certify-unknown-${randomUUID()}` }, "an unknown withdrawal"],
      ["getWalletCreationStatus", { wallet_id: `certify-unknown-${randomUUID()}` }, "the creation status of an unknown wallet"],
    ] as const) {
      const ex = await ctx.call(operationId, { params });
      const env = expectEnvelope(ex);
      const ok = ex.response.status >= 200 && ex.response.status < 300;
      if (ok && env.success === true && (env.data === null || typeof env.data !== "object" || Array.isArray(env.data))) {
        failWith(ex, `${what}: HTTP ${ex.response.status} success with data ${JSON.stringify(env.data)} (a success carries the record; a miss is an error envelope)`);
      }
      if (!ok && (env.success !== false || env.data !== null)) failWith(ex, `${what}: HTTP ${ex.response.status} without the error envelope (success false, data null)`);
    }
  },
};

/** Seed 2.5-2.9 on the records the run can read (--withdrawal-id, the verification key). */
export const recordShapes: Check = {
  id: "envelope.seed-record-fields",
  group: "envelope",
  title: "Withdrawal, creation status and verification key reads have the seed's field types and are the record asked for",
  severity: "MUST",
  seedRef: "§2.5; §2.6; §2.9; §4 operations 3, 5, 8",
  level: "seed",
  statements: ["s2.5.withdrawal", "s2.6.wallet-creation-status", "s2.9.webhook-verification-key", "s4.op3-get-withdrawal", "s4.op5-wallet-creation-status", "s4.op8-webhook-verification-key"],
  // A withdrawal is read when one is given or already made; creating one drives a deposit first (slow).
  awaits: ["wallet", "workspace"],
  async run(ctx: CheckContext) {
    const reads: Array<[string, Record<string, string>, keyof typeof SEED_FIELDS, Record<string, string | string[]>]> = [];
    const f = ctx.suite.fixtures;
    const wallet = f.peek("wallet");
    const withdrawal = ctx.config.fixtureIds.withdrawalId ?? f.peek("withdrawal");
    const workspace = f.peek("workspace") ?? ctx.config.workspaceId;
    if (withdrawal) reads.push(["getWithdrawal", { withdrawal_id: withdrawal }, "Withdrawal", { [withdrawal]: ["id", "withdrawal_id"] }]);
    if (wallet) reads.push(["getWalletCreationStatus", { wallet_id: wallet.walletId }, "WalletCreationStatus", { [wallet.walletId]: "wallet_id" }]);
    if (workspace) reads.push(["getWebhookVerificationKey", { workspace_id: workspace }, "WebhookVerificationKey", {}]);
    if (reads.length === 0) skip("no record to read: pass --wallet-id, --withdrawal-id or --workspace-id", "--wallet-id, --withdrawal-id or --workspace-id");
    for (const [operationId, params, table, identity] of reads) {
      const ex = await ctx.call(operationId, { params });
      const data = successData(ex, operationId);
      const problems = seedFieldProblems(data, table);
      if (problems.length > 0) failWith(ex, `${operationId}: ${problems.slice(0, 3).join("; ")}`);
      const other = identityProblem(data, identity);
      if (other) failWith(ex, `${operationId} answered another record: ${other}`);
    }
  },
};

export const seedShapeChecks: Check[] = [balanceShapes, overviewListsAsset, unknownRecords, recordShapes];
