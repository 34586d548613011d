// Another workspace's records are refused, without saying whether that workspace exists.
import { randomUUID } from "node:crypto";
import type { Check } from "../check.ts";
import { expectError, expectRefusal, failWith } from "../expect.ts";

/** A key created for one workspace is refused another workspace's records (without saying it exists). */
export const otherWorkspaceRefused: Check = {
  id: "scope.other-workspace-refused",
  statements: ["s1.mpc-wallets-in-workspace"],
  group: "scope",
  title: "Another workspace's records are refused (403 or 404, never data)",
  severity: "MUST",
  seedRef:
    "§1 (wallets live inside a workspace); §4 operation 8 (the key of the workspace in the path); §7 (errors are the error envelope)",
  level: "seed",
  sends: "getWebhookVerificationKey of a workspace id nobody has",
  async run(ctx) {
    const ex = await ctx.call("getWebhookVerificationKey", {
      params: { workspace_id: `certify-other-${randomUUID()}` },
    });
    if (ctx.level === "full") expectError(ex, [403, 404], undefined, "the verification key of another workspace");
    else expectRefusal("seed", ex, "the verification key of another workspace");
  },
};

/** ...and the refusal does not reveal whether that workspace exists. */
export const otherWorkspaceNotFound: Check = {
  id: "scope.other-workspace-not-found",
  group: "scope",
  title: "Another workspace is answered 404, as if it did not exist",
  severity: "SHOULD",
  seedRef: "assumed: workspace isolation answers not_found (403 is as seed-valid, so a full-level SHOULD)",
  level: "full",
  sends: "getWebhookVerificationKey of a workspace id nobody has",
  async run(ctx) {
    const ex = await ctx.call("getWebhookVerificationKey", {
      params: { workspace_id: `certify-other-${randomUUID()}` },
    });
    if (ex.response.status !== 404) failWith(ex, `expected 404 for another workspace, got ${ex.response.status}`);
  },
};
