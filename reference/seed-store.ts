// Seeds a fresh store with the sandbox's workspace and its three API keys; on a restart with --data
// returns the values stored by the first run instead (credentials stay valid across restarts).
import type { SeededValues } from "./config.ts";
import { type ApiKeyRecord, C, type WorkspaceRecord } from "./domain/records.ts";
import type { StateStore, Tx } from "./store/state-store.ts";

const META = "sandbox.seeded_values";

export function ensureSeeded(
  store: StateStore,
  fresh: SeededValues,
  now: Date,
): { values: SeededValues; restored: boolean } {
  const stored = store.getMeta<SeededValues>(META);
  if (stored?.otherWorkspaceId) return { values: stored, restored: true };
  const at = now.toISOString();
  if (stored) {
    // Seeded before the sandbox had a second workspace: add it, keep everything else.
    const values: SeededValues = {
      ...stored,
      otherWorkspaceId: fresh.otherWorkspaceId,
      otherApiKey: fresh.otherApiKey,
      otherApiSecret: fresh.otherApiSecret,
      otherWebhookPrivateKey: fresh.otherWebhookPrivateKey,
    };
    store.transact((tx) => {
      putOtherWorkspace(tx, values, at);
      tx.setMeta(META, values);
    });
    return { values, restored: true };
  }
  store.transact((tx) => {
    tx.put<WorkspaceRecord>(C.workspaces, {
      id: fresh.workspaceId,
      name: "Sandbox workspace",
      owner_email: "owner@sandbox.invalid",
      webhook_private_key: fresh.webhookPrivateKey,
      created_at: at,
    });
    // The "admin key" the sandbox prints is the workspace owner's key, so every operation (API key
    // management included, which needs owner) can be tried with it.
    tx.put(
      C.apiKeys,
      apiKey(fresh.workspaceId, fresh.apiKey, fresh.apiSecret, "sandbox owner key", "owner", ["*"], at),
    );
    tx.put(
      C.apiKeys,
      apiKey(fresh.workspaceId, fresh.viewerApiKey, fresh.viewerApiSecret, "sandbox viewer key", "viewer", ["*"], at),
    );
    tx.put(
      C.apiKeys,
      apiKey(
        fresh.workspaceId,
        fresh.scopedApiKey,
        fresh.scopedApiSecret,
        "sandbox balances-only key",
        "viewer",
        ["balances:read"],
        at,
      ),
    );
    putOtherWorkspace(tx, fresh, at);
    tx.setMeta(META, fresh);
  });
  return { values: fresh, restored: false };
}

/** A second workspace and its owner key: another tenant, for trying isolation (custody certify --sandbox does). */
function putOtherWorkspace(tx: Tx, v: SeededValues, at: string): void {
  tx.put<WorkspaceRecord>(C.workspaces, {
    id: v.otherWorkspaceId,
    name: "Other sandbox workspace",
    owner_email: "other-owner@sandbox.invalid",
    webhook_private_key: v.otherWebhookPrivateKey,
    created_at: at,
  });
  tx.put(
    C.apiKeys,
    apiKey(v.otherWorkspaceId, v.otherApiKey, v.otherApiSecret, "other workspace owner key", "owner", ["*"], at),
  );
}

function apiKey(
  workspaceId: string,
  id: string,
  secret: string,
  name: string,
  role: ApiKeyRecord["role"],
  scopes: string[],
  at: string,
): ApiKeyRecord {
  return { id, workspace_id: workspaceId, name, role, scopes, secret, status: "active", created_at: at };
}
