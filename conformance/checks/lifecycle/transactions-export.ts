// The transactions export.

import type { Check } from "../check.ts";
import { expectSuccess, failWith } from "../expect.ts";

export const transactionsExport: Check = {
  id: "lifecycle.transactions-export",
  statements: ["s1.transactions-export", "s4.partial-export"],
  awaits: ["deposit"],
  group: "lifecycle",
  title: "exportTransactions answers json (with the run's deposit, when one was made) and csv",
  severity: "MUST",
  seedRef: "§1 (transactions can be exported for reconciliation); §4 partial operation",
  level: "full",
  requires: ["workspace"],
  timeoutScale: 4,
  sends: "exportTransactions as json and as csv",
  async run(ctx) {
    const workspaceId = await ctx.need("workspace");
    const deposit = ctx.config.faucetPrivateKey ? await ctx.settle("deposit") : undefined;
    const json = await ctx.call("exportTransactions", {
      params: { workspace_id: workspaceId },
      query: { format: "json" },
    });
    const data = expectSuccess(json, ctx.operation("exportTransactions")) as Record<string, unknown>;
    if (data.format !== "json" || !Array.isArray(data.transactions))
      failWith(json, "the json export has no transactions array");
    if (typeof data.count === "number" && data.count !== data.transactions.length)
      failWith(json, `count ${data.count} but ${data.transactions.length} transactions`);
    if (
      deposit?.ok &&
      deposit.value.reflected &&
      !json.response.text.toLowerCase().includes(deposit.value.txHash.toLowerCase())
    ) {
      failWith(json, `the export does not contain the confirmed deposit ${deposit.value.txHash}`);
    }
    const csv = await ctx.call("exportTransactions", {
      params: { workspace_id: workspaceId },
      query: { format: "csv" },
    });
    const csvData = expectSuccess(csv, ctx.operation("exportTransactions")) as Record<string, unknown>;
    if (csvData.format !== "csv" || typeof csvData.csv !== "string") failWith(csv, "the csv export has no csv text");
  },
};
