// The viewer role reads what it may (seed 1, 5).
import type { CheckContext } from "../../run/context.ts";
import { findOperation } from "../../run/operations.ts";
import type { Check } from "../check.ts";
import { expectSuccess, failWith } from "../expect.ts";

export const viewerCanRead: Check = {
  id: "role.viewer-can-read",
  statements: ["s1.workspace-roles", "s1.balances-per-wallet-and-asset", "s5.rule3-viewer-reads", "s4.partial-export"],
  group: "role",
  title:
    "A viewer sees balances and transactions (the workspace export; at full level also the transaction list and audit logs)",
  severity: "MUST",
  seedRef: "§5 rule 3 (a Viewer can see balances, transactions and audit logs); §4 (the transactions export)",
  level: "seed",
  requires: ["viewer-key", "wallet", "workspace"],
  sends: "with the viewer key: getWalletOverview (at full level also listTransactions, listAuditLogs)",
  async run(ctx) {
    const creds = await ctx.need("viewer-key");
    const wallet = await ctx.need("wallet");
    const workspaceId = await ctx.need("workspace");
    expectSuccess(
      await ctx.call("getWalletOverview", { params: { wallet_id: wallet.walletId }, credentials: creds }),
      ctx.level === "full" ? ctx.operation("getWalletOverview") : undefined,
      "getWalletOverview with a viewer key",
    );
    await expectViewerSeesTransactions(ctx, workspaceId);
    if (ctx.level !== "full") return;
    for (const operationId of ["listTransactions", "listAuditLogs"]) {
      if (!findOperation(ctx.operations, operationId)) continue;
      const ex = await ctx.call(operationId, { params: { workspace_id: workspaceId }, credentials: creds });
      expectSuccess(ex, ctx.operation(operationId), `${operationId} with a viewer key`);
    }
  },
};

/**
 * The seed's one operation on transactions is the export (§4, payload not shown): a viewer's export is
 * answered as the owner's is. The owner's answer is the control, so a deployment without the export
 * is not blamed; only a viewer refused where the owner is served breaks §5 rule 3.
 */
async function expectViewerSeesTransactions(ctx: CheckContext, workspaceId: string): Promise<void> {
  if (!findOperation(ctx.operations, "exportTransactions")) return;
  const sent = await ctx.sendJudged(
    "exportTransactions",
    { params: { workspace_id: workspaceId } },
    await ctx.need("viewer-key"),
  );
  if (!sent?.control) return;
  const { ex: viewer, control: owner } = sent;
  if (viewer.response.status < 200 || viewer.response.status > 299) {
    failWith(
      viewer,
      `exportTransactions with a viewer key: HTTP ${viewer.response.status}, where the owner's key gets HTTP ${owner.response.status} (a Viewer can see transactions, seed 5 rule 3)`,
    );
  }
}
