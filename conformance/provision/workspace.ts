import type { Suite } from "../run/context.ts";
import { missing } from "../run/supply.ts";
import { firstString, successRecord } from "./util.ts";

/**
 * The workspace id: --workspace-id, or (full level) read from a wallet creation status, the one
 * record whose fields the seed lists with workspace_id (2.6).
 */
export async function provideWorkspace(suite: Suite): Promise<string> {
  if (suite.config.workspaceId) return suite.config.workspaceId;
  if (suite.supply === "given") missing("workspace", suite.supply);
  const ex = await suite.call("createWallet", { body: { name: suite.marker.name("discovery-wallet") } });
  const workspaceId = firstString(successRecord(suite, "createWallet", ex), "workspace_id");
  if (!workspaceId) missing("workspace", "create", "createWallet did not name one");
  return workspaceId;
}
