// The keys of the authorization matrix and what the spec lets each do: a key may call an operation
// when its role is at least the operation's x-custody-min-role and its scopes hold every scope of
// x-custody-scopes (`*` holds them all).

import { firstString } from "../../provision/util.ts";
import type { Credentials } from "../../run/config.ts";
import type { CheckContext } from "../../run/context.ts";
import type { OperationInfo } from "../../run/operations.ts";
import { skip } from "../outcome.ts";

const RANK: Record<string, number> = { viewer: 1, admin: 2, owner: 3 };

export interface MatrixKey {
  label: string;
  credentials: Credentials;
  /** Undefined when unknown (a key given by flags): only the scopes decide then. */
  role?: string;
  scopes: string[];
}

/** True/false when the spec decides; undefined when it depends on a role the run does not know. */
export function allows(key: MatrixKey, op: OperationInfo): boolean | undefined {
  const scoped = key.scopes.includes("*") || op.scopes.every((s) => key.scopes.includes(s));
  if (!scoped) return false;
  if (key.role === undefined) return op.minRole === "viewer" ? true : undefined;
  return (RANK[key.role] ?? 0) >= (RANK[op.minRole] ?? 3);
}

/** Every scope the spec names on some operation. */
export function specScopes(operations: OperationInfo[]): string[] {
  return [...new Set(operations.flatMap((op) => op.scopes))].sort();
}

/** A key made for the matrix with createApiKey (revoked at the end of the run; its secret redacted). */
export async function createMatrixKey(
  ctx: CheckContext,
  workspaceId: string,
  role: string,
  scopes: string[],
): Promise<MatrixKey> {
  if (ctx.suite.supply === "given")
    skip(
      "the matrix keys are created with createApiKey, which this run does not drive",
      "--level full (or --create-fixtures)",
    );
  const ex = await ctx.call("createApiKey", {
    params: { workspace_id: workspaceId },
    body: { name: ctx.suite.marker.name(`authz-${role}-${scopes.join("+")}`), role, scopes },
  });
  let data: Record<string, unknown> | undefined;
  try {
    data = (JSON.parse(ex.response.text) as { data?: Record<string, unknown> }).data;
  } catch {
    data = undefined;
  }
  const apiSecret = firstString(data, "secret", "api_secret");
  const apiKey = firstString(data, "api_key", "key_id", "key", "id");
  ctx.redactor.addSecret(apiSecret);
  ctx.redactor.addKeyId(apiKey);
  if (ex.response.status === 403)
    skip("the --api-key may not create API keys (role owner needed) to build the matrix", "an owner --api-key");
  if (!apiKey || !apiSecret) skip(`createApiKey answered HTTP ${ex.response.status} without a key and its secret`);
  const keyId = firstString(data, "id") ?? apiKey;
  ctx.suite.removeAtEnd(`API key ${keyId} (${role}: ${scopes.join(", ")})`, "revokeApiKey", {
    params: { workspace_id: workspaceId, key_id: keyId },
  });
  return { label: `${role} key with ${scopes.join(", ")}`, credentials: { apiKey, apiSecret }, role, scopes };
}
