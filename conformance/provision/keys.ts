import { fail, skip } from "../checks/outcome.ts";
import type { Credentials } from "../run/config.ts";
import type { Suite } from "../run/context.ts";
import { missing } from "../run/supply.ts";
import { firstString, successRecord } from "./util.ts";

/** A key with role viewer and every scope: --viewer-api-key/secret, or created with createApiKey. */
export function provideViewerKey(suite: Suite): Promise<Credentials> {
  if (suite.config.viewer) return Promise.resolve(suite.config.viewer);
  return createRestrictedKey(suite, "viewer", ["*"], "--viewer-api-key/--viewer-api-secret");
}

/** An admin key limited to balances:read: --scoped-api-key/secret, or created with createApiKey. */
export function provideScopedKey(suite: Suite): Promise<Credentials> {
  if (suite.config.scoped) return Promise.resolve(suite.config.scoped);
  return createRestrictedKey(suite, "admin", ["balances:read"], "--scoped-api-key/--scoped-api-secret");
}

async function createRestrictedKey(suite: Suite, role: string, scopes: string[], flags: string): Promise<Credentials> {
  if (suite.supply === "given") missing(role === "viewer" ? "viewer-key" : "scoped-key", suite.supply);
  const workspaceId = await suite.fixtures.need("workspace");
  const ex = await suite.call("createApiKey", {
    params: { workspace_id: workspaceId },
    body: { name: suite.marker.name(`${role}-key`), role, scopes },
  });
  if (ex.response.status === 403) {
    skip(`the --api-key may not create API keys (HTTP 403; that needs role owner): pass ${flags}`, flags);
  }
  // The secret is returned once; it joins the redaction list before anything can print it.
  const raw = rawData(ex.response.text);
  const apiSecret = firstString(raw, "secret", "api_secret");
  const apiKey = firstString(raw, "api_key", "key_id", "key", "id");
  suite.redactor.addSecret(apiSecret);
  suite.redactor.addKeyId(apiKey);
  const record = successRecord(suite, "createApiKey", ex);
  if (!apiKey || !apiSecret) fail("createApiKey answered without a key id and its secret", ex.evidence);
  const keyId = firstString(record, "id", "key_id") ?? apiKey;
  suite.removeAtEnd(`API key ${keyId} (${role})`, "revokeApiKey", {
    params: { workspace_id: workspaceId, key_id: keyId },
  });
  return { apiKey, apiSecret };
}

export function provideFaucet(suite: Suite): Promise<string> {
  if (!suite.config.faucetPrivateKey) missing("faucet", suite.supply);
  return Promise.resolve(suite.config.faucetPrivateKey);
}

function rawData(text: string): Record<string, unknown> | undefined {
  try {
    const data = (JSON.parse(text) as { data?: unknown }).data;
    return data && typeof data === "object" ? (data as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
