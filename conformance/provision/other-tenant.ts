import { randomUUID } from "node:crypto";
import { fail } from "../checks/outcome.ts";
import type { Suite } from "../run/context.ts";
import { missing } from "../run/supply.ts";
import type { OtherTenantFixture } from "./registry.ts";
import { firstString, successRecord } from "./util.ts";

/**
 * The key of another workspace (--other-api-key/--other-api-secret) for the tenant isolation checks.
 * It must authenticate: a refusal is only evidence of isolation when the key itself is good, so its
 * own workspace's verification key (or, without its id, a wallet nobody has) is never answered 401. Its workspace id comes from
 * --other-workspace-id or, when the run creates records, from a wallet created with that key (the
 * creation status names its workspace, seed 2.6); without it the list check says what to pass.
 */
export async function provideOtherTenant(suite: Suite): Promise<OtherTenantFixture> {
  const other = suite.config.other;
  if (!other) missing("other-tenant", suite.supply);
  // Its own workspace's verification key (operation 8) when its id is known, else a wallet nobody has.
  const probe =
    other.workspaceId !== undefined
      ? await suite.call("getWebhookVerificationKey", {
          params: { workspace_id: other.workspaceId },
          credentials: other.credentials,
        })
      : await suite.call("getWalletOverview", { params: { wallet_id: randomUUID() }, credentials: other.credentials });
  if (probe.response.status === 401) {
    fail(
      "the other workspace's key is refused with 401 on a read of its own: check --other-api-key/--other-api-secret",
      probe.evidence,
    );
  }
  if (other.workspaceId !== undefined) return { credentials: other.credentials, workspaceId: other.workspaceId };
  if (suite.supply === "given") return { credentials: other.credentials };
  const created = await suite.call("createWallet", {
    body: { name: suite.marker.name("other-workspace-wallet") },
    credentials: other.credentials,
  });
  const workspaceId =
    created.response.status < 300
      ? firstString(successRecord(suite, "createWallet", created), "workspace_id")
      : undefined;
  return workspaceId === undefined
    ? { credentials: other.credentials }
    : { credentials: other.credentials, workspaceId };
}
