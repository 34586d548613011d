// The other workspace's own lists with its own key: none may show a record of the first workspace.
// Every read whose path names at most a workspace (given the other workspace's id) is asked, and its
// answer searched for the first workspace's id and the ids of every record the run holds there.

import type { CheckContext } from "../../run/context.ts";
import { isRead, pathParams } from "../../run/operations.ts";
import type { Check } from "../check.ts";
import { readList } from "../list-reader.ts";
import { skip } from "../outcome.ts";
import { recordsOf } from "./records.ts";
import { fromExchange, verdict, type WrongCell } from "./verdict.ts";

export const listsExcludeOther: Check = {
  id: "isolation.lists-exclude-other",
  statements: ["s1.mpc-wallets-in-workspace"],
  group: "isolation",
  title:
    "Another workspace's lists (wallets, transactions, webhooks, deliveries, keys, audit) show none of this workspace's records",
  severity: "MUST",
  seedRef: "§1 (wallets and webhooks are a workspace's); assumed: the list operations of the spec; OWASP API1:2023",
  level: "full",
  requires: ["other-tenant", "workspace"],
  awaits: [
    "wallet",
    "asset",
    "peer-asset",
    "money-funds",
    "withdrawal",
    "webhook",
    "delivery",
    "viewer-key",
    "scoped-key",
    "deposit",
  ],
  timeoutScale: 3,
  sends: "every list of the other workspace with its own key, looking for this workspace's id and record ids",
  async run(ctx) {
    const other = await ctx.need("other-tenant");
    if (!other.workspaceId)
      skip("the other workspace's id is not known: pass --other-workspace-id", "--other-workspace-id");
    const ours = await ownIds(ctx);
    if (other.workspaceId === ours[0])
      skip("--other-workspace-id names this workspace: isolation cannot be told apart");
    const wrong: WrongCell[] = [];
    const notJudged: string[] = [];
    let tried = 0;
    for (const op of ctx.operations) {
      const params = pathParams(op);
      if (!isRead(op) || !params.every((p) => p === "workspace_id")) continue;
      const args = { params: params.length ? { workspace_id: other.workspaceId } : {}, credentials: other.credentials };
      const ex = await ctx.call(op.operationId, args);
      if (ex.response.status < 200 || ex.response.status > 299) {
        notJudged.push(`${op.operationId} (HTTP ${ex.response.status})`);
        continue;
      }
      tried++;
      // A paged list is read to its end: a leaked record may sit past the first page.
      const rest = op.pagination
        ? await readList(ctx, op.operationId, args).then(
            (r) => JSON.stringify(r.items),
            () => "",
          )
        : "";
      const text = `${ex.response.text}${rest}`.toLowerCase();
      const seen = ours.filter((id) => text.includes(id.toLowerCase()));
      if (seen.length > 0)
        wrong.push(
          fromExchange(ex, `${op.operationId} of the other workspace shows ${seen.slice(0, 3).join(", ")} of this one`),
        );
    }
    ctx.fact(
      "isolation",
      `${tried} reads of the other workspace searched for ${ours.length} ids of this one${notJudged.length ? `; not judged: ${notJudged.join(", ")}` : ""}`,
    );
    if (tried === 0)
      skip(
        `none of the other workspace's own reads succeeded (${notJudged.join(", ")}): check --other-workspace-id`,
        "--other-workspace-id",
      );
    verdict("the other workspace's reads", wrong, tried);
  },
};

/** This workspace's id first, then the ids of every record the run holds in it (long enough to be unambiguous). */
async function ownIds(ctx: CheckContext): Promise<string[]> {
  const records = await recordsOf(ctx);
  const ids = new Set<string>(Object.values(records).filter((v): v is string => typeof v === "string"));
  const add = (v: string | undefined) => v && ids.add(v);
  const [peer, money, viewer, scoped, deposit] = await Promise.all([
    ctx.settle("peer-asset"),
    ctx.settle("money-funds"),
    ctx.settle("viewer-key"),
    ctx.settle("scoped-key"),
    ctx.settle("deposit"),
  ]);
  if (peer.ok) add(peer.value.walletId);
  if (money.ok) add(money.value.asset.walletId);
  if (viewer.ok && !ctx.config.viewer) add(viewer.value.apiKey);
  if (scoped.ok && !ctx.config.scoped) add(scoped.value.apiKey);
  if (deposit.ok) add(deposit.value.txHash);
  add(ctx.config.admin.apiKey);
  // An asset id names a catalog entry both workspaces see: not a record of this one.
  ids.delete(records.asset_id ?? "");
  return [records.workspace_id!, ...[...ids].filter((id) => id !== records.workspace_id && id.length >= 8)];
}
